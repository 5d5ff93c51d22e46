/* Both files define `counter` with a tentative definition: without -fcommon that is two
 * definitions of one variable (a link error with plain mpicc); mpisim stops and says so. */
#include <stdio.h>
int counter;
void bump(void);
int main(void) {
  bump();
  printf("counter %d\n", counter);
  return 0;
}
