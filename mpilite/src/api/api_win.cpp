// MPI entry points: making, freeing and querying windows (MPI-3.1 sections 11.2, 11.2.6, 11.2.7).
#include <cstdlib>
#include <cstring>
#include <vector>

#include "api_win.hpp"
#include "object_attributes.hpp"
#include "object_info.hpp"
#include "passive_target.hpp"

using namespace mpilite;

namespace mpilite {

int check_window(ApiCall& c, MPI_Win h, Window*& out) {
  if (int e = c.check_init()) return e;
  out = find_window(h);
  if (!out || out->owner != c.r.id)
    return c.error(MPI_COMM_WORLD, MPI_ERR_WIN, "invalid window {:#x}", static_cast<unsigned>(h));
  return MPI_SUCCESS;
}

} // namespace mpilite

namespace {

/// Whether the info of a window's creation says no_locks=true (MPI-3.1 11.2.1).
bool no_locks(MPI_Info info) {
  if (info == MPI_INFO_NULL) return false;
  char value[8] = {};
  int flag = 0;
  PMPI_Info_get(info, "no_locks", sizeof value - 1, value, &flag);
  return flag && std::strcmp(value, "true") == 0;
}

int make_window(ApiCall& c, void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                int flavor, MPI_Win* win) {
  Comm* cm;
  if (int e = c.check_intracomm(comm, cm)) return e;
  c.collective(comm);
  if (!win) return c.error(comm, MPI_ERR_ARG, "null window argument");
  if (size < 0) return c.error(comm, MPI_ERR_SIZE, "negative window size {}", size);
  if (disp_unit <= 0)
    return c.error(comm, MPI_ERR_DISP, "displacement unit {} is not positive", disp_unit);
  Window w;
  w.owner = c.r.id;
  w.base = base;
  w.size = size;
  w.disp_unit = disp_unit;
  w.flavor = flavor;
  replace_info(w.info, info);
  PMPI_Comm_dup(comm, &w.comm);
  PMPI_Comm_dup(comm, &w.passive_comm);
  const WindowTarget mine{base, size, disp_unit, no_locks(info) ? 0 : 1};
  w.targets.resize(static_cast<std::size_t>(cm->size));
  PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, w.targets.data(), sizeof mine, MPI_BYTE, w.comm);
  *win = add_window(std::move(w));
  Window& made = *find_window(*win);
  if (mine.passive) made.passive = serve_passive_target(c.w, c.r, made);
  return MPI_SUCCESS;
}

/// Records the making of window `win` (`op`: how it was made): replay makes one of the same
/// size, displacement unit and passive target service.
void record_window(ApiCall& c, const char* op, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win win) {
  MPISIM_RECORD_OP(c, op, static_cast<long long>(size), disp_unit, no_locks(info) ? 1 : 0,
                   CommArg{comm}, NewWinArg{win});
}

