// MPI entry points: memory of a dynamic window (MPI-3.1 section 11.2.4). Attaching is local:
// each rank keeps the regions it attached, and checks at its side that the operations that
// arrive fall in one of them (rma_apply.cpp), since origins cannot know.
#include <cstdint>
#include <iterator>

#include "api_win.hpp"

using namespace mpilite;

namespace {

/// A dynamic window of the calling rank in `out`, or the error.
int check_dynamic(ApiCall& c, MPI_Win win, Window*& out) {
  if (int e = check_window(c, win, out)) return e;
  if (out->flavor != MPI_WIN_FLAVOR_DYNAMIC)
    return win_error(c, *out, MPI_ERR_RMA_FLAVOR,
                     "{}: the window was not made by MPI_Win_create_dynamic", c.name);
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  ApiCall c("MPI_Win_attach");
  Window* w;
  if (int e = check_dynamic(c, win, w)) return e;
  if (size < 0) return win_error(c, *w, MPI_ERR_SIZE, "negative size {}", size);
  if (!base && size > 0) return win_error(c, *w, MPI_ERR_BASE, "null base of {} bytes", size);
  const auto start = reinterpret_cast<std::uintptr_t>(base);
  const auto end = start + static_cast<std::uintptr_t>(size);
  // Overlapping regions would make a detach ambiguous: MPI leaves them erroneous.
  auto next = w->attached.lower_bound(start);
  const bool overlaps_next = next != w->attached.end() && next->first < end;
  const bool overlaps_prev =
      next != w->attached.begin() &&
      std::prev(next)->first + static_cast<std::uintptr_t>(std::prev(next)->second) > start;
  if (overlaps_next || overlaps_prev || (next != w->attached.end() && next->first == start))
    return win_error(c, *w, MPI_ERR_RMA_ATTACH,
                     "memory at {} of {} bytes overlaps memory already attached to the window",
                     base, size);
  w->attached.emplace(start, size);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_attach)

int PMPI_Win_detach(MPI_Win win, const void* base) {
  ApiCall c("MPI_Win_detach");
  Window* w;
  if (int e = check_dynamic(c, win, w)) return e;
  if (w->attached.erase(reinterpret_cast<std::uintptr_t>(base)) == 0)
    return win_error(c, *w, MPI_ERR_ARG, "no memory was attached at {}", base);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_detach)

} // extern "C"
