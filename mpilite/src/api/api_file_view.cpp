// MPI entry points: file views and file pointers (MPI-3.1 sections 13.3, 13.4.3, 13.4.4).
#include <algorithm>
#include <cstring>

#include "api_file.hpp"

using namespace mpilite;

namespace {

/// Sets `out` to the absolute position of a seek of `offset` from `whence`, in etypes.
int seek_target(ApiCall& c, MPI_File fh, MPI_Offset offset, int whence, MPI_Offset current,
                MPI_Offset& out) {
  const File& f = fh->f;
  MPI_Offset base = 0;
  if (whence == MPI_SEEK_SET) {
    base = 0;
  } else if (whence == MPI_SEEK_CUR) {
    base = current;
  } else if (whence == MPI_SEEK_END) {
    // The first etype of the view that starts at or past the end of the file. The data stream
    // never runs ahead of the file, so the answer is at most (size - disp) / etype + 1.
    MPI_Offset size = 0;
    PMPI_File_get_size(fh, &size);
    MPI_Offset lo = 0;
    MPI_Offset hi = std::max<MPI_Offset>(0, size - f.disp) / f.etype->size + 1;
    while (lo < hi) {
      const MPI_Offset mid = lo + (hi - lo) / 2;
      if (file_offset(f, stream_offset(f, mid)) < size)
        lo = mid + 1;
      else
        hi = mid;
    }
    base = lo;
  } else {
    return file_error(c, fh, MPI_ERR_ARG,
                      "whence {} is none of MPI_SEEK_SET, MPI_SEEK_CUR and MPI_SEEK_END", whence);
  }
  out = base + offset;
  if (out < 0)
    return file_error(c, fh, MPI_ERR_ARG, "seek to a negative position ({} etypes)", out);
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char* datarep, MPI_Info info) {
  ApiCall c("MPI_File_set_view");
  if (int e = check_file(c, fh)) return e;
  File& f = fh->f;
  c.collective(f.comm);
  Comm* cm = c.w.comm(f.comm);
  const Datatype* et = nullptr;
  const Datatype* ft = nullptr;
  if (int e = c.check_type(*cm, etype, et)) return e;
  if (int e = c.check_type(*cm, filetype, ft)) return e;
  if (!datarep || std::strcmp(datarep, "native") != 0)
    return file_error(c, fh, MPI_ERR_UNSUPPORTED_DATAREP,
                      "data representation \"{}\": mpisim supports \"native\" only",
                      datarep ? datarep : "(null)");
  if (disp == MPI_DISPLACEMENT_CURRENT) {
    if (!(f.amode & MPI_MODE_SEQUENTIAL))
      return file_error(c, fh, MPI_ERR_ARG,
                        "MPI_DISPLACEMENT_CURRENT needs a file opened MPI_MODE_SEQUENTIAL");
    disp = file_offset(f, stream_offset(f, f.shared->offset));
  }
  if (disp < 0) return file_error(c, fh, MPI_ERR_ARG, "negative displacement {}", disp);
  if (et->size == 0 || ft->size == 0 || ft->size % et->size != 0)
    return file_error(c, fh, MPI_ERR_TYPE,
                      "the filetype ({} bytes of data) must hold whole etypes ({} bytes)", ft->size,
                      et->size);
  if (ft->true_lb < 0 || ft->lb < 0)
    return file_error(c, fh, MPI_ERR_TYPE,
                      "the filetype has a negative displacement: data before the view's start");
  release_type(f.etype_handle);
  release_type(f.filetype_handle);
  f.etype_handle = own_type(etype);
  f.filetype_handle = own_type(filetype);
  f.etype = std::make_shared<Datatype>(*et);
  f.filetype = std::make_shared<Datatype>(*ft);
  f.disp = disp;
  f.position = 0;
  if (info != MPI_INFO_NULL) replace_info(f.info, info);
  // Where the view puts data is not what an access costs: the replay's view is of bytes.
  MPISIM_RECORD_OP(c, "file_set_view", FileArg{fh});
  // The shared pointer starts again once every rank's accesses through it in the old view are
  // done, and before any in the new one.
  PMPI_Barrier(f.comm);
  f.shared->offset = 0;
  PMPI_Barrier(f.comm);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_set_view)

int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                       char* datarep) {
  ApiCall c("MPI_File_get_view");
  if (int e = check_file(c, fh)) return e;
  if (!disp || !etype || !filetype || !datarep)
    return file_error(c, fh, MPI_ERR_ARG, "null argument");
  *disp = fh->f.disp;
  *etype = own_type(fh->f.etype_handle);
  *filetype = own_type(fh->f.filetype_handle);
  std::strcpy(datarep, "native");
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_view)

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  ApiCall c("MPI_File_get_type_extent");
  if (int e = check_file(c, fh)) return e;
  const Datatype* t = nullptr;
  if (int e = c.check_type(*c.w.comm(fh->f.comm), datatype, t)) return e;
  if (!extent) return file_error(c, fh, MPI_ERR_ARG, "null extent argument");
  *extent = t->extent; // "native": as in memory
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_type_extent)

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  ApiCall c("MPI_File_seek");
  if (int e = check_file(c, fh)) return e;
  MPI_Offset to = 0;
  if (int e = seek_target(c, fh, offset, whence, fh->f.position, to)) return e;
  fh->f.position = to;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_seek)

int PMPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  ApiCall c("MPI_File_get_position");
  if (int e = check_file(c, fh)) return e;
  if (!offset) return file_error(c, fh, MPI_ERR_ARG, "null offset argument");
  *offset = fh->f.position;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_position)

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  ApiCall c("MPI_File_get_byte_offset");
  if (int e = check_file(c, fh)) return e;
  if (!disp) return file_error(c, fh, MPI_ERR_ARG, "null disp argument");
  if (offset < 0) return file_error(c, fh, MPI_ERR_ARG, "negative offset {}", offset);
  *disp = file_offset(fh->f, stream_offset(fh->f, offset));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_byte_offset)

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  ApiCall c("MPI_File_seek_shared");
  if (int e = check_file(c, fh)) return e;
  File& f = fh->f;
  c.collective(f.comm);
  MPISIM_RECORD_OP(c, "file_seek_shared", FileArg{fh});
  // From where every rank's earlier accesses through the pointer left it.
  PMPI_Barrier(f.comm);
  MPI_Offset to = 0;
  if (int e = seek_target(c, fh, offset, whence, f.shared->offset, to)) return e;
  // Collective: every rank gives the same arguments; rank 0's target is the one taken.
  PMPI_Bcast(&to, 1, MPI_LONG_LONG, 0, f.comm);
  f.shared->offset = to;
  PMPI_Barrier(f.comm);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_seek_shared)

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  ApiCall c("MPI_File_get_position_shared");
  if (int e = check_file(c, fh)) return e;
  if (!offset) return file_error(c, fh, MPI_ERR_ARG, "null offset argument");
  *offset = fh->f.shared->offset;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(File_get_position_shared)

} // extern "C"
