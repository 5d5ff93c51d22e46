// MPISIM_RECORD: a time-independent trace of what each rank asked MPI to do (operations with
// their arguments, compute durations in target picoseconds), from which mpisim-replay
// re-simulates the run on another machine model. Handles are recorded as per-rank indices
// (communicators and requests in creation order), datatypes by size, wildcards as wildcards.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "mpi.h"
#include "sim_time.hpp"

namespace mpilite {

class ApiCall;
class RankList;

/// The version of the record format (meta.json's `mpisim_record`): raised whenever operations
/// are added, so that an older mpisim-replay refuses a record it cannot read by name.
inline constexpr int kRecordFormat = 7;

/// Bytes as one word of a record: `prefix`, then two lower-case hex digits per byte (what the
/// replay's RankReplay::hex_bytes reads back). For what may hold spaces or any byte.
std::string hex_word(char prefix, std::span<const std::byte> bytes);

/// Arguments of a recorded operation that are handles: written as the indices that replay
/// re-creates. `NewComm` and `NewRequest` are outputs of the call that assign the next index.
struct CommArg {
  MPI_Comm h;
};
struct NewCommArg {
  MPI_Comm h;
};
struct RequestArg {
  MPI_Request h;
};
struct NewRequestArg {
  MPI_Request h;
};
/// A message of MPI_Mprobe or MPI_Improbe: `NewMessage` assigns the next index (none, -1, for
/// MPI_MESSAGE_NULL: the probe found nothing); `Message` names one for MPI_Mrecv or MPI_Imrecv.
struct MessageArg {
  MPI_Message h;
};
struct NewMessageArg {
  MPI_Message h;
};
struct RequestsArg {
  int count;
  const MPI_Request* h;
};
struct TypeArg {
  MPI_Datatype h;
};
/// A window, written as the index replay re-creates (windows in creation order); `NewWin`
/// assigns the next one.
struct WinArg {
  MPI_Win h;
};
struct NewWinArg {
  MPI_Win h;
};
/// The datatype at the target of a one-sided operation: its layout travels in the operation's
/// message and decides which bytes of the window it reaches, so a derived one is written whole
/// ("L" and the layout in hex), a predefined one by handle.
/// A file of MPI-IO, written as the index replay re-creates (the rank's opens in order);
/// `NewFile` assigns the next one (none, -1, for an open that failed).
struct FileArg {
  MPI_File h;
};
struct NewFileArg {
  MPI_File h;
};
struct TargetTypeArg {
  MPI_Datatype h;
};
struct OpArg {
  MPI_Op h;
};
/// `n` integers (ranks, dimensions, per-neighbour counts): written as n, then each.
struct IntsArg {
  int n;
  const int* v;
};
/// One datatype per entry (`n` of them), as TypeArg writes each.
struct TypesArg {
  int n;
  const MPI_Datatype* h;
};
/// The members of a group that is part of `comm`, written as their ranks in `comm`.
struct GroupArg {
  MPI_Comm comm;
  const RankList* members;
};
/// One count per rank of `comm`, of its remote group on an intercommunicator (null where the
/// array is not significant: written as 0).
struct CountsArg {
  MPI_Comm comm;
  const int* counts;
};

/// Whether a receive or probe of `source` and `tag` takes whichever message comes first (one of
/// MPI_PROC_NULL takes none).
inline bool wildcard(int source, int tag) {
  return source == MPI_ANY_SOURCE || (tag == MPI_ANY_TAG && source != MPI_PROC_NULL);
}

/// What a call that depends on timing found, recorded on an `outcome` line after the call's own,
/// so that a replay on another machine model can tell whether its calls found the same: what the
/// rank did next was recorded for this outcome. Recorded after every test call (MPI_Test*,
/// MPI_Iprobe) and MPI_Waitany/MPI_Waitsome, and after a receive, probe or wait that matched a
/// wildcard receive.
struct Outcome {
  struct Match {
    int source; ///< rank in the communicator (status.MPI_SOURCE)
    int tag;
    bool operator==(const Match&) const = default;
  };
  bool flag = true;           ///< test calls: whether they completed (MPI_Iprobe: found a message)
  std::vector<int> indices;   ///< the any and some calls: which requests completed
  std::vector<Match> matches; ///< what each completed wildcard receive or probe matched, in order
  bool operator==(const Outcome&) const = default;

  /// The outcome of a receive or probe that matched the message `s` describes.
  static Outcome matched(const MPI_Status& s) { return {true, {}, {{s.MPI_SOURCE, s.MPI_TAG}}}; }
};

/// What of a wait or test call's outcome the record holds.
enum class Recorded {
  Matches, ///< MPI_Wait, MPI_Waitall: what their wildcard receives matched (nothing if none)
  Flag,    ///< MPI_Test, MPI_Testall: whether they completed, and the matches
  Which,   ///< the any and some calls: which requests completed, and the matches
};

/// The outcome of a wait or test call that completed the requests `done` (positions in its
/// array, in the order it reports them), or none to record. `wildcard_status(k)` is the status
/// of done[k] if that was a wildcard receive, else null. The recorder and mpisim-replay both
/// build outcomes with it, so that they compare like with like.
template <class StatusOf>
std::optional<Outcome> completion_outcome(Recorded what, bool flag,
                                          std::span<const std::size_t> done,
                                          StatusOf wildcard_status) {
  Outcome o;
  o.flag = flag;
  for (std::size_t k = 0; k < done.size(); ++k) {
    if (what == Recorded::Which) o.indices.push_back(static_cast<int>(done[k]));
    if (const MPI_Status* s = wildcard_status(k)) o.matches.push_back({s->MPI_SOURCE, s->MPI_TAG});
  }
  if (what == Recorded::Matches && o.matches.empty()) return std::nullopt;
  return o;
}

class OpLog {
public:
  /// `flush(rank, text)` appends recorded lines of world rank `rank` to its file.
  using Flush = std::function<void(int rank, const std::string& text)>;
  explicit OpLog(Flush flush) : flush_(std::move(flush)) {}
  ~OpLog();
  OpLog(const OpLog&) = delete;
  OpLog& operator=(const OpLog&) = delete;