/// make_window for memory MPI allocated: the rank's part at `base`, given back through
/// `baseptr`. `owns`: `base` is the whole allocation, freed with the window (or now, if the
/// window cannot be made).
int make_allocated_window(ApiCall& c, void* base, bool owns, MPI_Aint size, int disp_unit,
                          MPI_Info info, MPI_Comm comm, int flavor, void* baseptr, MPI_Win* win) {
  if (int e = make_window(c, base, size, disp_unit, info, comm, flavor, win)) {
    if (owns) std::free(base);
    return e;
  }
  if (owns) find_window(*win)->owned.reset(base);
  std::memcpy(baseptr, &base, sizeof base);
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win* win) {
  ApiCall c("MPI_Win_create");
  if (!base && size > 0) return c.error(comm, MPI_ERR_BASE, "null base of {} bytes", size);
  if (int e = make_window(c, base, size, disp_unit, info, comm, MPI_WIN_FLAVOR_CREATE, win))
    return e;
  record_window(c, "win_create", size, disp_unit, info, comm, *win);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_create)

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  ApiCall c("MPI_Win_create_dynamic");
  // No memory yet: origins address what each rank attaches by its address (displacement unit 1
  // from MPI_BOTTOM), and MPI_WIN_BASE is MPI_BOTTOM, MPI_WIN_SIZE 0.
  return make_window(c, MPI_BOTTOM, 0, 1, info, comm, MPI_WIN_FLAVOR_DYNAMIC, win);
}
MPISIM_WEAK_ALIAS(Win_create_dynamic)

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                      MPI_Win* win) {
  ApiCall c("MPI_Win_allocate");
  if (!baseptr) return c.error(comm, MPI_ERR_ARG, "null baseptr argument");
  // Zeroed, as memory new to the rank reads (docs/model.md, Memory).
  void* base = size > 0 ? std::calloc(static_cast<std::size_t>(size), 1) : nullptr;
  if (size > 0 && !base)
    return c.error(comm, MPI_ERR_NO_MEM, "cannot allocate a window of {} bytes", size);
  if (int e = make_allocated_window(c, base, true, size, disp_unit, info, comm,
                                    MPI_WIN_FLAVOR_ALLOCATE, baseptr, win))
    return e;
  record_window(c, "win_allocate", size, disp_unit, info, comm, *win);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_allocate)

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void* baseptr, MPI_Win* win) {
  ApiCall c("MPI_Win_allocate_shared");
  Comm* cm;
  if (int e = c.check_intracomm(comm, cm)) return e;
  if (!baseptr) return c.error(comm, MPI_ERR_ARG, "null baseptr argument");
  if (size < 0) return c.error(comm, MPI_ERR_SIZE, "negative window size {}", size);
  // Ranks share memory only within their host process: every rank of the communicator sees
  // the same membership, so all refuse together.
  for (int m = 0; m < cm->size; ++m)
    if (!c.w.local(cm->world_of(m, c.r.id)))
      return c.error(comm, MPI_ERR_COMM,
                     "MPI_Win_allocate_shared needs every rank of the communicator in one host "
                     "process, and rank {} runs in another: pass a communicator from "
                     "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), or run with one host process",
                     m);
  // One block for all, each rank's part right after the previous rank's (MPI's contiguous
  // default); the first rank of the communicator allocates it and frees it with the window.
  std::vector<MPI_Aint> sizes(static_cast<std::size_t>(cm->size));
  PMPI_Allgather(&size, 1, MPI_AINT, sizes.data(), 1, MPI_AINT, comm);
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  MPI_Aint total = 0, offset = 0;
  for (int m = 0; m < cm->size; ++m) {
    if (m == me) offset = total;
    total += sizes[static_cast<std::size_t>(m)];
  }
  std::byte* block = nullptr;
  if (me == 0) block = static_cast<std::byte*>(std::calloc(static_cast<std::size_t>(total) + 1, 1));
  PMPI_Bcast(&block, sizeof block, MPI_BYTE, 0, comm);
  if (!block) return c.error(comm, MPI_ERR_NO_MEM, "cannot allocate {} bytes of windows", total);
  // The first rank's part starts the block: its window owns it.
  if (int e = make_allocated_window(c, block + offset, me == 0, size, disp_unit, info, comm,
                                    MPI_WIN_FLAVOR_SHARED, baseptr, win))
    return e;
  record_window(c, "win_allocate_shared", size, disp_unit, info, comm, *win);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_allocate_shared)

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  ApiCall c("MPI_Win_shared_query");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!size || !disp_unit || !baseptr) return win_error(c, *w, MPI_ERR_ARG, "null argument");
  if (w->flavor != MPI_WIN_FLAVOR_SHARED)
    return win_error(c, *w, MPI_ERR_RMA_FLAVOR,
                     "the window was not made by MPI_Win_allocate_shared");
  if (int e = c.check_rank(*c.w.comm(w->comm), rank, false, "target")) return e;
  // MPI_PROC_NULL: the first rank whose part is not empty.
  std::size_t at = 0;
  if (rank == MPI_PROC_NULL) {
    while (at + 1 < w->targets.size() && w->targets[at].size == 0)
      ++at;
  } else {
    at = static_cast<std::size_t>(rank);
  }
  const WindowTarget& t = w->targets[at];
  *size = t.size;
  *disp_unit = t.disp_unit;
  std::memcpy(baseptr, &t.base, sizeof t.base);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_shared_query)

