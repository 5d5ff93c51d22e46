// The simulator's main() for programs privatized by loading (mpisimfort, and mpisimcc
// -mpisim-privatize=load): the program was linked as a position-independent shared object and
// embedded in this executable (mpisim_program_image). Each rank loads its own copy, so COMMON
// blocks, module variables, SAVE'd locals and C globals are per rank without any rewriting.
//
// The copies are written to anonymous files (memfd) and opened with dlopen(RTLD_LOCAL): glibc
// recognises a library by its inode, so every copy needs a file of its own, and RTLD_LOCAL keeps
// each copy's symbols out of the others' reach. The MPI library is not in the copies: their MPI
// symbols resolve to this executable (linked with -rdynamic), so all ranks share one simulator.
// dlmopen namespaces would also separate the copies, but glibc allows only 16 of them and a new
// namespace cannot see this executable's symbols.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "simulator_main.hpp"
#include "world.hpp"

extern "C" const char mpisim_program_image[];
extern "C" const char mpisim_program_image_end[];
extern char** environ;

namespace {

using Entry = int (*)(int, char**, char**);

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

/// Loads this rank's copy of the program and returns its main, or nullptr after a message.
Entry load_copy(int rank) {
  const std::string name = "mpisim-rank-" + std::to_string(rank);
  const int fd = memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd < 0) {
    std::perror("mpisim: memfd_create for the rank's copy of the program");
    return nullptr;
  }
  const bool written =
      write_all(fd, mpisim_program_image,
                static_cast<std::size_t>(mpisim_program_image_end - mpisim_program_image));
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  void* handle = written ? dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  close(fd); // the mapping keeps the file
  if (!handle) {
    std::fprintf(stderr, "mpisim: rank %d cannot load its copy of the program: %s\n", rank,
                 written ? dlerror() : "cannot write the copy");
    return nullptr;
  }
  // The copy stays loaded until the process ends: MPI objects of other ranks (user operations,
  // attribute callbacks) may still point into it.
  auto entry = reinterpret_cast<Entry>(dlsym(handle, "main"));
  if (!entry) std::fprintf(stderr, "mpisim: the program has no main (Fortran: no PROGRAM unit)\n");
  return entry;
}

int run_rank(int argc, char** argv) {
  mpilite::World& w = mpilite::World::get();
  mpilite::Rank& r = w.self();
  // Loading is the simulator's work, not the program's: it is not charged to the rank's clock.
  w.kernel().enter_mpi(r);
  const Entry entry = load_copy(r.id);
  w.kernel().leave_mpi(r);
  return entry ? entry(argc, argv, environ) : 127;
}

} // namespace

int main(int argc, char** argv) {
  return mpisim::simulate_main(run_rank, argc, argv, "mpisim");
}
