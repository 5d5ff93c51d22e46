// MPI datatypes: a type map reduced to contiguous byte blocks, plus what reductions need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi.h"

namespace mpilite {

/// A run of bytes of one element, at `offset` from the element's start.
struct Block {
  MPI_Aint offset;
  std::size_t length;
};

struct Datatype {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  std::size_t size = 0; ///< bytes of data in one element (its packed size)
  MPI_Aint lb = 0;      ///< lower bound
  MPI_Aint extent = 0;  ///< stride between consecutive elements
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  std::vector<Block> blocks; ///< data of one element, in type-map order, adjacent runs merged
  /// Predefined type all data consists of (for reductions), or MPI_DATATYPE_NULL if mixed.
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  std::size_t basic_count = 0; ///< elements of `basic` in one element of this type
  /// One element is exactly basic_count consecutive elements of `basic` (reductions need this).
  bool basic_layout = false;
  bool predefined = false;
  bool committed = false;
  const char* name = nullptr; ///< predefined types: "MPI_INT"

  /// One element is a single run of `size` bytes at offset 0 and elements are adjacent.
  bool contiguous() const {
    return blocks.size() == 1 && blocks[0].offset == 0 && static_cast<MPI_Aint>(size) == extent;
  }
};

/// Packs `count` elements at `buf` into `out` (which holds count * type.size bytes).
void pack(const void* buf, std::size_t count, const Datatype& type, std::byte* out);
/// Unpacks `bytes` packed bytes into elements at `buf` (a partial trailing element is allowed).
void unpack(const std::byte* in, std::size_t bytes, const Datatype& type, void* buf);

/// The predefined types (index = handle & 0xff), created once.
const Datatype* builtin_datatype(MPI_Datatype handle);

/// A new contiguous type of `count` elements of `old` (not yet committed).
Datatype make_contiguous(std::size_t count, const Datatype& old);

} // namespace mpilite
