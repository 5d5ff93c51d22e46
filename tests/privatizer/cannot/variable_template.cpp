// Variable templates are not supported.
template <class T> T zero = T();
int main() {
  return zero<int>;
}
