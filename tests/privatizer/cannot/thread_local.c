/* thread_local stays thread-local: the privatizer warns and leaves it. */
#include <stdio.h>
_Thread_local int per_thread;
int per_rank;
int main(void) {
  printf("thread_local: %d %d\n", ++per_thread, ++per_rank);
  return 0;
}
