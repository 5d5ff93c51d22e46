// The critical path of a run (MPISIM_CRITICAL_PATH): every clock of the simulation (a rank's,
// a collective schedule's, a message's arrival) carries the chain of compute and messages that
// set it, as that time split into parts. The parts always sum to the time they explain: a clock
// that moves by its own work adds to its own path; one set by a message or a reply takes the
// path of what set it, and any gap that path does not explain is waiting. The path of the rank
// that finishes last is the run's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include "message_timing.hpp"
#include "sim_time.hpp"

namespace mpilite {

/// Where a stretch of the critical path went.
enum class PathPart : std::uint8_t {
  Compute,      ///< charged compute (measured CPU time, MPISIM_Compute)
  SendOverhead, ///< a sender's CPU time per message (and an exchange's extra cost)
  RecvOverhead, ///< a receiver's CPU time per message (and polls that completed nothing)
  Latency,      ///< a message leg's latency, the time of a message of no bytes
  Transfer,     ///< a leg's time for its bytes at the link's bandwidth (and file accesses)
  Contention,   ///< what a leg waited beyond that, behind other messages (NIC queues, links)
  Wait,         ///< a rank waiting for what no message explains (a peer's reply, a request)
};
inline constexpr std::size_t kPathParts = 7;

/// The JSON and text name of a part ("send_overhead").
const char* path_part_name(PathPart p);

/// One contribution to a path: `ps` of part `part` spent by world rank `rank` in MPI call `call`
/// (compute is named after the call at whose entry it was charged; a leg's latency, transfer
/// and contention after its sender's call; waiting after the waiting rank's call). Tables that
/// sum over ranks, or over calls and parts, leave those fields at their defaults.
struct PathEntry {
  const char* call = ""; ///< a name that lives as long as the process
  SimTime ps = 0;
  std::int32_t rank = -1;
  PathPart part : 8 = PathPart::Wait;
  /// call_id(call): the tables compare names by it (the same text may live at two addresses).
  std::uint32_t call_id : 24 = 0;
};

/// A number for the text of a call name, the same for the same text wherever it lives. Below
/// 2^24: more distinct names than that end the run with an error.
std::uint32_t call_id(const char* name);
static_assert(sizeof(PathEntry) == 24, "a path's tables are copied with every message");
static_assert(std::is_trivially_copyable_v<PathEntry>, "pending contributions are copied as bytes");

/// The largest contributions to a path by one key, at most N of them. When it is full, a new key
/// replaces the smallest entry if it brings more than that entry holds; what is given up (the
/// replaced entry, or the new contribution) counts as `dropped`, so that the entries and
/// `dropped` sum to the path's total exactly.
template <std::size_t N> class PathTable {
public:
  void add(const PathEntry& contribution);
  std::span<const PathEntry> entries() const { return {e_.data(), n_}; }
  SimTime dropped() const { return dropped_; }
  void encode(std::vector<std::byte>& out) const;
  /// Reads what encode wrote from `bytes` at `at` (advanced); throws std::runtime_error naming
  /// `what` when the bytes are not a table.
  void decode(std::span<const std::byte> bytes, std::size_t& at, const char* what);
  bool operator==(const PathTable& o) const;

private:
  // Every message adds to three tables, mostly keys they hold or will not take: an index by key
  // (open addressing, 0 for a free slot, else entry + 1) and the smallest entry remembered make
  // that a few probes instead of scans over every entry. Both are rebuilt from the entries.
  static constexpr std::size_t kSlots = 2 * N;
  static_assert(N < 255 && (kSlots & (kSlots - 1)) == 0);
  static std::size_t home(const PathEntry& e);
  /// The slot of `e`'s key, or of the free slot where it would go.
  std::size_t probe(const PathEntry& e) const;
  void unindex(std::size_t entry);
  void reindex();
  /// The first of the smallest entries (the same choice on every host count).
  std::size_t smallest();

  std::array<PathEntry, N> e_{};
  std::uint16_t n_ = 0;
  std::uint8_t smallest_ = 0;
  bool smallest_known_ = false;
  std::array<std::uint8_t, kSlots> index_{};
  SimTime dropped_ = 0;
};

/// A time split into the parts of the chain that set it, with the largest contributions named
/// by (rank, call, part), by (call, part) and by rank.
class CritPath {
public:
  static constexpr std::size_t kNamed = 32; ///< entries by (rank, call, part)
  static constexpr std::size_t kCalls = 16; ///< entries by (call, part)
  static constexpr std::size_t kRanks = 64; ///< entries by rank

  /// Paths are made and dropped with every message, faster than the allocator's per-size cache
  /// turns them over: their blocks are kept for reuse instead (not under AddressSanitizer,
  /// which must see a dropped path's block freed).
  static void* operator new(std::size_t bytes);
  static void operator delete(void* block, std::size_t bytes) noexcept;

