// MPISIM_TRACE: the timeline of a run as Chrome trace-event JSON (Perfetto and chrome://tracing
// open it): one track per rank with its compute intervals and MPI calls, and a flow arrow from
// each message's send to its receive.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

/// The events of one host process's ranks, streamed to a part file of their own (so that a long
/// run needs no memory for them); host 0 joins the parts of all hosts into the trace file.
class ChromeTrace {
public:
  /// Writes this host's events to `part_path`.
  explicit ChromeTrace(std::string part_path);
  ~ChromeTrace();
  ChromeTrace(const ChromeTrace&) = delete;
  ChromeTrace& operator=(const ChromeTrace&) = delete;

  /// A complete interval on `rank`'s track; `args` is the inside of a JSON object (or empty).
  void slice(int rank, const char* name, const char* category, SimTime start, SimTime end,
             const std::string& args);
  /// The start (at the sender, at `t`) and end (at the receiver) of message (src, seq): the pair
  /// shares an id, so the viewer draws an arrow between them.
  void message_sent(int src, int dst, std::uint64_t seq, std::uint64_t bytes, int tag, SimTime t);
  void message_received(int src, int dst, std::uint64_t seq, std::uint64_t bytes, int tag,
                        SimTime t);

  /// Ends this host's part; each event in it is followed by ",\n", so parts concatenate.
  void close();

  /// The part file of host `host` for trace file `path`.
  static std::string part_path(const std::string& path, int host);
  /// Writes the trace file from the parts of `hosts` host processes (which it removes) and a
  /// named track per rank.
  static void write(const std::string& path, int hosts, int ranks);

private:
  void flow(char phase, int track, int src, int dst, std::uint64_t seq, std::uint64_t bytes,
            int tag, SimTime t);
  void spill();
  std::string path_;
  std::FILE* file_ = nullptr;
  fmt::memory_buffer events_; ///< not yet in the file
};

/// Trace timestamps are microseconds; this writes picoseconds exactly in that unit.
std::string trace_microseconds(SimTime ps);

} // namespace mpisim
