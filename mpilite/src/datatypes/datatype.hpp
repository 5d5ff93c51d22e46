// MPI datatypes: a type map as a compact tree of strided byte runs, its bounds, and what
// reductions and MPI_Type_get_contents need.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mpi.h"

namespace mpilite {

/// One node of a type map tree. A node stands for `count` copies of its body, `stride` bytes
/// apart, the first one `offset` bytes from the origin of the enclosing copy. A leaf's body is
/// `size` consecutive bytes of basic elements of `elem_size` bytes; an inner node's body is its
/// children, in type-map order. Nodes are stored in preorder, so a node's children follow it
/// and `skip` steps to its next sibling. Regular repetition costs one node, whatever its count.
struct Node {
  MPI_Aint offset = 0;
  MPI_Aint stride = 0;
  std::size_t count = 1;
  std::size_t size = 0;        ///< packed bytes of one copy of the body
  std::size_t elements = 0;    ///< basic elements in one copy of the body
  std::uint32_t skip = 1;      ///< nodes in this subtree, itself included (1: a leaf)
  std::uint32_t elem_size = 0; ///< leaves: bytes of one basic element
  /// Leaves: the predefined type of the elements (external32 converts each by its type).
  MPI_Datatype elem_type = MPI_DATATYPE_NULL;

  bool leaf() const { return skip == 1; }
};

/// The top-level nodes of one element, in type-map order. Shared by copies of a type.
using TypeMap = std::vector<Node>;

struct Contents;

struct Datatype {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  std::size_t size = 0; ///< bytes of data in one element (its packed size)
  MPI_Aint lb = 0;      ///< lower bound
  MPI_Aint extent = 0;  ///< stride between consecutive elements
  MPI_Aint true_lb = 0; ///< first byte of data (0 when there is none)
  MPI_Aint true_extent = 0;
  /// The bounds come from the MPI-1 markers MPI_LB/MPI_UB: they stick through later
  /// constructors and suppress struct padding (MPI_Type_create_resized's bounds do not).
  bool lb_marked = false;
  bool ub_marked = false;
  std::size_t align = 1;    ///< largest alignment of its basic types (pads struct extents)
  std::size_t elements = 0; ///< basic elements in one element (MPI_Get_elements)
  /// The data is `size` consecutive bytes from offset 0, in type-map order.
  bool dense = false;
  std::shared_ptr<const TypeMap> map;
  /// Predefined type all data consists of (for reductions), or MPI_DATATYPE_NULL if mixed.
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  std::size_t basic_count = 0; ///< elements of `basic` in one element of this type
  /// One element is exactly basic_count consecutive elements of `basic` and elements are
  /// adjacent (reductions then apply to the buffer directly).
  bool basic_layout = false;
  bool predefined = false;
  bool committed = false;
  const char* name = nullptr;               ///< predefined types: "MPI_INT"
  std::string label;                        ///< name given by MPI_Type_set_name
  std::shared_ptr<const Contents> contents; ///< derived types: how they were made
  /// Pending operations that use this type: MPI_Type_free only marks a type in use as
  /// `freed`, and its slot is recycled when the last one ends.
  mutable std::uint32_t users = 0;
  bool freed = false;
  /// Messages of this type count their size but carry nothing (size_only_bytes).
  bool size_only = false;

