// Buffers of the collective algorithms: element addressing, typed copies and scratch space.
#pragma once

#include <cstddef>
#include <vector>

#include "datatype.hpp"

namespace mpilite {

/// Address of element `index` of an array of `type` at `base`.
inline std::byte* element(void* base, MPI_Aint index, const Datatype& type) {
  return static_cast<std::byte*>(base) + index * type.extent;
}
inline const std::byte* element(const void* base, MPI_Aint index, const Datatype& type) {
  return static_cast<const std::byte*>(base) + index * type.extent;
}

/// Copies `count` elements of `type` (a no-op when both are the same buffer).
void copy_elements(const void* from, void* to, std::size_t count, const Datatype& type);

/// Copies the data of `scount` elements of `stype` into `rcount` elements of `rtype` (the type
/// signatures match in a correct program; the smaller of the two sizes is copied).
void copy_typed(const void* from, std::size_t scount, const Datatype& stype, void* to,
                std::size_t rcount, const Datatype& rtype);

/// A scratch buffer for `count` elements of `type`, laid out as the user's buffers are. The last
/// element gets its whole extent, not only its true extent: the MINLOC/MAXLOC kernels copy whole
/// C structs, padding included (MPI_DOUBLE_INT: 12 bytes of data, 16 of struct).
class TypedBuffer {
public:
  TypedBuffer(std::size_t count, const Datatype& type);
  /// Where element 0 starts (null for an empty buffer).
  void* get() { return base_; }

private:
  std::vector<std::byte> store_;
  std::byte* base_ = nullptr;
};

/// Whether `p` is a power of two; the largest power of two <= p (p >= 1).
inline bool is_pof2(int p) {
  return p > 0 && (p & (p - 1)) == 0;
}
inline int pof2_floor(int p) {
  int k = 1;
  while (k * 2 <= p)
    k *= 2;
  return k;
}

} // namespace mpilite
