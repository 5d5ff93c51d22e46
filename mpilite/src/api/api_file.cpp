// MPI entry points: opening, closing and managing files (MPI-3.1 sections 13.2, 13.6.1, 13.7).
// A file is the host file of its name, opened by every rank of the communicator; see
// docs/model.md (File I/O) for what an access costs.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_set>
#include <vector>

#include "api_errhandler.hpp"
#include "api_file.hpp"
#include "host_file.hpp"
#include "kernel.hpp"

using namespace mpilite;

namespace mpilite {
namespace {

/// The handles this host process gave out and has not closed. A run that ends with files open
/// (MPI_Abort, a replay stopped at a damaged record) frees them at exit all the same.
struct LiveFiles {
  std::unordered_set<const mpisim_file*> handles;
  LiveFiles() = default;
  LiveFiles(const LiveFiles&) = delete;
  LiveFiles& operator=(const LiveFiles&) = delete;
  ~LiveFiles() {
    for (const mpisim_file* f : handles)
      delete f;
  }
};

std::unordered_set<const mpisim_file*>& live_files() {
  static LiveFiles files;
  return files.handles;
}

/// The error of an invalid access mode, or nullptr.
const char* amode_problem(int amode) {
  const int access = amode & (MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY);
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR && access != MPI_MODE_WRONLY)
    return "exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and MPI_MODE_WRONLY is needed";
  if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    return "MPI_MODE_RDONLY cannot be combined with MPI_MODE_CREATE or MPI_MODE_EXCL";
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
    return "MPI_MODE_RDWR cannot be combined with MPI_MODE_SEQUENTIAL";
  constexpr int kKnown = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |
                         MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL |
                         MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
  if (amode & ~kKnown) return "unknown bits in the access mode";
  return nullptr;
}

/// The shared file pointers of the opens of this host process, by the file's communicator:
/// each open duplicates its communicator, so its context is unique while open among the
/// communicators that share a member, but communicators of disjoint groups (each rank's dup of
/// MPI_COMM_SELF, the parts of one split) have the same context. The world rank of the
/// communicator's first member tells those apart.
std::unordered_map<std::uint64_t, std::weak_ptr<SharedPointer>>& shared_pointers() {
  static std::unordered_map<std::uint64_t, std::weak_ptr<SharedPointer>> pointers;
  return pointers;
}

std::uint64_t shared_pointer_key(const Comm& comm, int rank) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(comm.context)) << 32 |
         static_cast<std::uint32_t>(comm.world_of(0, rank));
}

/// The shared pointer of the open on `comm` (the file's own communicator), made by the first
/// rank of this host process that opens it.
std::shared_ptr<SharedPointer> shared_pointer_of(World& w, const Comm& comm, int rank) {
  auto& slot = shared_pointers()[shared_pointer_key(comm, rank)];
  std::shared_ptr<SharedPointer> p = slot.lock();
  if (!p) {
    p = std::make_shared<SharedPointer>();
    for (int i = 0; i < comm.size && p->exact; ++i)
      p->exact = w.local(comm.world_of(i, rank)) != nullptr;
    slot = p;
  }
  return p;
}

} // namespace

int check_file(ApiCall& c, MPI_File fh) {
  if (int e = c.check_init()) return e;
  if (fh == MPI_FILE_NULL || !live_files().count(fh))
    return file_error(c, MPI_FILE_NULL, MPI_ERR_FILE, "invalid file handle {}",
                      static_cast<const void*>(fh));
  return MPI_SUCCESS;
}

namespace {

/// Charges the calling rank `duration` on its path to the file system, from when its earlier
/// accesses have left it.
void take_io_path(ApiCall& c, SimTime duration) {
  SimTime& free = c.r.rare().io_path_free;
  c.r.wait_until(free);
  c.r.spend_comm(duration, PathPart::Transfer);
  free = c.r.clock;
}

} // namespace

void charge_access(ApiCall& c, std::size_t bytes) {
  take_io_path(c, c.w.kernel().timing.file_access(c.r.id, bytes));
}

void charge_collective_access(ApiCall& c, const File& f, std::size_t bytes) {
  unsigned long long mine = bytes, all = 0;
  PMPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, f.comm);
  const MessageTiming& k = c.w.kernel().timing;
  take_io_path(c, std::max(k.file_access(c.r.id, bytes), k.file_system(all)));
}

