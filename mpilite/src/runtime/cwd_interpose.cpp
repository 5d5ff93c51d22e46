// A rank's working directory is its own, as each process of a real MPI job has one: a rank that
// calls chdir() (or fchdir()) moves only itself, and its relative paths (fopen, open, mkdir, a
// Fortran OPEN, getcwd) resolve from there whichever rank ran before it. Left to the C library,
// the ranks of a host process shared one directory: when every rank ran chdir("run") the second
// one looked for run/run, and files a rank wrote in "its" directory landed in another rank's.
// The scheduler puts each rank's directory in place when it runs, only once a rank has changed
// one (a system call per switch between ranks in different directories, nothing otherwise).
// Outside ranks both are the C library's.
#include <unistd.h>

#include "interposed.hpp"
#include "scheduler.hpp"

namespace {

/// `change()` (the C library's chdir or fchdir) made the running rank's own.
template <class Change> int change_directory(Change change) {
  mpilite::Scheduler* s = mpilite::Scheduler::active();
  if (!s || !s->in_fiber()) return change();
  if (!s->keep_directories()) return -1;
  if (change() != 0) return -1;
  return s->directory_changed() ? 0 : -1;
}

} // namespace

extern "C" int chdir(const char* path) noexcept {
  static const auto libc_chdir = mpilite::next_symbol<int (*)(const char*)>("chdir");
  return change_directory([&] { return libc_chdir(path); });
}

extern "C" int fchdir(int fd) noexcept {
  static const auto libc_fchdir = mpilite::next_symbol<int (*)(int)>("fchdir");
  return change_directory([&] { return libc_fchdir(fd); });
}