  SimTime total() const { return total_; }
  SimTime part(PathPart p) const { return parts_[static_cast<std::size_t>(p)]; }
  const PathTable<kNamed>& named() const { return tables().named; }
  const PathTable<kCalls>& calls() const { return tables().calls; }
  const PathTable<kRanks>& ranks() const { return tables().ranks; }

  /// Adds `ps` of `part`, spent by `rank` in `call` (null: outside MPI).
  void add(PathPart part, SimTime ps, int rank, const char* call);
  /// Adds `ps` of `part` under the rank and call of the latest addition (a leg's contention,
  /// known only at its arrival, goes to its sender's call).
  void extend(PathPart part, SimTime ps) { add(part, ps, last_rank_, last_call_); }
  /// The clock this path explains was set to `t` by an event with path `cause` (null: no path
  /// known). Takes the cause's path when it explains more than this one and no more than `t`;
  /// the rest up to `t` is waiting of `rank` in `call`.
  void reach(SimTime t, const CritPath* cause, int rank, const char* call);

  /// The bytes of this path, for a frame to another host process or the summary.
  void encode(std::vector<std::byte>& out) const;
  /// Reads a path that encode wrote; throws std::runtime_error naming `what` when the bytes
  /// are not one.
  static CritPath decode(std::span<const std::byte> bytes, const char* what);

  bool operator==(const CritPath& o) const;

private:
  struct Tables {
    PathTable<kNamed> named;
    PathTable<kCalls> calls;
    PathTable<kRanks> ranks;
  };
  /// Contributions not in the tables yet. Every message copies its sender's path, and a
  /// rank takes the path of the message that woke it: copies share the tables (2.8 KiB) and
  /// keep only their last few contributions of their own, which go to the tables, in order,
  /// once there are kPending of them or the tables are read. Most paths live long enough to
  /// reach the tables (two thirds of the contributions of NPB-style CG do), so the tables are
  /// copied once per kPending contributions: 16 against 8 takes 8 % off a replay with
  /// `--critical-path`, and 64 made each copy of a path cost more than it saved.
  static constexpr std::size_t kPending = 16;
  /// Those contributions, in raw bytes rather than entries: a path is copied with every
  /// message, and a copy copies only the ones in use (PathEntry is trivially copyable; each is
  /// made in place by push).
  class Pending {
  public:
    Pending() = default;
    Pending(const Pending& o) : n_(o.n_) { std::memcpy(bytes_, o.bytes_, n_ * sizeof(PathEntry)); }
    Pending& operator=(const Pending& o) {
      if (this == &o) return *this;
      n_ = o.n_;
      std::memcpy(bytes_, o.bytes_, n_ * sizeof(PathEntry));
      return *this;
    }
    std::size_t size() const { return n_; }
    const PathEntry& operator[](std::size_t i) const {
      return *std::launder(reinterpret_cast<const PathEntry*>(bytes_ + i * sizeof(PathEntry)));
    }
    void push(const PathEntry& e) {
      ::new (static_cast<void*>(bytes_ + n_++ * sizeof(PathEntry))) PathEntry(e);
    }
    void clear() { n_ = 0; }

  private:
    alignas(PathEntry) std::byte bytes_[kPending * sizeof(PathEntry)];
    std::uint8_t n_ = 0;
  };

  const Tables& tables() const;
  /// Adds the pending contributions to tables of this path's own (copied if shared).
  void flush() const;

  std::array<SimTime, kPathParts> parts_{};
  SimTime total_ = 0;
  mutable std::shared_ptr<Tables> tables_;
  mutable Pending pending_;
  std::int32_t last_rank_ = 0;
  const char* last_call_ = "(outside MPI)";
};

/// The path of a leg's arrival as far as its plan explains it: `from` (the sender's clock at
/// `at`, the leg's start), the overhead up to `plan.leaves`, the leg's latency and transfer,
/// all of world rank `rank` in `call`. An arrival later than that total is contention.
std::unique_ptr<CritPath> leg_path(const CritPath& from, const LegPlan& plan, SimTime at, int rank,
                                   const char* call);

/// The path of a sender's own part of a leg: `from`, the overhead up to `plan.leaves`, and the
/// transfer as far as `plan.sent` shows it (what its last byte leaving later is, is contention).
std::unique_ptr<CritPath> sender_path(const CritPath& from, const LegPlan& plan, SimTime at,
                                      int rank, const char* call);

/// A copy of `p` (null for null).
std::unique_ptr<CritPath> copy_path(const CritPath* p);

/// The path of an arrival at `at` that travelled along `leg` (null when unknown, or when `leg`
/// explains more than `at`): the rest up to `at` is contention.
std::unique_ptr<CritPath> arrival_path(const CritPath* leg, SimTime at);
/// arrival_path(leg.get(), at), made of `leg` itself rather than of a copy.
std::unique_ptr<CritPath> arrival_path(std::unique_ptr<CritPath> leg, SimTime at);

} // namespace mpilite
