// Loads the MPICH transport (mpich_transport.cpp) from its own library with RTLD_LOCAL: MPICH is
// then reachable only through the Transport interface, never by a target program's MPI_* names.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "transport.hpp"

#ifndef MPISIM_TRANSPORT_LIBRARY
#error "MPISIM_TRANSPORT_LIBRARY (the path of the MPICH transport library) is not defined"
#endif

namespace mpisim::protocols {
namespace {

constexpr const char* kLibraryName = "libmpisim_transport_mpich.so";

/// The build's library; beside the executable (an installed or copied program) when absent.
std::string library_path() {
  if (access(MPISIM_TRANSPORT_LIBRARY, R_OK) == 0) return MPISIM_TRANSPORT_LIBRARY;
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string dir(exe, static_cast<std::size_t>(n));
    dir.resize(dir.rfind('/') + 1);
    for (const char* sub : {"", "../lib/"})
      if (access((dir + sub + kLibraryName).c_str(), R_OK) == 0) return dir + sub + kLibraryName;
  }
  return MPISIM_TRANSPORT_LIBRARY;
}

} // namespace

std::unique_ptr<Transport> open_mpich_transport(int* argc, char*** argv) {
  return open_transport_library(library_path(), argc, argv);
}

std::unique_ptr<Transport> open_transport_library(const std::string& path, int* argc,
                                                  char*** argv) {
  // Never closed: the transport's code must outlive every use of it.
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr,
                 "mpisim: cannot load the transport between host processes (%s): %s\n"
                 "mpisim: it is built with mpisim (target mpisim_transport_mpich); "
                 "rebuild mpisim, or run on one host process\n",
                 path.c_str(), dlerror());
    std::exit(1);
  }
  using Interface = int (*)();
  using Open = Transport* (*)(int*, char***);
  auto interface = reinterpret_cast<Interface>(dlsym(lib, "mpisim_transport_interface"));
  auto open = reinterpret_cast<Open>(dlsym(lib, "mpisim_open_mpich_transport"));
  if (!open) {
    std::fprintf(stderr, "mpisim: %s is not mpisim's transport library\n", path.c_str());
    std::exit(1);
  }
  const int found = interface ? interface() : 1;
  if (found != kTransportInterface) {
    std::fprintf(stderr,
                 "mpisim: %s implements version %d of the transport between host processes, and "
                 "this program was linked with an mpisim that expects version %d\n"
                 "mpisim: rebuild the program with this mpisim's compiler wrapper (mpisimcc, "
                 "mpisimcxx, mpisimf77), or run it on one host process\n",
                 path.c_str(), found, kTransportInterface);
    std::exit(1);
  }
  return std::unique_ptr<Transport>(open(argc, argv));
}

} // namespace mpisim::protocols
