// MPISIM_SHARED_MALLOC / MPISIM_SHARED_FREE (mpisim.h). Not MPI calls: they charge nothing and
// work inside and outside ranks.
#include <cstdio>
#include <functional>
#include <string_view>

#include <fmt/format.h>

#include "auto_fold.hpp"
#include "folded_heap.hpp"
#include "mpisim.h"
#include "world.hpp"

using namespace mpilite;

extern "C" {

void* MPISIM_Shared_malloc(size_t bytes, const char* file, int line) {
  // A site per source line: the blocks of all ranks allocated there share their pages.
  const std::uint64_t site =
      std::hash<std::string_view>{}(file ? file : "") * 31 + static_cast<std::uint64_t>(line);
  return fold_allocate(bytes, site, fold_holder());
}

void MPISIM_Shared_free(void* ptr) {
  if (!ptr || fold_release(ptr, fold_holder())) return;
  std::string why = fmt::format("MPISIM_SHARED_FREE({}): not a block of MPISIM_SHARED_MALLOC "
                                "of this rank (or it was freed already)",
                                ptr);
  World* w = World::try_get();
  if (w && w->in_rank())
    w->stop(RunEnd::FatalError, 1, fmt::format("rank {}: {}", w->self().id, why));
  std::fprintf(stderr, "mpisim: %s\n", why.c_str());
  std::abort();
}

} // extern "C"
