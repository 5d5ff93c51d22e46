// getpid() gives each rank an id of its own (process_id.hpp), and the calls that take an id
// back understand it: kill() and the affinity calls given the rank's own id act on the host
// process (as on the rank's process), kill() with signal 0 says any rank of the run exists, and
// opening /proc/<the rank's id>/... from that rank opens /proc/self/... (memory reports read
// /proc/<pid>/status). A signal to another rank cannot be delivered to it alone: refused.
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "interposed.hpp"
#include "process_id.hpp"

namespace mpilite {

pid_t host_pid() {
  return static_cast<pid_t>(syscall(SYS_getpid));
}

namespace {

/// The world rank whose id `pid` is, or -1.
int rank_of_pid(const World& w, pid_t pid) {
  return pid >= kFirstRankPid && pid - kFirstRankPid < w.size() ? pid - kFirstRankPid : -1;
}

/// `pid` as the host knows it: the calling rank's own id is the host process's.
pid_t host_id(pid_t pid) {
  World* w = programs_world();
  return w && pid == rank_pid(w->self().id) ? host_pid() : pid;
}

/// `path` as the host process names it: /proc/<the calling rank's id>/... becomes
/// /proc/self/...; null when the path is not one of those (kept as it is).
const char* own_proc_path(const char* path, std::string& buffer) {
  static constexpr char kProc[] = "/proc/";
  if (!path || std::strncmp(path, kProc, sizeof kProc - 1) != 0) return nullptr;
  World* w = programs_world();
  if (!w) return nullptr;
  const char* digits = path + sizeof kProc - 1;
  const char* end = digits;
  long pid = 0;
  while (*end >= '0' && *end <= '9' && pid <= kFirstRankPid + w->size())
    pid = pid * 10 + (*end++ - '0');
  if (end == digits || (*end != '/' && *end != '\0')) return nullptr;
  if (pid != rank_pid(w->self().id)) return nullptr;
  buffer = std::string(kProc) + "self" + end;
  return buffer.c_str();
}

/// The mode argument of open(): there only when the flags create a file.
mode_t open_mode(int flags, va_list args) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(args, mode_t) : 0;
}

/// `f(path, args...)` with the path the host process knows it by.
template <class Fn, class... Args> auto on_host_path(Fn f, const char* path, Args... args) {
  std::string own;
  const char* p = own_proc_path(path, own);
  return f(p ? p : path, args...);
}

using OpenFn = int (*)(const char*, int, ...);
using FopenFn = FILE* (*)(const char*, const char*);

} // namespace
} // namespace mpilite

using mpilite::FopenFn;
using mpilite::OpenFn;

extern "C" pid_t getpid() noexcept {
  mpilite::World* w = mpilite::programs_world();
  return w ? mpilite::rank_pid(w->self().id) : mpilite::host_pid();
}

extern "C" int kill(pid_t pid, int sig) noexcept {
  static const auto libc_kill = mpilite::next_symbol<int (*)(pid_t, int)>("kill");
  mpilite::World* w = mpilite::programs_world();
  const int target = w ? mpilite::rank_of_pid(*w, pid) : -1;
  if (target < 0) return libc_kill(pid, sig);
  if (sig == 0) return 0; // the rank exists: the program's check of a process id
  if (target == w->self().id) return libc_kill(mpilite::host_pid(), sig);
  w->stop(mpilite::RunEnd::FatalError, 1,
          fmt::format("rank {}: kill() sent signal {} to rank {}'s process id: under mpisim the "
                      "ranks are threads of one host process, and a signal cannot reach one "
                      "rank alone. Have the ranks tell each other with an MPI message",
                      w->self().id, sig, target));
}

extern "C" int open(const char* path, int flags, ...) {
  static const auto libc_open = mpilite::next_symbol<OpenFn>("open");
  va_list args;
  va_start(args, flags);
  const mode_t mode = mpilite::open_mode(flags, args);
  va_end(args);
  return mpilite::on_host_path(libc_open, path, flags, mode);
}

extern "C" FILE* fopen(const char* path, const char* mode) {
  static const auto libc_fopen = mpilite::next_symbol<FopenFn>("fopen");
  return mpilite::on_host_path(libc_fopen, path, mode);
}

// On a 64-bit host the C library's 64-bit names are its plain functions under a second name.
static_assert(sizeof(off_t) == 8,
              "open64 and fopen64 are open and fopen only where off_t has 64 bits");
extern "C" int open64(const char* path, int flags, ...) __attribute__((alias("open")));
extern "C" FILE* fopen64(const char* path, const char* mode) __attribute__((alias("fopen")));

extern "C" int sched_getaffinity(pid_t pid, size_t size, cpu_set_t* set) noexcept {
  static const auto libc_get =
      mpilite::next_symbol<int (*)(pid_t, size_t, cpu_set_t*)>("sched_getaffinity");
  return libc_get(mpilite::host_id(pid), size, set);
}

extern "C" int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t* set) noexcept {
  static const auto libc_set =
      mpilite::next_symbol<int (*)(pid_t, size_t, const cpu_set_t*)>("sched_setaffinity");
  return libc_set(mpilite::host_id(pid), size, set);
}
