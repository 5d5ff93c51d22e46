/* A global named through ## cannot be rewritten where it is used. */
int counter_a;
#define COUNTER(x) counter_##x
int main(void) {
  COUNTER(a) = 1;
  return 0;
}
