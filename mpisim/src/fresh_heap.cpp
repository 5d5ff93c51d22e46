#include "fresh_heap.hpp"

#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace mpisim {
namespace {

constexpr const char* kNoTcache = "glibc.malloc.tcache_count=0";

} // namespace

void make_heap_fresh(char** argv) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (!tunables || !std::strstr(tunables, kNoTcache)) {
    const std::string set =
        tunables && *tunables ? std::string(tunables) + ":" + kNoTcache : std::string(kNoTcache);
    setenv("GLIBC_TUNABLES", set.c_str(), 1);
    std::fflush(nullptr);
    execv("/proc/self/exe", argv);
    std::fprintf(stderr,
                 "mpisim: warning: cannot re-execute the program with glibc's tcache off (%s); "
                 "memory that a rank gets from malloc may hold another rank's freed data. "
                 "Set GLIBC_TUNABLES=%s, or MPISIM_FRESH_HEAP=off to silence this\n",
                 std::strerror(errno), kNoTcache);
  }
  // glibc fills each block malloc returns with (perturb ^ 0xff) = 0 and each freed one with 0xff.
  mallopt(M_PERTURB, 0xff);
}

} // namespace mpisim

// Under AddressSanitizer, its allocator replaces glibc's (mallopt does nothing): it fills new
// blocks with malloc_fill_byte, up to max_malloc_fill_size bytes (0xbe and 4 KiB by default).
// ASAN_OPTIONS given at run time still override these.
extern "C" const char* __asan_default_options() {
  return "malloc_fill_byte=0:max_malloc_fill_size=1099511627776";
}
