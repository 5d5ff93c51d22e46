// A macro that makes a string of an argument naming a global, whose body cannot be written out.
#include <string>
int repetitions = 3;
#define HANDLE(KEY, NAME, ...)                                                                     \
  if (KEY == #NAME) return &NAME __VA_OPT__(+__VA_ARGS__);
int* parameter(const std::string& key) {
  HANDLE(key, repetitions)
  return nullptr;
}
