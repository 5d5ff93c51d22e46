/* A helper library compiled with plain cc, not mpisimcc: its counter is one variable for all
   the ranks of a host process. */
int helper_count;

int helper_next(void) {
  return ++helper_count;
}
