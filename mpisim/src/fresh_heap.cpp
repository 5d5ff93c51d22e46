#include "fresh_heap.hpp"

#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace mpisim {
namespace {

constexpr const char* kNoTcache = "glibc.malloc.tcache_count=0";

/// The process's own arguments, as it was started (simulate_main may be given others, e.g. by
/// mpisim-replay).
std::vector<std::string> own_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');)
    args.push_back(arg);
  return args;
}

} // namespace

void make_heap_fresh() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (!tunables || !std::strstr(tunables, kNoTcache)) {
    const std::string set =
        tunables && *tunables ? std::string(tunables) + ":" + kNoTcache : std::string(kNoTcache);
    setenv("GLIBC_TUNABLES", set.c_str(), 1);
    std::vector<std::string> args = own_arguments();
    std::vector<char*> argv;
    for (std::string& arg : args)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);
    if (args.empty())
      errno = ENOENT;
    else
      execv("/proc/self/exe", argv.data());
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
  return "malloc_fill_byte=0:max_malloc_fill_size=2147483647"; // an int: up to 2 GiB
}
