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

  /// Part `p` of the mask (bits p*kPartBits and up), what the agreement reduces.
  Part part(int p) const {
    Part out{};
    for (int i = 0; i < kPartWords; ++i)
      out[static_cast<std::size_t>(i)] = word(p * kPartWords + i);
    return out;
  }
  bool test(int bit) const { return (word(bit / 64) >> (bit % 64)) & 1u; }
  void set(int bit) { word_to_change(bit / 64) |= std::uint64_t{1} << (bit % 64); }
  void clear(int bit) { word_to_change(bit / 64) &= ~(std::uint64_t{1} << (bit % 64)); }

private:
  // The first 128 ids in the rank's state, the rest on first use: most ranks never make so
  // many communicators, and every byte of a rank's state counts a million times.
  static constexpr int kNearWords = 2;
  static constexpr int kWords = kBits / 64;
  using Far = std::array<std::uint64_t, kWords - kNearWords>;

  std::uint64_t word(int w) const {
    if (w < kNearWords) return near_[static_cast<std::size_t>(w)];
    return far_ ? (*far_)[static_cast<std::size_t>(w - kNearWords)] : 0;
  }
  std::uint64_t& word_to_change(int w) {
    if (w < kNearWords) return near_[static_cast<std::size_t>(w)];
    if (!far_) far_ = std::make_unique<Far>();
    return (*far_)[static_cast<std::size_t>(w - kNearWords)];
  }

  std::array<std::uint64_t, kNearWords> near_{3}; ///< blocks 0 and 1: MPI_COMM_WORLD, _SELF
  std::unique_ptr<Far> far_;                      ///< zero until a block past 127 is taken
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
  /// Contexts of communicators freed while a receive of this rank was still posted on them: held
  /// until it is matched or cancelled, so that a new communicator's messages never match it.
  std::vector<int> held_after_free;
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
