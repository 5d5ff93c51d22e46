// The variables mpiexec sets in each process it launches (MPICH's Hydra: PMI_RANK, PMI_SIZE,
// MPI_LOCALRANKID, MPI_LOCALNRANKS), as a rank reads them with getenv(): its own values, as its
// process would have them. Codes read them before MPI_Init, to pick a device or a file name. The
// host processes' own values are mpiexec's for the simulator (on several host processes PMI_RANK
// is the host process's number), and one host process has none.
#include <algorithm>
#include <cstring>
#include <string>

#include "environment_entries.hpp"
#include "world.hpp"

extern "C" char** environ;

namespace mpilite {
namespace {

/// The C library's getenv, on the process's environment. Scanned here rather than reached
/// through dlsym(RTLD_NEXT), as exit_interpose.cpp reaches exit(): getenv also runs before main
/// and inside the allocator's and the loader's own set-up, where dlsym, which allocates, is no
/// place to be.
char* process_getenv(const char* name) {
  const std::size_t n = std::strlen(name);
  if (!environ || n == 0 || std::strchr(name, '=')) return nullptr;
  for (char** e = environ; *e; ++e)
    if (names_variable(*e, {name, n})) return *e + n + 1;
  return nullptr;
}

/// The value of launcher variable `name` for rank `r`, or null when `name` is not one. The
/// node-local rank and count are those of the machine's node of `r`, as MPI_COMM_TYPE_SHARED
/// has it.
const char* launcher_value(World& w, Rank& r, const char* name) {
  static constexpr const char* kNames[] = {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID",
                                           "MPI_LOCALNRANKS"};
  for (std::size_t i = 0; i < std::size(kNames); ++i) {
    if (std::strcmp(name, kNames[i]) != 0) continue;
    // Kept by the rank: a pointer getenv returned stays valid while other ranks ask.
    std::string& value = r.rare().launcher_values[i];
    if (value.empty()) {
      const int first = w.node_of(r.id) * w.ranks_per_node;
      const int values[] = {r.id, w.size(), r.id - first,
                            std::min(w.ranks_per_node, w.size() - first)};
      value = std::to_string(values[i]);
    }
    return value.c_str();
  }
  return nullptr;
}

} // namespace
} // namespace mpilite

extern "C" char* getenv(const char* name) noexcept {
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (w)
    if (const char* v = mpilite::launcher_value(*w, w->self(), name)) return const_cast<char*>(v);
  return mpilite::process_getenv(name);
}
