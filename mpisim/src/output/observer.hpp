// What a run records about itself besides its report: the Chrome trace (MPISIM_TRACE), the
// communication matrix (MPISIM_COMM_MATRIX), the ASCII timeline of the report (up to 64 ranks),
// and the time-independent trace for replay (MPISIM_RECORD). (The progress line: run_control.hpp.)
// The simulation calls it at the few places where time is charged and messages are stamped; it
// exists only when one of these is wanted, so a run without them pays one branch per hook.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ascii_timeline.hpp"
#include "chrome_trace.hpp"
#include "comm_matrix.hpp"
#include "config.hpp"
#include "op_log.hpp"
#include "rank.hpp"

namespace mpilite {
struct Message;
}

namespace mpisim {

class HostLink;

/// What a record's meta says of the program's ranks, over all of them.
struct RecordedProgram {
  /// The largest OpenMP team of any rank: the record's compute holds regions charged for the
  /// recording machine's cores.
  int widest_team = 0;
  /// Reads of the simulated clock (RankStats::clock_reads): a replay at other times is exact
  /// only if the program did not act on what it read.
  std::uint64_t clock_reads = 0;
};

class Observer {
public:
  /// Null when `config` asks for nothing to observe. `host` is this host process's number.
  static std::unique_ptr<Observer> make(const Config& config, int host);
  Observer(const Config& config, int host);

  /// Entry of an MPI call: compute was charged from `before` to the rank's clock.
  void enter(mpilite::Rank& rank, SimTime before);
  /// Exit of the MPI call `rank.call.name`.
  void leave(mpilite::Rank& rank);
  /// A message leaves its sender (`at`: when the send started).
  void sent(const mpilite::Message& m, SimTime at);
  /// A receive of world rank `dst` matched message `m` at `t_match`.
  void received(const mpilite::Message& m, int dst, SimTime t_match);

  /// Where MPI operations are recorded (MPISIM_RECORD), or null.
  mpilite::OpLog* op_log() { return op_log_.get(); }

  /// After the run (every host process calls it): merges the hosts' records on host 0, writes
  /// the files, and returns the report's timeline lines (host 0, up to 64 ranks). A file that
  /// cannot be written does not keep the others from being written: its error is appended to
  /// `errors`. `program`: what a record's meta says of the program's ranks.
  std::vector<std::string> finish(HostLink* link, bool reporting_host, SimTime predicted,
                                  const RecordedProgram& program, const std::string& outcome,
                                  std::vector<std::string>& errors);

private:
  struct Entry {
    SimTime start = 0;
    mpilite::RankStats stats;
  };
  void write_record_meta(const std::string& outcome, int hosts,
                         const RecordedProgram& program) const;

  const Config& config_;
  std::vector<Entry> entries_; ///< per world rank: the MPI call it is in
  std::unique_ptr<ChromeTrace> trace_;
  std::optional<CommMatrix> matrix_;
  std::optional<AsciiTimeline> timeline_;
  std::unique_ptr<mpilite::OpLog> op_log_;
};

} // namespace mpisim
