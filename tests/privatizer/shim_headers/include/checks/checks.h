/* Assertion macros of a helper library, and the count of checks each process made. */
#ifndef CHECKS_H
#define CHECKS_H
#include <stdio.h>
#include <stdlib.h>

static int checks_made;

#define check(cond, ...)                                                                           \
  do {                                                                                             \
    ++checks_made;                                                                                 \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, __VA_ARGS__);                                                                \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)
#define new_zeroed(type, n) ((type*)calloc((n), sizeof(type)))
#endif
