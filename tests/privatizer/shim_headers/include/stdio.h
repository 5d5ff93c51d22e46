/* A shim of the C library's stdio.h, as test suites carry to build on several platforms: it
 * includes the real one with #include_next and adds to it. */
#ifndef SHIM_STDIO_H
#define SHIM_STDIO_H
#include_next <stdio.h>
#define SHIM_STDIO 1
#endif