  /// Whether `call` is recorded or cannot change simulated time (so replay needs nothing of it).
  static bool covers(std::string_view call);
  /// The message that ends a recording at what it cannot hold: rank `rank`'s `what` (the call,
  /// with why if it is not the call's name alone) and the way out.
  static std::string refusal(int rank, std::string_view what);
  /// Compute charged to `rank`: measured host CPU time (scaled) or declared (MPISIM_Compute).
  void compute(int rank, SimTime ps, bool measured);

  /// Records one operation of the calling rank: `op` and its arguments, space-separated.
  template <class... Args> void record(ApiCall& c, const char* op, const Args&... args);
  /// Records what the operation just recorded found: "outcome FLAG N INDICES... M (SOURCE TAG)...".
  void outcome(ApiCall& c, const Outcome& o);

  /// An outermost MPI call of `rank` begins: the batches its passive targets served until now
  /// go on a `served` line before the rank's next operation (World::served).
  void enter(int rank);

  /// Writes everything still buffered.
  void flush_all();

private:
  /// The handles of one kind a rank made, by index in the order it made them.
  template <class H> struct Indices {
    std::unordered_map<H, long> of;
    long next = 0;
    /// The index of `h`, or -1 for a handle the rank did not make (or a null one).
    long find(H h) const {
      const auto it = of.find(h);
      return it == of.end() ? -1 : it->second;
    }
    /// The next index, now `h`'s; -1 for `null` (the call made none).
    long add(H h, H null) {
      if (h == null) return -1;
      of[h] = next;
      return next++;
    }
  };
  struct RankLog {
    std::string text;
    SimTime measured = 0; ///< compute not yet written
    SimTime declared = 0;
    Indices<MPI_Comm> comms{{}, 2}; ///< 0 is MPI_COMM_WORLD, 1 MPI_COMM_SELF
    Indices<MPI_Request> requests;
    Indices<MPI_Message> messages;
    Indices<MPI_Win> windows;
    Indices<MPI_File> files;
    std::vector<int> served; ///< origins served since the last operation's line
  };
  RankLog& of(int rank);
  void begin_line(int rank, RankLog& log, const char* op);
  void end_line(int rank, RankLog& log);

  void put(RankLog& l, long long v) { fmt::format_to(std::back_inserter(l.text), " {}", v); }
  void put(RankLog& l, int v) { put(l, static_cast<long long>(v)); }
  void put(RankLog& l, long v) { put(l, static_cast<long long>(v)); }
  void put(RankLog& l, unsigned long v) { put(l, static_cast<long long>(v)); }
  void put(RankLog& l, const char* s) { fmt::format_to(std::back_inserter(l.text), " {}", s); }
  void put(RankLog& l, CommArg a);
  void put(RankLog& l, NewCommArg a);
  void put(RankLog& l, RequestArg a);
  void put(RankLog& l, NewRequestArg a);
  void put(RankLog& l, RequestsArg a);
  void put(RankLog& l, MessageArg a);
  void put(RankLog& l, NewMessageArg a);
  void put(RankLog& l, TypeArg a);
  void put(RankLog& l, OpArg a);
  void put(RankLog& l, CountsArg a);
  void put(RankLog& l, IntsArg a);
  void put(RankLog& l, GroupArg a);
  void put(RankLog& l, TypesArg a);
  void put(RankLog& l, WinArg a);
  void put(RankLog& l, NewWinArg a);
  void put(RankLog& l, TargetTypeArg a);
  void put(RankLog& l, FileArg a);
  void put(RankLog& l, NewFileArg a);

  int current_rank(ApiCall& c) const;
  bool outermost(ApiCall& c) const;

  Flush flush_;
  std::unordered_map<int, RankLog> ranks_;
};

template <class... Args> void OpLog::record(ApiCall& c, const char* op, const Args&... args) {
  if (!outermost(c)) return; // an MPI call made by another MPI call is part of it
  const int rank = current_rank(c);
  RankLog& l = of(rank);
  begin_line(rank, l, op);
  (put(l, args), ...);
  end_line(rank, l);
}

/// Records one operation, out of the line of the MPI call that makes it: inlined, the recording
/// and its arguments would take room in the frame of every MPI call, which a blocked rank keeps
/// on its stack (and, with stacks copied, in its copy) whether the run records or not. The
/// arguments are small handles and counts, passed by value so that none needs the caller's
/// frame.
template <class Call, class... Args>
[[gnu::noinline, gnu::cold]] void record_op(Call& c, const char* op, Args... args) {
  c.w.op_log->record(c, op, args...);
}

/// Records `op` if the run is being recorded: the single branch the entry points pay.
#define MPISIM_RECORD_OP(c, ...)                                                                   \
  do {                                                                                             \
    if ((c).w.op_log) ::mpilite::record_op((c), __VA_ARGS__);                                      \
  } while (0)

/// Records the Outcome made by the expression given, which is evaluated only when recording:
/// in a function of its own, for the reason record_op() gives.
#define MPISIM_RECORD_OUTCOME(c, ...)                                                              \
  do {                                                                                             \
    if ((c).w.op_log) [&]() __attribute__((noinline, cold)) {                                      \
        (c).w.op_log->outcome((c), __VA_ARGS__);                                                   \
      }                                                                                            \
    ();                                                                                            \
  } while (0)

} // namespace mpilite
