/* A threadprivate function-local static: refused (declare it at file scope). */
int next(void) {
  static int n;
#pragma omp threadprivate(n)
  return ++n;
}
int main(void) {
  return next() - 1;
}
