// MPISIM_RECORD: a time-independent trace of what each rank asked MPI to do (operations with
// their arguments, compute durations in target picoseconds), from which mpisim-replay
// re-simulates the run on another machine model. Handles are recorded as per-rank indices
// (communicators and requests in creation order), datatypes by size, wildcards as wildcards.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "mpi.h"
#include "sim_time.hpp"

namespace mpilite {

class ApiCall;

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
struct RequestsArg {
  int count;
  const MPI_Request* h;
};
struct TypeArg {
  MPI_Datatype h;
};
struct OpArg {
  MPI_Op h;
};
/// One count per rank of `comm` (null where the array is not significant: written as 0).
struct CountsArg {
  MPI_Comm comm;
  const int* counts;
};

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
  /// Compute charged to `rank`: measured host CPU time (scaled) or declared (MPISIM_Compute).
  void compute(int rank, SimTime ps, bool measured);

  /// Records one operation of the calling rank: `op` and its arguments, space-separated.
  template <class... Args> void record(ApiCall& c, const char* op, const Args&... args);

  /// Writes everything still buffered.
  void flush_all();

private:
  struct RankLog {
    std::string text;
    SimTime measured = 0; ///< compute not yet written
    SimTime declared = 0;
    std::unordered_map<MPI_Comm, long> comms;
    long next_comm = 2; ///< 0 is MPI_COMM_WORLD, 1 MPI_COMM_SELF
    std::unordered_map<MPI_Request, long> requests;
    long next_request = 0;
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
  void put(RankLog& l, TypeArg a);
  void put(RankLog& l, OpArg a);
  void put(RankLog& l, CountsArg a);

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

/// Records `op` if the run is being recorded: the single branch the entry points pay.
#define MPISIM_RECORD_OP(c, ...)                                                                   \
  do {                                                                                             \
    if ((c).w.op_log) (c).w.op_log->record((c), __VA_ARGS__);                                      \
  } while (0)

} // namespace mpilite
