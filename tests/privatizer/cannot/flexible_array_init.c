/* A flexible array member given elements by the initializer (GNU C): refused. */
struct table {
  int n;
  double w[];
};
struct table weights = {3, {0.25, 0.5, 0.25}};
struct table empty = {0};
double first(void) {
  static struct table local = {1, {2.0}};
  return weights.w[0] + empty.n + local.w[0];
}
