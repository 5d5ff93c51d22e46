// MPISIM_TRACE: the timeline of a run as Chrome trace-event JSON (Perfetto and chrome://tracing
// open it): one track per rank with its compute intervals and MPI calls, and a flow arrow from
// each message's send to its receive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

/// The events of one host process's ranks. Each host records its own; host 0 writes them all.
class ChromeTrace {
public:
  /// A complete interval on `rank`'s track; `args` is the inside of a JSON object (or empty).
  void slice(int rank, const char* name, const char* category, SimTime start, SimTime end,
             const std::string& args);
  /// The start (at the sender, at `t`) and end (at the receiver) of message (src, seq): the pair
  /// shares an id, so the viewer draws an arrow between them.
  void message_sent(int src, int dst, std::uint64_t seq, std::uint64_t bytes, int tag, SimTime t);
  void message_received(int src, int dst, std::uint64_t seq, std::uint64_t bytes, int tag,
                        SimTime t);

  /// The events recorded so far, each followed by ",\n" (parts of hosts concatenate).
  const std::string& events() const { return events_; }

  /// Writes the trace file: every host's events and a named track per rank.
  static void write(const std::string& path, const std::vector<std::string>& parts, int ranks);

private:
  void flow(char phase, int track, int src, int dst, std::uint64_t seq, std::uint64_t bytes,
            int tag, SimTime t);
  std::string events_;
};

/// Trace timestamps are microseconds; this writes picoseconds exactly in that unit.
std::string trace_microseconds(SimTime ps);

} // namespace mpisim
