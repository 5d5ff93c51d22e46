// Frames between host processes over MPICH: non-blocking sends, polled receives, FIFO per pair of
// hosts. The only interface to MPICH in mpisim; it knows nothing of the frames' contents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace mpisim::protocols {

/// What a frame carries; the first byte of every frame.
enum class FrameKind : std::uint8_t {
  Data = 1, ///< a simulated message (envelope + payload)
  Reply,    ///< completion of a synchronous or rendezvous send
  Null,     ///< null message: lower bound on the sender's future messages to this host
  Report,   ///< a host's state, to the coordinator (host 0)
  Decision, ///< the coordinator's answer to a complete set of reports
  Stop,     ///< end of the run (abort, fatal error) with an exit code
};

struct Frame {
  int from = -1;
  FrameKind kind = FrameKind::Data;
  std::vector<std::byte> body; ///< without the kind byte
};

class Transport {
public:
  /// Whether this process was started by mpiexec as one of several processes.
  static bool launched_as_several_processes();

  /// Initializes MPICH (FUNNELED: only the scheduler's thread calls it).
  Transport(int* argc, char*** argv);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  int host() const { return host_; }
  int hosts() const { return hosts_; }

  /// Queues `body` (copied) as a frame of `kind` to host `to`. Never blocks for long: when too
  /// many sends are outstanding it makes progress on them first.
  void send(int to, FrameKind kind, const void* body, std::size_t bytes);
  /// Receives one waiting frame, if any. Does not block.
  bool poll(Frame& out);
  /// Lets MPICH progress outstanding sends; frees those that completed.
  void progress();

  /// Collective over all hosts (used once at the end of a run): host 0 gets every host's bytes.
  std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine);
  /// Ends every host process with `code` (MPI_Abort).
  [[noreturn]] void abort_all(int code);

private:
  struct Pending;
  int host_ = 0;
  int hosts_ = 1;
  int comm_ = 0; ///< MPICH communicator handle (an int in MPICH)
  std::deque<std::unique_ptr<Pending>> pending_;
};

} // namespace mpisim::protocols
