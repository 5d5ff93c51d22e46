#include "interposed.hpp"

namespace mpilite {

void* libgfortran_symbol(const char* name) {
  static void* lib = dlopen("libgfortran.so.5", RTLD_NOLOAD | RTLD_LAZY);
  void* f = lib ? dlsym(lib, name) : nullptr;
  if (!f) {
    std::fprintf(stderr, "mpisim: the program calls %s, but libgfortran.so.5 is not loaded\n",
                 name);
    std::abort();
  }
  return f;
}

} // namespace mpilite
