/* A program with no MPI at all, built with plain cc: mpisimrun must not run it unsimulated. */
#include <stdio.h>

int main(void) {
  puts("plain_hello: ran without mpisim");
  return 0;
}
