// MPI entry points: reading and writing files (MPI-3.1 section 13.4): explicit offsets, the
// individual and the shared file pointer; independent, collective, split collective, ordered
// and non-blocking forms. All of them go through access(); what differs is where the data goes
// and how its time is charged (docs/model.md, File I/O).
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "api_file.hpp"
#include "host_file.hpp"
#include "request.hpp"

using namespace mpilite;

namespace {

/// Which file pointer an access uses.
enum class Pointer { Explicit, Individual, Shared };
/// Independent, collective over the file's communicator, or collective in rank order on the
/// shared pointer.
enum class Mode { Independent, Collective, Ordered };

struct Access {
  MPI_File fh;
  MPI_Offset offset; ///< Explicit: in etypes of the view
  void* buf;
  int count;
  MPI_Datatype type;
  bool write;
  Pointer pointer;
  Mode mode;
};

/// A call's name in a record: its MPI name without "MPI_", in lower case ("file_read_at").
std::string recorded_name(const ApiCall& c) {
  std::string name(c.name + 4);
  for (char& ch : name)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return name;
}

int check_access(ApiCall& c, const Access& a, const Datatype*& type) {
  if (int e = check_file(c, a.fh)) return e;
  const File& f = a.fh->f;
  if (a.mode != Mode::Independent) c.collective(f.comm);
  if (int e = c.check_type(*c.w.comm(f.comm), a.type, type)) return e;
  if (a.count < 0) return file_error(c, a.fh, MPI_ERR_COUNT, "negative count {}", a.count);
  if (!a.buf && !null_buffer_allowed(a.count, type))
    return file_error(c, a.fh, MPI_ERR_BUFFER, "null buffer with count {}", a.count);
  if (a.write && (f.amode & MPI_MODE_RDONLY))
    return file_error(c, a.fh, MPI_ERR_READ_ONLY, "{} was opened MPI_MODE_RDONLY", f.path);
  if (!a.write && (f.amode & MPI_MODE_WRONLY))
    return file_error(c, a.fh, MPI_ERR_ACCESS, "{} was opened MPI_MODE_WRONLY", f.path);
  if ((f.amode & MPI_MODE_SEQUENTIAL) && a.pointer != Pointer::Shared)
    return file_error(c, a.fh, MPI_ERR_UNSUPPORTED_OPERATION,
                      "{} was opened MPI_MODE_SEQUENTIAL: only shared-pointer calls may access it",
                      f.path);
  if (a.pointer == Pointer::Explicit && a.offset < 0)
    return file_error(c, a.fh, MPI_ERR_ARG, "negative offset {}", a.offset);
  const std::size_t bytes = static_cast<std::size_t>(a.count) * type->size;
  if (bytes % f.etype->size != 0)
    return file_error(c, a.fh, MPI_ERR_TYPE,
                      "{} bytes of data are not a whole number of etypes ({} bytes each)", bytes,
                      f.etype->size);
  // What mpisim cannot do ends the run whatever the file's handler: under the default,
  // MPI_ERRORS_RETURN, a program that does not check would go on without its data.
  // A replay's stand-in accesses cost the same wherever the pointer is.
  if (a.pointer == Pointer::Shared && a.mode == Mode::Independent && !f.shared->exact &&
      !stand_in_files())
    c.w.stop(RunEnd::FatalError, 1,
             fmt::format("rank {}: the shared file pointer of {} is opened by ranks of several "
                         "host processes: independent shared-pointer calls need all of them in "
                         "one host process (run with -hosts 1), or use the collective _ordered "
                         "form",
                         c.r.id, f.path));
  return MPI_SUCCESS;
}

/// Where the access starts, in etypes; moves the pointer it uses past it.
MPI_Offset start_position(const Access& a, std::size_t etypes) {
  File& f = a.fh->f;
  const auto n = static_cast<MPI_Offset>(etypes);
  switch (a.pointer) {
  case Pointer::Explicit:
    return a.offset;
  case Pointer::Individual:
    return f.position;
  case Pointer::Shared:
    break;
  }
  if (a.mode != Mode::Ordered) {
    const MPI_Offset at = f.shared->offset;
    f.shared->offset += n;
    return at;
  }
  // Rank order: each rank starts where the ranks before it end, after every rank's earlier
  // independent accesses through the pointer (hence the barrier). Every rank reads the pointer
  // before the scan, which no rank leaves before all have entered it.
  PMPI_Barrier(f.comm);
  const MPI_Offset base = f.shared->offset;
  long long before = 0, total = 0, mine = n;
  PMPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, f.comm);
  int rank = 0;
  PMPI_Comm_rank(f.comm, &rank);
  if (rank == 0) before = 0;
  PMPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, f.comm);
  f.shared->offset = base + total;
  return base + before;
}

