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
/// communicators take the lowest block free at every member (comm_agreement.hpp), as MPICH does;
/// 512 bits keep a rank's mask at 64 bytes, one small message.
struct ContextMask {
  static constexpr int kBits = 512;
  static constexpr int kWords = kBits / 64;
  std::array<std::uint64_t, kWords> used{3}; ///< blocks 0 and 1: MPI_COMM_WORLD and MPI_COMM_SELF

  bool test(int bit) const { return (used[static_cast<std::size_t>(bit / 64)] >> (bit % 64)) & 1u; }
  void set(int bit) { used[static_cast<std::size_t>(bit / 64)] |= std::uint64_t{1} << (bit % 64); }
  void clear(int bit) {
    used[static_cast<std::size_t>(bit / 64)] &= ~(std::uint64_t{1} << (bit % 64));
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
