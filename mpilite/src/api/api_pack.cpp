// MPI entry points: packing data into contiguous buffers, and addresses.
#include <climits>

#include "api_datatype.hpp"

using namespace mpilite;

namespace {

/// Checks the arguments shared by MPI_Pack and MPI_Unpack: a packed buffer of `packed_size`
/// bytes, `*position` in it, and `count` elements of `datatype`. Sets `bytes` to their size.
int check_packing(ApiCall& c, MPI_Comm comm, int count, MPI_Datatype datatype, int packed_size,
                  const int* position, const Datatype*& type, std::size_t& bytes) {
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_count(*cm, count)) return e;
  if (int e = c.check_type(*cm, datatype, type)) return e;
  if (!position) return c.error(comm, MPI_ERR_ARG, "position is a null pointer");
  if (packed_size < 0 || *position < 0 || *position > packed_size)
    return c.error(comm, MPI_ERR_ARG, "position {} is outside the packed buffer of {} bytes",
                   *position, packed_size);
  bytes = static_cast<std::size_t>(count) * type->size;
  return MPI_SUCCESS;
}

int address_call(const char* name, const void* location, MPI_Aint* address) {
  ApiCall c(name);
  if (int e = check_pointer(c, address, "address")) return e;
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
              int* position, MPI_Comm comm) {
  ApiCall c("MPI_Pack");
  const Datatype* type;
  std::size_t bytes;
  if (int e = check_packing(c, comm, incount, datatype, outsize, position, type, bytes)) return e;
  const auto room = static_cast<std::size_t>(outsize - *position);
  if (bytes > room)
    return c.error(comm, MPI_ERR_ARG,
                   "{} bytes do not fit the {} bytes left in the pack buffer (size it with "
                   "MPI_Pack_size)",
                   bytes, room);
  pack(inbuf, static_cast<std::size_t>(incount), *type,
       static_cast<std::byte*>(outbuf) + *position);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Pack)

int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm) {
  ApiCall c("MPI_Unpack");
  const Datatype* type;
  std::size_t bytes;
  if (int e = check_packing(c, comm, outcount, datatype, insize, position, type, bytes)) return e;
  const auto left = static_cast<std::size_t>(insize - *position);
  if (bytes > left)
    return c.error(comm, MPI_ERR_TRUNCATE,
                   "unpacking {} elements needs {} bytes, but only {} are left in the input",
                   outcount, bytes, left);
  unpack(static_cast<const std::byte*>(inbuf) + *position, bytes, *type, outbuf);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Unpack)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  ApiCall c("MPI_Pack_size");
  Comm* cm;
  const Datatype* type;
  if (int e = c.check_comm(comm, cm)) return e;
  if (int e = c.check_count(*cm, incount)) return e;
  if (int e = c.check_type(*cm, datatype, type)) return e;
  const std::size_t bytes = static_cast<std::size_t>(incount) * type->size;
  if (bytes > static_cast<std::size_t>(INT_MAX))
    return c.error(comm, MPI_ERR_ARG, "{} packed bytes do not fit an int", bytes);
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Pack_size)

int PMPI_Get_address(const void* location, MPI_Aint* address) {
  return address_call("MPI_Get_address", location, address);
}
MPISIM_WEAK_ALIAS(Get_address)

int PMPI_Address(const void* location, MPI_Aint* address) {
  return address_call("MPI_Address", location, address);
}
MPISIM_WEAK_ALIAS(Address)

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  ApiCall c("MPI_Aint_add");
  return base + disp;
}
MPISIM_WEAK_ALIAS(Aint_add)

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  ApiCall c("MPI_Aint_diff");
  return addr1 - addr2;
}
MPISIM_WEAK_ALIAS(Aint_diff)

} // extern "C"
