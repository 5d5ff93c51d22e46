/* threadprivate would need a copy per rank and per thread. */
int counter;
#pragma omp threadprivate(counter)
int main(void) {
#pragma omp parallel
  counter += 1;
  return 0;
}
