/* A thread-local function-local static: refused (declare it at file scope). */
int next(void) {
  static _Thread_local int n;
  return ++n;
}
int main(void) {
  return next() - 1;
}
