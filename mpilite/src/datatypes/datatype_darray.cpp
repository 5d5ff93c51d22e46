// MPI_Type_create_darray's type map (MPI-3.1 section 4.1.4): per dimension, the blocks a
// process keeps are a vector of whole blocks plus at most one shorter block at the array's end,
// and each dimension is resized to span the whole dimension, so that the next one strides over it.
#include <algorithm>

#include "datatype.hpp"

namespace mpilite {
namespace {

/// The elements of dimension `d` that a process keeps, as copies of `t` (whose extent is one
/// step along the dimension), in a type spanning the whole dimension.
Datatype keep_blocks(const DarrayDim& d, const Datatype& t) {
  const MPI_Aint step = t.extent;
  const long long first = static_cast<long long>(d.coord) * d.block;
  const long long period = static_cast<long long>(d.psize) * d.block;
  // Blocks start at first, first + period, ... while inside the array; the last may be short.
  const long long blocks = first < d.gsize ? (d.gsize - first + period - 1) / period : 0;
  const long long last = first + (blocks - 1) * period;
  const long long last_length = blocks > 0 ? std::min<long long>(d.block, d.gsize - last) : 0;
  const long long whole = last_length == d.block ? blocks : blocks - 1;
  const Datatype full = make_hvector(static_cast<std::size_t>(std::max(whole, 0LL)),
                                     static_cast<std::size_t>(d.block), period * step, t);
  const Datatype tail = make_contiguous(
      static_cast<std::size_t>(last_length == d.block ? 0 : std::max(last_length, 0LL)), t);
  const Datatype both = make_struct({1, 1}, {first * step, last * step}, {&full, &tail});
  return make_resized(both, 0, step * d.gsize);
}

} // namespace

Datatype make_darray(const std::vector<DarrayDim>& dims, bool c_order, const Datatype& old) {
  const std::size_t n = dims.size();
  // Each dimension in memory order (fastest first) nests the previous ones.
  Datatype t = keep_blocks(dims[c_order ? n - 1 : 0], old);
  for (std::size_t i = 1; i < n; ++i)
    t = keep_blocks(dims[c_order ? n - 1 - i : i], t);
  return t;
}

} // namespace mpilite
