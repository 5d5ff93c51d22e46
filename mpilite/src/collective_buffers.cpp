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
  if (count == 0) return;
  store_.resize(static_cast<std::size_t>(std::max(type.true_extent, type.extent) +
                                         static_cast<MPI_Aint>(count - 1) * type.extent));
  base_ = store_.data() - type.true_lb;
}

} // namespace mpilite
