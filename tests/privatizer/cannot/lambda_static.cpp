// A static local used from a lambda of its function.
int count_calls() {
  static int calls = 0;
  auto bump = [] { return ++calls; };
  return bump();
}
int main() {
  return count_calls();
}