  /// One element is a single run of `size` bytes at offset 0 and elements are adjacent.
  bool contiguous() const { return dense && static_cast<MPI_Aint>(size) == extent; }
  /// The offsets from a buffer's address of the first byte `count` elements hold data in and of
  /// one past the last, whatever the signs of the lower bound and the extent.
  std::pair<MPI_Aint, MPI_Aint> data_span(std::size_t count) const {
    if (count == 0) return {0, 0};
    const MPI_Aint reps = static_cast<MPI_Aint>(count - 1) * extent;
    return {true_lb + std::min<MPI_Aint>(reps, 0),
            true_lb + true_extent + std::max<MPI_Aint>(reps, 0)};
  }
};

/// The arguments of the constructor that made a derived type (MPI_Type_get_contents).
struct Contents {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> addresses;
  /// The old types: predefined ones as they are, derived ones as copies (the user may free
  /// them meanwhile), one copy per distinct handle.
  std::vector<std::shared_ptr<const Datatype>> types;
  /// A large-count constructor's (MPI_Type_vector_c, ...) counts and displacements, which MPI-4.0
  /// decodes apart (MPI_Type_get_contents_c); then `ints` and `addresses` hold the rest.
  std::vector<MPI_Count> large_counts = {};
};

/// Keeps a derived type alive while an operation uses it (see World::release_datatype).
inline void retain(const Datatype& type) {
  if (!type.predefined) ++type.users;
}

/// Packs `count` elements at `buf` into `out` (which holds count * type.size bytes).
void pack(const void* buf, std::size_t count, const Datatype& type, std::byte* out);
/// Unpacks `bytes` packed bytes into elements at `buf` (a partial trailing element is allowed).
void unpack(const std::byte* in, std::size_t bytes, const Datatype& type, void* buf);

/// Calls leaf(address, node) for every copy of every leaf of `count` elements of `type` at
/// `buf`, in type-map order (a copy holds node.size bytes of elements of node.elem_type).
void for_each_leaf(const void* buf, std::size_t count, const Datatype& type,
                   const std::function<void(MPI_Aint, const Node&)>& leaf);

/// Calls run(offset, n) for the runs of bytes that hold packed bytes [skip, skip + bytes) of a
/// sequence of elements of `type` (offsets from the first element's origin, each element
/// `extent` after the previous one), in type-map order, adjacent runs merged: where a file view
/// puts a stretch of its data.
void for_each_run(const Datatype& type, std::size_t skip, std::size_t bytes,
                  const std::function<void(MPI_Aint, std::size_t)>& run);

/// Basic elements in the first `bytes` packed bytes of a sequence of elements of `type`, or
/// -1 when `bytes` ends inside a basic element.
long long elements_in(const Datatype& type, std::size_t bytes);

/// The predefined types (index = handle & 0xff), created once.
const Datatype* builtin_datatype(MPI_Datatype handle);

/// Bytes whose messages take the time of their size but whose contents nobody reads, between
/// ranks of one host process: the send copies nothing and the receive writes nothing. For the
/// simulator's own exchanges whose contents the members share otherwise (SplitBoard). A send
/// of it to a rank of another host process is refused (std::logic_error).
const Datatype& size_only_bytes();

// Constructors. Each returns a new, uncommitted type without handle or contents; counts and
// strides are in elements of `old` unless the name says bytes. The caller checks arguments.

/// `count` elements of `old`, one after the other.
Datatype make_contiguous(std::size_t count, const Datatype& old);
/// `count` blocks of `blocklength` elements, block starts `stride_bytes` apart.
Datatype make_hvector(std::size_t count, std::size_t blocklength, MPI_Aint stride_bytes,
                      const Datatype& old);
/// Block i: `blocklengths[i]` elements at `displacements_bytes[i]`.
Datatype make_hindexed(const std::vector<std::size_t>& blocklengths,
                       const std::vector<MPI_Aint>& displacements_bytes, const Datatype& old);
/// Block i: `blocklengths[i]` elements of `*types[i]` at `displacements[i]` bytes, padded to
/// the alignment of its members unless a bound is marked (MPI-3.1 section 4.1.6).
Datatype make_struct(const std::vector<std::size_t>& blocklengths,
                     const std::vector<MPI_Aint>& displacements,
                     const std::vector<const Datatype*>& types);
/// A derived type with the type map and bounds of `old` (MPI_Type_dup).
Datatype make_dup(const Datatype& old);
/// `old` with lower bound `lb` and extent `extent`, both marked.
Datatype make_resized(const Datatype& old, MPI_Aint lb, MPI_Aint extent);
/// A subarray of an array of `sizes` (C order: last index fastest; else Fortran order).
/// The arguments must be valid (0 < subsizes <= sizes, 0 <= starts <= sizes - subsizes).
Datatype make_subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                       const std::vector<int>& starts, bool c_order, const Datatype& old);

/// One dimension of a distributed array: `gsize` elements dealt to `psize` processes in blocks
/// of `block` elements, round robin (MPI_DISTRIBUTE_BLOCK, _NONE and DFLT_DARG resolved into
/// `block` by the caller), of which this process, at `coord`, keeps its blocks.
struct DarrayDim {
  int gsize;
  int psize;
  int coord;
  int block;
};
/// The part of a global array of `dims` (C order: last dimension fastest; else Fortran order)
/// that one process keeps, in memory order, with lower bound 0 and the whole array's extent.
/// The arguments must be valid (0 < gsize, 0 <= coord < psize, 0 < block).
Datatype make_darray(const std::vector<DarrayDim>& dims, bool c_order, const Datatype& old);

} // namespace mpilite
