// MPI entry points: packing in the portable "external32" representation (MPI-3.1 section
// 4.2.2). Errors go to MPI_COMM_WORLD's handler: these calls have no communicator.
#include <cstring>

#include "api_datatype.hpp"
#include "external32.hpp"

using namespace mpilite;

namespace {

/// Checks what MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size share: the
/// representation's name, `count` elements of committed `datatype`, and their external32 size.
int check_external(ApiCall& c, const char* datarep, int count, MPI_Datatype datatype,
                   const Datatype*& type, MPI_Aint& bytes) {
  Comm* world;
  if (int e = c.check_comm(MPI_COMM_WORLD, world)) return e;
  if (int e = check_pointer(c, datarep, "datarep")) return e;
  if (std::strcmp(datarep, "external32") != 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "data representation \"{}\" is not supported (only \"external32\" is)", datarep);
  if (int e = check_nonnegative_count(c, count)) return e;
  if (int e = c.check_type(*world, datatype, type)) return e;
  const auto size = external32_size(*type);
  if (!size)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   "datatype {:#x} holds a predefined type without an external32 form",
                   static_cast<unsigned>(datatype));
  bytes = static_cast<MPI_Aint>(*size) * count;
  return MPI_SUCCESS;
}

/// MPI_ERR_ARG unless `*position` is inside a buffer of `size` bytes with `needed` bytes from
/// it; `code` is the class when only the room is short.
int check_room(ApiCall& c, const MPI_Aint* position, MPI_Aint size, MPI_Aint needed, int code,
               const char* what) {
  if (int e = check_pointer(c, position, "position")) return e;
  if (size < 0 || *position < 0 || *position > size)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "position {} is outside the {} of {} bytes",
                   *position, what, size);
  if (needed > size - *position)
    return c.error(MPI_COMM_WORLD, code,
                   "{} external32 bytes do not fit the {} bytes left in the {}", needed,
                   size - *position, what);
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Pack_external(const char* datarep, const void* inbuf, int incount, MPI_Datatype datatype,
                       void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
  ApiCall c("MPI_Pack_external");
  const Datatype* type;
  MPI_Aint bytes;
  if (int e = check_external(c, datarep, incount, datatype, type, bytes)) return e;
  if (int e = check_room(c, position, outsize, bytes, MPI_ERR_ARG, "pack buffer")) return e;
  pack_external32(inbuf, static_cast<std::size_t>(incount), *type,
                  static_cast<std::byte*>(outbuf) + *position);
  *position += bytes;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Pack_external)

int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize,
                         MPI_Aint* position, void* outbuf, int outcount, MPI_Datatype datatype) {
  ApiCall c("MPI_Unpack_external");
  const Datatype* type;
  MPI_Aint bytes;
  if (int e = check_external(c, datarep, outcount, datatype, type, bytes)) return e;
  if (int e = check_room(c, position, insize, bytes, MPI_ERR_TRUNCATE, "input")) return e;
  unpack_external32(static_cast<const std::byte*>(inbuf) + *position,
                    static_cast<std::size_t>(outcount), *type, outbuf);
  *position += bytes;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Unpack_external)

int PMPI_Pack_external_size(const char* datarep, int incount, MPI_Datatype datatype,
                            MPI_Aint* size) {
  ApiCall c("MPI_Pack_external_size");
  const Datatype* type;
  MPI_Aint bytes;
  if (int e = check_external(c, datarep, incount, datatype, type, bytes)) return e;
  if (int e = check_pointer(c, size, "size")) return e;
  *size = bytes;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Pack_external_size)

} // extern "C"
