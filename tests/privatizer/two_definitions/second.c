/* The second definition of `counter` (see first.c). */
int counter;
void bump(void) {
  ++counter;
}