/// Moves the data of `a` between memory and the file from `position`; the bytes moved in
/// `moved`; 0 or an errno.
int move_data(const Access& a, const Datatype& type, MPI_Offset position, std::size_t& moved) {
  const File& f = a.fh->f;
  const std::size_t bytes = static_cast<std::size_t>(a.count) * type.size;
  const std::size_t at = stream_offset(f, position);
  std::vector<std::byte> packed;
  std::byte* data = static_cast<std::byte*>(a.buf);
  if (!type.contiguous()) {
    packed.resize(bytes);
    data = packed.data();
  }
  if (a.write) {
    if (!type.contiguous()) pack(a.buf, static_cast<std::size_t>(a.count), type, data);
    moved = bytes;
    return write_view(f, at, data, bytes);
  }
  const int err = read_view(f, at, data, bytes, moved);
  if (!err && !type.contiguous()) unpack(data, moved, type, a.buf);
  return err;
}

/// The whole access; for a non-blocking one (`request` given) the completed request, whose
/// completion is the access time after the rank's path is free (file_access_later).
int access(ApiCall& c, const Access& a, MPI_Status* status, MPI_Request* request = nullptr) {
  const Datatype* type = nullptr;
  if (int e = check_access(c, a, type)) return e;
  if (request == nullptr && status == nullptr)
    return file_error(c, a.fh, MPI_ERR_ARG, "null status argument (use MPI_STATUS_IGNORE)");
  File& f = a.fh->f;
  const std::size_t bytes = static_cast<std::size_t>(a.count) * type->size;
  const MPI_Offset position = start_position(a, bytes / f.etype->size);
  std::size_t moved = 0;
  const int err = move_data(a, *type, position, moved);
  if (a.pointer == Pointer::Individual)
    f.position = position + static_cast<MPI_Offset>(moved / f.etype->size);
  MPI_Status s = null_status();
  set_status_bytes(s, moved);
  // A non-blocking independent access takes its time after the call; the others in it.
  if (a.mode != Mode::Independent)
    charge_collective_access(c, f, bytes);
  else if (!request)
    charge_access(c, bytes);
  if (request) {
    Request* q = completed_request(c.w, c.r, RequestKind::Recv);
    q->status = s;
    if (a.mode == Mode::Independent) q->ready_time = file_access_later(c, bytes);
    *request = q->handle;
    MPISIM_RECORD_OP(c, recorded_name(c).c_str(), FileArg{a.fh}, a.count, TypeArg{a.type},
                     NewRequestArg{*request});
  } else {
    MPISIM_RECORD_OP(c, recorded_name(c).c_str(), FileArg{a.fh}, a.count, TypeArg{a.type});
  }
  if (err)
    return file_error(c, a.fh, file_error_class(err), "{} of {} failed: {}",
                      a.write ? "writing" : "reading", f.path, std::strerror(err));
  store_status(status, s);
  return MPI_SUCCESS;
}

/// Begins a split collective: the whole access now, its status kept for the _end call.
int begin_split(ApiCall& c, const Access& a) {
  if (int e = check_file(c, a.fh)) return e;
  File& f = a.fh->f;
  if (f.split_pending)
    return file_error(c, a.fh, MPI_ERR_OTHER,
                      "a split collective is already active on {}: end it first", f.path);
  MPI_Status s{};
  if (int e = access(c, a, &s)) return e;
  f.split_pending = true;
  f.split_status = s;
  return MPI_SUCCESS;
}