SimTime file_access_later(ApiCall& c, std::size_t bytes) {
  SimTime& free = c.r.rare().io_path_free;
  free = std::max(c.r.clock, free) + c.w.kernel().timing.file_access(c.r.id, bytes);
  return free;
}

/// Files by Fortran handle (MPI_File_c2f); slot 0 is MPI_FILE_NULL.
std::vector<MPI_File>& fortran_files() {
  static std::vector<MPI_File> files{MPI_FILE_NULL};
  return files;
}

MPI_Datatype own_type(MPI_Datatype type) {
  if (builtin_datatype(type)) return type;
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  PMPI_Type_dup(type, &copy);
  PMPI_Type_commit(&copy);
  return copy;
}

void release_type(MPI_Datatype& type) {
  if (!builtin_datatype(type)) PMPI_Type_free(&type);
}

void add_live_file(MPI_File fh) {
  live_files().insert(fh);
}

void remove_live_file(MPI_File fh) {
  live_files().erase(fh);
  if (fh->f.fortran) fortran_files()[static_cast<std::size_t>(fh->f.fortran)] = MPI_FILE_NULL;
}

} // namespace mpilite

extern "C" {

int PMPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  ApiCall c("MPI_File_open");
  Comm* cm;
  if (int e = c.check_intracomm(comm, cm)) return e;
  c.collective(comm);
  if (!filename || !fh) return file_error(c, MPI_FILE_NULL, MPI_ERR_ARG, "null argument");
  if (const char* problem = amode_problem(amode))
    return file_error(c, MPI_FILE_NULL, MPI_ERR_AMODE, "access mode {:#x}: {}", amode, problem);
  auto* handle = new mpisim_file;
  File& f = handle->f;
  PMPI_Comm_dup(comm, &f.comm);
  int rank = 0;
  PMPI_Comm_rank(f.comm, &rank);
  // Rank 0 creates the file (alone, so that MPI_MODE_EXCL fails for nobody else), then the
  // others open what it made.
  // With MPI_MODE_APPEND every pointer starts at the end of the file as it is at the open,
  // which rank 0 sees before any rank of the open can write: {error, size}.
  long long opened[2] = {0, 0};
  long long& err = opened[0];
  if (rank == 0) {
    f.fd = open_host_file(filename, amode);
    if (f.fd < 0)
      err = -f.fd;
    else if (amode & MPI_MODE_APPEND)
      host_file_size(f.fd, opened[1]);
  }
  PMPI_Bcast(opened, 2, MPI_LONG_LONG, 0, f.comm);
  if (rank != 0 && err == 0) {
    f.fd = open_host_file(filename, amode & ~(MPI_MODE_CREATE | MPI_MODE_EXCL));
    if (f.fd < 0) err = -f.fd;
  }
  charge_access(c, 0);
  if (err) {
    if (f.fd >= 0) close_host_file(f.fd);
    PMPI_Comm_free(&f.comm);
    delete handle;
    *fh = MPI_FILE_NULL;
    // A failed open costs its time too, and codes try one to learn whether a file is there.
    MPISIM_RECORD_OP(c, "file_open", CommArg{comm}, amode, static_cast<int>(err),
                     NewFileArg{MPI_FILE_NULL});
    return file_error(c, MPI_FILE_NULL, file_error_class(static_cast<int>(err)),
                      "cannot open {}: {}", filename, std::strerror(static_cast<int>(err)));
  }
  f.path = filename;
  f.amode = amode;
  f.errhandler = c.r.rare_or_default().file_errhandler;
  c.w.errhandlers().retain(f.errhandler);
  replace_info(f.info, info);
  f.etype = std::make_shared<Datatype>(*builtin_datatype(MPI_BYTE));
  f.filetype = f.etype;
  f.shared = shared_pointer_of(c.w, *c.w.comm(f.comm), c.r.id);
  if (amode & MPI_MODE_APPEND) f.position = f.shared->offset = opened[1];
  add_live_file(handle);
  *fh = handle;
  MPISIM_RECORD_OP(c, "file_open", CommArg{comm}, amode, 0, NewFileArg{handle});
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_open)

