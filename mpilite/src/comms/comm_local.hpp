// What one rank keeps about the communicators it belongs to: the context ids it uses, and per
// communicator its error handler, the name it gave it and its attributes. MPI makes these local
// to each process, so they live in the rank, not in the shared Comm object.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi.h"
#include "topology.hpp"

namespace mpilite {

/// The context-id blocks one rank has in use (bit i: contexts i*kContextStride and up). New
/// communicators take the lowest block free at every member (comm_agreement.hpp), as MPICH does,
/// which has 2048 of them. They are agreed on 512 at a time (one 64-byte message per part), and
/// a rank keeps only the first 512 bits until it needs more: most programs hold a few
/// communicators, and a million ranks each pay 64 bytes, not 256.
struct ContextMask {
  static constexpr int kBits = 2048;
  static constexpr int kPartBits = 512;
  static constexpr int kParts = kBits / kPartBits;
  static constexpr int kPartWords = kPartBits / 64;
  using Part = std::array<std::uint64_t, kPartWords>;

  Part first{3}; ///< blocks 0 and 1: MPI_COMM_WORLD and MPI_COMM_SELF
  std::unique_ptr<std::array<Part, kParts - 1>> rest; ///< allocated on the first block past 512

  /// Part `p` of the mask (bits p*kPartBits and up); all clear when never allocated.
  Part part(int p) const {
    if (p == 0) return first;
    return rest ? (*rest)[static_cast<std::size_t>(p - 1)] : Part{};
  }
  bool test(int bit) const { return (word(bit) >> (bit % 64)) & 1u; }
  void set(int bit) { word(bit) |= std::uint64_t{1} << (bit % 64); }
  void clear(int bit) { word(bit) &= ~(std::uint64_t{1} << (bit % 64)); }

private:
  std::uint64_t word(int bit) const { return part(bit / kPartBits)[word_in_part(bit)]; }
  std::uint64_t& word(int bit) {
    const int p = bit / kPartBits;
    if (p == 0) return first[word_in_part(bit)];
    if (!rest) rest = std::make_unique<std::array<Part, kParts - 1>>();
    return (*rest)[static_cast<std::size_t>(p - 1)][word_in_part(bit)];
  }
  static std::size_t word_in_part(int bit) {
    return static_cast<std::size_t>(bit % kPartBits / 64);
  }
};

struct Attribute {
  int keyval;
  void* value;
};

/// One rank's own state for one communicator.
struct CommLocal {
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  bool named = false; ///< the rank gave it a name with MPI_Comm_set_name
  std::string name;
  std::vector<Attribute> attributes;                ///< one per keyval, in the order set
  std::shared_ptr<const DistGraphEdges> dist_graph; ///< this member's edges, if a distributed graph
};

struct RankComms {
  ContextMask contexts;
  /// Only communicators whose state differs from the default, and every communicator the
  /// program created (so that MPI_Comm_free finds what to release).
  std::unordered_map<MPI_Comm, CommLocal> local;

  CommLocal* find(MPI_Comm h) {
    auto it = local.find(h);
    return it == local.end() ? nullptr : &it->second;
  }
  /// The state of `h`, made with defaults if absent.
  CommLocal& at(MPI_Comm h) { return local[h]; }
  MPI_Errhandler errhandler(MPI_Comm h) const {
    auto it = local.find(h);
    return it == local.end() ? MPI_ERRORS_ARE_FATAL : it->second.errhandler;
  }
};

} // namespace mpilite
