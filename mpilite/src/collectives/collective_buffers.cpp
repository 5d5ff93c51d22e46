#include "collective_buffers.hpp"

#include <algorithm>
#include <cstring>

namespace mpilite {

void copy_elements(const void* from, void* to, std::size_t count, const Datatype& type) {
  copy_typed(from, count, type, to, count, type);
}

void copy_typed(const void* from, std::size_t scount, const Datatype& stype, void* to,
                std::size_t rcount, const Datatype& rtype) {
  const std::size_t bytes = std::min(scount * stype.size, rcount * rtype.size);
  if (bytes == 0 || (from == to && &stype == &rtype)) return;
  if (stype.contiguous() && rtype.contiguous()) {
    std::memmove(to, from, bytes);
    return;
  }
  std::vector<std::byte> packed(scount * stype.size);
  pack(from, scount, stype, packed.data());
  unpack(packed.data(), bytes, rtype, to);
}

TypedBuffer::TypedBuffer(std::size_t count, const Datatype& type) {
  // Spans from the lowest to the highest byte of data, whatever the signs of the lower bound
  // and the extent, and covers [0, extent) of each element: the MINLOC/MAXLOC kernels copy whole
  // C structs, padding included (MPI_DOUBLE_INT: 12 bytes of data, 16 of struct).
  if (count == 0) return;
  const MPI_Aint reps = static_cast<MPI_Aint>(count - 1) * type.extent;
  const MPI_Aint lo = std::min<MPI_Aint>(type.true_lb, 0) + std::min<MPI_Aint>(reps, 0);
  const MPI_Aint hi =
      std::max(type.true_lb + type.true_extent, type.extent) + std::max<MPI_Aint>(reps, 0);
  store_.resize(static_cast<std::size_t>(hi - lo));
  base_ = store_.data() - lo;
}

} // namespace mpilite