int PMPI_File_close(MPI_File* fh) {
  ApiCall c("MPI_File_close");
  if (!fh) return file_error(c, MPI_FILE_NULL, MPI_ERR_ARG, "null file handle pointer");
  if (int e = check_file(c, *fh)) return e;
  File& f = (*fh)->f;
  c.collective(f.comm);
  MPISIM_RECORD_OP(c, "file_close", FileArg{*fh});
  // Every rank has finished its accesses before the file may go away.
  PMPI_Barrier(f.comm);
  int rank = 0;
  PMPI_Comm_rank(f.comm, &rank);
  close_host_file(f.fd);
  if ((f.amode & MPI_MODE_DELETE_ON_CLOSE) && rank == 0) delete_host_file(f.path);
  charge_access(c, 0);
  release_type(f.etype_handle);
  release_type(f.filetype_handle);
  replace_info(f.info, MPI_INFO_NULL);
  c.w.errhandlers().release(f.errhandler);
  const std::uint64_t key = shared_pointer_key(*c.w.comm(f.comm), c.r.id);
  PMPI_Comm_free(&f.comm);
  if (f.shared.use_count() == 1) shared_pointers().erase(key);
  remove_live_file(*fh);
  delete *fh;
  *fh = MPI_FILE_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_close)

int PMPI_File_delete(const char* filename, MPI_Info) {
  ApiCall c("MPI_File_delete");
  if (int e = c.check_init()) return e;
  if (!filename) return file_error(c, MPI_FILE_NULL, MPI_ERR_ARG, "null file name");
  MPISIM_RECORD_OP(c, "file_delete");
  charge_access(c, 0);
  if (const int err = delete_host_file(filename)) {
    return file_error(c, MPI_FILE_NULL, file_error_class(err), "cannot delete {}: {}", filename,
                      std::strerror(err));
  }
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_delete)

int PMPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  ApiCall c("MPI_File_get_size");
  if (int e = check_file(c, fh)) return e;
  if (!size) return file_error(c, fh, MPI_ERR_ARG, "null size argument");
  if (const int err = host_file_size(fh->f.fd, *size))
    return file_error(c, fh, MPI_ERR_IO, "cannot read the size of {}: {}", fh->f.path,
                      std::strerror(err));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_size)

namespace {

/// MPI_File_set_size and MPI_File_preallocate: collective; rank 0 changes the file.
int resize(ApiCall& c, MPI_File fh, MPI_Offset size, bool grow_only, const char* op) {
  if (int e = check_file(c, fh)) return e;
  File& f = fh->f;
  c.collective(f.comm);
  if (size < 0) return file_error(c, fh, MPI_ERR_ARG, "negative size {}", size);
  if ((f.amode & MPI_MODE_RDONLY) != 0)
    return file_error(c, fh, MPI_ERR_ACCESS, "{} was opened read-only", f.path);
  MPISIM_RECORD_OP(c, op, FileArg{fh});
  int rank = 0, err = 0;
  PMPI_Comm_rank(f.comm, &rank);
  // Every rank's earlier writes are in the file before it is cut, and no rank writes again
  // before the new size is there, as MPICH's ROMIO orders them.
  PMPI_Barrier(f.comm);
  if (rank == 0) {
    MPI_Offset now = 0;
    err = host_file_size(f.fd, now);
    if (!err && (!grow_only || now < size)) err = resize_host_file(f.fd, size);
  }
  PMPI_Bcast(&err, 1, MPI_INT, 0, f.comm);
  charge_access(c, 0);
  if (err)
    return file_error(c, fh, file_error_class(err), "cannot resize {}: {}", f.path,
                      std::strerror(err));
  return MPI_SUCCESS;
}

} // namespace

int PMPI_File_set_size(MPI_File fh, MPI_Offset size) {
  ApiCall c("MPI_File_set_size");
  return resize(c, fh, size, false, "file_set_size");
}
MPISIM_WEAK_ALIAS(File_set_size)

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  ApiCall c("MPI_File_preallocate");
  return resize(c, fh, size, true, "file_preallocate");
}
MPISIM_WEAK_ALIAS(File_preallocate)

int PMPI_File_get_amode(MPI_File fh, int* amode) {
  ApiCall c("MPI_File_get_amode");
  if (int e = check_file(c, fh)) return e;
  if (!amode) return file_error(c, fh, MPI_ERR_ARG, "null amode argument");
  *amode = fh->f.amode;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_amode)

int PMPI_File_get_group(MPI_File fh, MPI_Group* group) {
  ApiCall c("MPI_File_get_group");
  if (int e = check_file(c, fh)) return e;
  if (!group) return file_error(c, fh, MPI_ERR_ARG, "null group argument");
  return PMPI_Comm_group(fh->f.comm, group);
}
MPISIM_WEAK_ALIAS(File_get_group)

int PMPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  ApiCall c("MPI_File_get_info");
  if (int e = check_file(c, fh)) return e;
  if (!info_used) return file_error(c, fh, MPI_ERR_ARG, "null info argument");
  return copy_info(fh->f.info, info_used);
}
MPISIM_WEAK_ALIAS(File_get_info)

int PMPI_File_set_info(MPI_File fh, MPI_Info info) {
  ApiCall c("MPI_File_set_info");
  if (int e = check_file(c, fh)) return e;
  c.collective(fh->f.comm);
  replace_info(fh->f.info, info);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_set_info)

int PMPI_File_sync(MPI_File fh) {
  ApiCall c("MPI_File_sync");
  if (int e = check_file(c, fh)) return e;
  c.collective(fh->f.comm);
  if ((fh->f.amode & MPI_MODE_RDONLY) != 0)
    return file_error(c, fh, MPI_ERR_ACCESS, "{} was opened read-only", fh->f.path);
  MPISIM_RECORD_OP(c, "file_sync", FileArg{fh});
  PMPI_Barrier(fh->f.comm);
  charge_access(c, 0);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_sync)

int PMPI_File_set_atomicity(MPI_File fh, int flag) {
  ApiCall c("MPI_File_set_atomicity");
  if (int e = check_file(c, fh)) return e;
  c.collective(fh->f.comm);
  // Every access is one host file call sequence that no other rank interleaves within a host
  // process; the flag is kept for MPI_File_get_atomicity.
  fh->f.atomic = flag != 0;
  MPISIM_RECORD_OP(c, "file_set_atomicity", FileArg{fh});
  PMPI_Barrier(fh->f.comm);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_set_atomicity)

int PMPI_File_get_atomicity(MPI_File fh, int* flag) {
  ApiCall c("MPI_File_get_atomicity");
  if (int e = check_file(c, fh)) return e;
  if (!flag) return file_error(c, fh, MPI_ERR_ARG, "null flag argument");
  *flag = fh->f.atomic ? 1 : 0;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_atomicity)

int PMPI_File_create_errhandler(MPI_File_errhandler_function* fn, MPI_Errhandler* errhandler) {
  ApiCall c("MPI_File_create_errhandler");
  return create_errhandler(c, reinterpret_cast<void (*)()>(fn), errhandler);
}
MPISIM_WEAK_ALIAS(File_create_errhandler)

int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler errhandler) {
  ApiCall c("MPI_File_set_errhandler");
  if (int e = c.check_init()) return e;
  if (fh != MPI_FILE_NULL)
    if (int e = check_file(c, fh)) return e;
  if (!c.w.errhandlers().valid(errhandler))
    return file_error(c, fh, MPI_ERR_ARG, "invalid error handler {:#x}",
                      static_cast<unsigned>(errhandler));
  c.w.errhandlers().replace(fh ? fh->f.errhandler : c.r.rare().file_errhandler, errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_set_errhandler)

int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler* errhandler) {
  ApiCall c("MPI_File_get_errhandler");
  if (int e = c.check_init()) return e;
  if (fh != MPI_FILE_NULL)
    if (int e = check_file(c, fh)) return e;
  if (!errhandler) return file_error(c, fh, MPI_ERR_ARG, "null errhandler argument");
  *errhandler = fh ? fh->f.errhandler : c.r.rare_or_default().file_errhandler;
  c.w.errhandlers().retain(*errhandler);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_errhandler)

// Handle conversions are local and allowed at any time (no ApiCall).
MPI_Fint PMPI_File_c2f(MPI_File file) {
  if (file == MPI_FILE_NULL || !live_files().count(file)) return 0;
  if (file->f.fortran == 0) {
    fortran_files().push_back(file);
    file->f.fortran = static_cast<MPI_Fint>(fortran_files().size() - 1);
  }
  return file->f.fortran;
}
MPISIM_WEAK_ALIAS(File_c2f)

MPI_File PMPI_File_f2c(MPI_Fint file) {
  const auto& files = fortran_files();
  if (file <= 0 || static_cast<std::size_t>(file) >= files.size()) return MPI_FILE_NULL;
  return files[static_cast<std::size_t>(file)];
}
MPISIM_WEAK_ALIAS(File_f2c)

int PMPI_File_call_errhandler(MPI_File fh, int errorcode) {
  ApiCall c("MPI_File_call_errhandler");
  if (int e = c.check_init()) return e;
  if (fh != MPI_FILE_NULL)
    if (int e = check_file(c, fh)) return e;
  file_error(c, fh, errorcode, "error code {} raised by the program", errorcode);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_call_errhandler)

} // extern "C"
