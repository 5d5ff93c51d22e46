/* The second file: uses globals defined in main.c, and its own. */
#include "shared.h"

int repeated;           /* the same tentative definition, in a second file */
static int file_static; /* same name as a static in main.c: each file has its own */
static int* own = &file_static;

void other_file_writes(int rank) {
  counter = rank;
  *own = rank + 1000;
  repeated = rank + 7;
}

int other_file_reads(int rank) {
  int bad = 0;
  bad += counter != rank;
  bad += file_static != rank + 1000;
  bad += repeated != rank + 7;
  bad += me != rank;
  return bad;
}

int bump(void) {
  static int calls; /* function-local static in another file */
  return ++calls;
}
