// A declaration written by a macro whose body uses __VA_OPT__: the invocation is not written out.
#define DECLARE(name, ...) int name __VA_OPT__(= __VA_ARGS__);
DECLARE(counter, 5)
int next() {
  return ++counter;
}