int PMPI_Win_free(MPI_Win* win) {
  ApiCall c("MPI_Win_free");
  if (!win) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null window argument");
  Window* w;
  if (int e = check_window(c, *win, w)) return e;
  c.collective(w->comm);
  if (!w->ops.empty() || w->access_epoch || w->exposure_epoch || w->lock_all || !w->locks.empty())
    return win_error(c, *w, MPI_ERR_RMA_SYNC,
                     "the window has an epoch open ({} operations not yet completed): end it with "
                     "MPI_Win_fence, MPI_Win_complete, MPI_Win_wait or MPI_Win_unlock first",
                     w->ops.size());
  if (int e = delete_object_attrs(c, AttrObject::Win, *win, w->comm)) return e;
  // No rank may still reach into this one's memory.
  PMPI_Barrier(w->comm);
  if (w->passive) stop_passive_target(*w->passive);
  w->passive.reset();
  w->owned.reset();
  PMPI_Comm_free(&w->passive_comm);
  PMPI_Comm_free(&w->comm);
  replace_info(w->info, MPI_INFO_NULL);
  c.w.errhandlers().release(w->errhandler);
  erase_window(*win);
  MPISIM_RECORD_OP(c, "win_free", WinArg{*win});
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_free)

int PMPI_Win_set_info(MPI_Win win, MPI_Info info) {
  ApiCall c("MPI_Win_set_info");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  c.collective(w->comm);
  // Kept for MPI_Win_get_info; none changes what the window does (no_locks only counts at the
  // window's creation, as MPI allows).
  replace_info(w->info, info);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_set_info)

int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  ApiCall c("MPI_Win_get_info");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!info_used) return win_error(c, *w, MPI_ERR_ARG, "null info argument");
  return copy_info(w->info, info_used);
}
MPISIM_WEAK_ALIAS(Win_get_info)

int PMPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  ApiCall c("MPI_Win_get_group");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!group) return win_error(c, *w, MPI_ERR_ARG, "null group argument");
  return PMPI_Comm_group(w->comm, group);
}
MPISIM_WEAK_ALIAS(Win_get_group)

int PMPI_Win_set_name(MPI_Win win, const char* win_name) {
  ApiCall c("MPI_Win_set_name");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!win_name) return win_error(c, *w, MPI_ERR_ARG, "null name");
  w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_set_name)

int PMPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  ApiCall c("MPI_Win_get_name");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!win_name || !resultlen) return win_error(c, *w, MPI_ERR_ARG, "null argument");
  std::memcpy(win_name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_get_name)

int PMPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag) {
  ApiCall c("MPI_Win_get_attr");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  if (!attribute_val || !flag) return win_error(c, *w, MPI_ERR_ARG, "null argument");
  // The predefined attributes: the base itself, pointers to the others (MPI-3.1 11.2.6).
  void* value = nullptr;
  switch (keyval) {
  case MPI_WIN_BASE:
    value = w->base;
    break;
  case MPI_WIN_SIZE:
    value = &w->size;
    break;
  case MPI_WIN_DISP_UNIT:
    value = &w->disp_unit;
    break;
  case MPI_WIN_CREATE_FLAVOR:
    value = &w->flavor;
    break;
  case MPI_WIN_MODEL: { // one memory: MPI_Win_sync has nothing to copy (docs/model.md)
    static int unified = MPI_WIN_UNIFIED;
    value = &unified;
    break;
  }
  default: {
    bool found = false;
    if (int e = get_object_attr(c, AttrObject::Win, win, w->comm, keyval, &value, &found)) return e;
    if (!found) {
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  }
  std::memcpy(attribute_val, &value, sizeof value);
  *flag = 1;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Win_get_attr)

} // extern "C"