int end_split(ApiCall& c, MPI_File fh, MPI_Status* status) {
  if (int e = check_file(c, fh)) return e;
  File& f = fh->f;
  if (!f.split_pending)
    return file_error(c, fh, MPI_ERR_OTHER, "no split collective is active on {}", f.path);
  MPISIM_RECORD_OP(c, recorded_name(c).c_str(), FileArg{fh});
  f.split_pending = false;
  store_status(status, f.split_status);
  return MPI_SUCCESS;
}

constexpr bool kRead = false;
constexpr bool kWrite = true;

} // namespace

// One definition per entry point: name, parameters, and the Access it makes.
#define MPISIM_FILE_ACCESS(name, params, offset, buf, write, pointer, mode)                        \
  int PMPI_##name params {                                                                         \
    ApiCall c("MPI_" #name);                                                                       \
    return access(c, {fh, offset, const_cast<void*>(buf), count, datatype, write, pointer, mode},  \
                  status);                                                                         \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name)
#define MPISIM_FILE_IACCESS(name, params, offset, buf, write, pointer, mode)                       \
  int PMPI_##name params {                                                                         \
    ApiCall c("MPI_" #name);                                                                       \
    if (!request) return file_error(c, fh, MPI_ERR_ARG, "null request argument");                  \
    return access(c, {fh, offset, const_cast<void*>(buf), count, datatype, write, pointer, mode},  \
                  MPI_STATUS_IGNORE, request);                                                     \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name)
#define MPISIM_FILE_BEGIN(name, params, offset, buf, write, pointer, mode)                         \
  int PMPI_##name params {                                                                         \
    ApiCall c("MPI_" #name);                                                                       \
    return begin_split(                                                                            \
        c, {fh, offset, const_cast<void*>(buf), count, datatype, write, pointer, mode});           \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name)
#define MPISIM_FILE_END(name, params)                                                              \
  int PMPI_##name params {                                                                         \
    ApiCall c("MPI_" #name);                                                                       \
    return end_split(c, fh, status);                                                               \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name)

