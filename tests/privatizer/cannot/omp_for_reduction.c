/* A reduction on a worksharing loop inside a parallel region names a global that is per rank. */
double total;
int main(void) {
#pragma omp parallel
  {
#pragma omp for reduction(+ : total)
    for (int i = 0; i < 8; ++i)
      total += i;
  }
  return 0;
}
