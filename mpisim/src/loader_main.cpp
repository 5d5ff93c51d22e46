// The simulator's main() for programs privatized by loading (mpisimfort, which also takes C and
// C++ sources): the program was linked as a position-independent shared object and
// embedded in this executable (mpisim_program_image). Each rank loads its own copy, so COMMON
// blocks, module variables, SAVE'd locals and C globals are per rank without any rewriting.
//
// Each copy is written to a file of its own and opened with dlopen(RTLD_LOCAL): glibc takes a
// library it has loaded under the same path, or with the same device and inode, for the same
// library, so links to one file (or /proc/self/fd paths, whose numbers are reused) do not make
// copies. The file is removed as soon as it is mapped; its inode stays allocated (hence unique)
// while mapped. RTLD_LOCAL keeps each copy's symbols out of the others' reach. The MPI library is
// not in the copies: their MPI symbols resolve to this executable (linked with -rdynamic), so all
// ranks share one simulator. dlmopen namespaces would also separate the copies, but glibc allows
// only 16 of them and a new namespace cannot see this executable's symbols. Once loaded, a
// copy's code is mapped from one file for all ranks (shared_text.hpp).
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "shared_text.hpp"
#include "simulator_main.hpp"
#include "world.hpp"

extern "C" const char mpisim_program_image[];
extern "C" const char mpisim_program_image_end[];
extern char** environ;

namespace {

using Entry = int (*)(int, char**, char**);

std::size_t image_size() {
  return static_cast<std::size_t>(mpisim_program_image_end - mpisim_program_image);
}

/// Where the copies go: TMPDIR if set, else the shared-memory file system when it has room for
/// every local rank's copy twice over, else /tmp. Files on a disk file system cost it an inode
/// each, and ext4 looks for one away from recently deleted inodes: at 1 024 ranks, creating the
/// copies in /tmp took 5 % of a CG run's CPU time. A copy stays whole in memory while mapped
/// (unlinked but not freed), and containers often give /dev/shm only 64 MiB.
std::string copy_parent() {
  const char* tmp = std::getenv("TMPDIR");
  if (tmp && *tmp) return tmp;
  const auto image = static_cast<double>(image_size());
  const auto copies = static_cast<double>(mpilite::World::get().ranks().size());
  struct statvfs shm {};
  if (access("/dev/shm", W_OK | X_OK) == 0 && statvfs("/dev/shm", &shm) == 0 &&
      static_cast<double>(shm.f_bavail) * static_cast<double>(shm.f_frsize) >= 2 * image * copies)
    return "/dev/shm";
  return "/tmp";
}

/// The directory of this host process's copies, made at the first load and removed after the
/// last: one for all ranks, since making and removing a directory per rank cost the file system
/// more than the rest of the set-up.
class CopyDirectory {
public:
  /// The directory, or empty after a message.
  const std::string& path() {
    if (!made_) {
      made_ = true;
      const std::string parent = copy_parent();
      std::string dir = parent + "/mpisim-XXXXXX";
      if (mkdtemp(dir.data()))
        path_ = dir;
      else
        std::fprintf(stderr,
                     "mpisim: cannot create a directory in %s for the ranks' copies of the "
                     "program; set TMPDIR to a writable directory\n",
                     parent.c_str());
    }
    return path_;
  }
  /// One more rank has its copy loaded (or failed to); the last removes the directory.
  void loaded() {
    if (++loaded_ == mpilite::World::get().ranks().size() && !path_.empty()) rmdir(path_.c_str());
  }
  ~CopyDirectory() {
    if (!path_.empty()) rmdir(path_.c_str()); // some ranks never started
  }

private:
  bool made_ = false;
  std::string path_;
  std::size_t loaded_ = 0;
};

/// Maps the code and constants of the copy `handle` from one file for every rank (SharedText).
/// Where that fails the copy keeps its own pages: slower, and said once.
void share_code(void* handle) {
  static const mpisim::SharedText text(mpisim_program_image, image_size());
  static bool told = false;
  link_map* map = nullptr;
  std::string why =
      dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 ? text.share(map->l_addr) : dlerror();
  if (why.empty() || std::exchange(told, true)) return;
  std::fprintf(stderr,
               "mpisim: the ranks' copies of the program keep their own code (%s): the run is "
               "slower than it could be\n",
               why.c_str());
}

/// Loads this rank's copy of the program and returns its main, or nullptr after a message.
Entry load_copy(int rank) {
  static CopyDirectory directory;
  const std::string& dir = directory.path();
  if (dir.empty()) return nullptr;
  const std::string path = dir + "/rank-" + std::to_string(rank) + ".so";
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
  const bool written = fd >= 0 && mpisim::write_image(fd, mpisim_program_image, image_size());
  if (fd >= 0) close(fd);
  void* handle = written ? dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  unlink(path.c_str());
  directory.loaded();
  if (!handle) {
    std::fprintf(stderr, "mpisim: rank %d cannot load its copy of the program: %s\n", rank,
                 written ? dlerror() : "cannot write the copy (is TMPDIR full?)");
    return nullptr;
  }
  share_code(handle);
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
  w.kernel().hooks.enter_mpi(r);
  const Entry entry = load_copy(r.id);
  w.kernel().hooks.leave_mpi(r);
  return entry ? entry(argc, argv, environ) : 127;
}

} // namespace

int main(int argc, char** argv) {
  // The ranks share one libgfortran, which buffers a redirected standard output until the process
  // ends: the program's output would come after the report, and the ranks' lines in the order of
  // the buffers' flushes. Unbuffered (unless the user chose otherwise), each WRITE goes out when
  // its rank runs it, as C's line-buffered stdout does. libgfortran reads this when loaded.
  setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
  return mpisim::simulate_main(run_rank, argc, argv, "mpisim");
}