#define READ_ARGS (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
#define WRITE_ARGS                                                                                 \
  (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
#define READ_AT_ARGS                                                                               \
  (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status)
#define WRITE_AT_ARGS                                                                              \
  (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,              \
   MPI_Status* status)
#define IREAD_ARGS (MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
#define IWRITE_ARGS                                                                                \
  (MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request)
#define IREAD_AT_ARGS                                                                              \
  (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,                    \
   MPI_Request* request)
#define IWRITE_AT_ARGS                                                                             \
  (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,              \
   MPI_Request* request)
#define BEGIN_READ_ARGS (MPI_File fh, void* buf, int count, MPI_Datatype datatype)
#define BEGIN_WRITE_ARGS (MPI_File fh, const void* buf, int count, MPI_Datatype datatype)
#define BEGIN_READ_AT_ARGS                                                                         \
  (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype)
#define BEGIN_WRITE_AT_ARGS                                                                        \
  (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype)

using enum Pointer;
using enum Mode;

extern "C" {

MPISIM_FILE_ACCESS(File_read, READ_ARGS, 0, buf, kRead, Individual, Independent)
MPISIM_FILE_ACCESS(File_write, WRITE_ARGS, 0, buf, kWrite, Individual, Independent)
MPISIM_FILE_ACCESS(File_read_all, READ_ARGS, 0, buf, kRead, Individual, Collective)
MPISIM_FILE_ACCESS(File_write_all, WRITE_ARGS, 0, buf, kWrite, Individual, Collective)
MPISIM_FILE_ACCESS(File_read_at, READ_AT_ARGS, offset, buf, kRead, Explicit, Independent)
MPISIM_FILE_ACCESS(File_write_at, WRITE_AT_ARGS, offset, buf, kWrite, Explicit, Independent)
MPISIM_FILE_ACCESS(File_read_at_all, READ_AT_ARGS, offset, buf, kRead, Explicit, Collective)
MPISIM_FILE_ACCESS(File_write_at_all, WRITE_AT_ARGS, offset, buf, kWrite, Explicit, Collective)
MPISIM_FILE_ACCESS(File_read_shared, READ_ARGS, 0, buf, kRead, Shared, Independent)
MPISIM_FILE_ACCESS(File_write_shared, WRITE_ARGS, 0, buf, kWrite, Shared, Independent)
MPISIM_FILE_ACCESS(File_read_ordered, READ_ARGS, 0, buf, kRead, Shared, Ordered)
MPISIM_FILE_ACCESS(File_write_ordered, WRITE_ARGS, 0, buf, kWrite, Shared, Ordered)

MPISIM_FILE_IACCESS(File_iread, IREAD_ARGS, 0, buf, kRead, Individual, Independent)
MPISIM_FILE_IACCESS(File_iwrite, IWRITE_ARGS, 0, buf, kWrite, Individual, Independent)
MPISIM_FILE_IACCESS(File_iread_at, IREAD_AT_ARGS, offset, buf, kRead, Explicit, Independent)
MPISIM_FILE_IACCESS(File_iwrite_at, IWRITE_AT_ARGS, offset, buf, kWrite, Explicit, Independent)
MPISIM_FILE_IACCESS(File_iread_shared, IREAD_ARGS, 0, buf, kRead, Shared, Independent)
MPISIM_FILE_IACCESS(File_iwrite_shared, IWRITE_ARGS, 0, buf, kWrite, Shared, Independent)
// Non-blocking collectives run whole when called (docs/model.md, File I/O).
MPISIM_FILE_IACCESS(File_iread_all, IREAD_ARGS, 0, buf, kRead, Individual, Collective)
MPISIM_FILE_IACCESS(File_iwrite_all, IWRITE_ARGS, 0, buf, kWrite, Individual, Collective)
MPISIM_FILE_IACCESS(File_iread_at_all, IREAD_AT_ARGS, offset, buf, kRead, Explicit, Collective)
MPISIM_FILE_IACCESS(File_iwrite_at_all, IWRITE_AT_ARGS, offset, buf, kWrite, Explicit, Collective)

MPISIM_FILE_BEGIN(File_read_all_begin, BEGIN_READ_ARGS, 0, buf, kRead, Individual, Collective)
MPISIM_FILE_BEGIN(File_write_all_begin, BEGIN_WRITE_ARGS, 0, buf, kWrite, Individual, Collective)
MPISIM_FILE_BEGIN(File_read_at_all_begin, BEGIN_READ_AT_ARGS, offset, buf, kRead, Explicit,
                  Collective)
MPISIM_FILE_BEGIN(File_write_at_all_begin, BEGIN_WRITE_AT_ARGS, offset, buf, kWrite, Explicit,
                  Collective)
MPISIM_FILE_BEGIN(File_read_ordered_begin, BEGIN_READ_ARGS, 0, buf, kRead, Shared, Ordered)
MPISIM_FILE_BEGIN(File_write_ordered_begin, BEGIN_WRITE_ARGS, 0, buf, kWrite, Shared, Ordered)
MPISIM_FILE_END(File_read_all_end, (MPI_File fh, void*, MPI_Status* status))
MPISIM_FILE_END(File_write_all_end, (MPI_File fh, const void*, MPI_Status* status))
MPISIM_FILE_END(File_read_at_all_end, (MPI_File fh, void*, MPI_Status* status))
MPISIM_FILE_END(File_write_at_all_end, (MPI_File fh, const void*, MPI_Status* status))
MPISIM_FILE_END(File_read_ordered_end, (MPI_File fh, void*, MPI_Status* status))
MPISIM_FILE_END(File_write_ordered_end, (MPI_File fh, const void*, MPI_Status* status))

} // extern "C"
