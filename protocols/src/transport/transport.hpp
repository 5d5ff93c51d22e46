// Frames between host processes: what the synchronization core needs from a transport. FIFO per
// pair of hosts, non-blocking sends, polled receives. Implementations: MPICH between the
// processes started by mpiexec (mpich_transport.cpp, loaded on its own so that no MPICH symbol is
// ever reachable from a target program), one host alone (SingleHost), and the in-process fake of
// the unit tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "process_exit.hpp"

namespace mpisim::protocols {

/// The version of the Transport class and Frame below, which a program (linked with mpisim) and
/// the MPICH transport library (loaded at run time) must share: a program linked with another
/// mpisim would call the library through a different layout. Raise it with every change of
/// either.
inline constexpr int kTransportInterface = 4;

/// What a frame carries.
enum class FrameKind : std::uint8_t {
  Data = 1, ///< a simulated message (envelope + payload)
  Reply,    ///< completion of a synchronous or rendezvous send
  Null,     ///< null message: lower bound on the sender's future messages to this host
  Report,   ///< a host's state, to the coordinator (host 0)
  Decision, ///< the coordinator's answer to a complete set of reports
  Transfer, ///< a rendezvous's clear-to-send or data planned at the sender's host
            ///< (mpilite::Transfer)
};
inline constexpr std::uint8_t kLastFrameKind = static_cast<std::uint8_t>(FrameKind::Transfer);

struct Frame {
  int from = -1;
  FrameKind kind = FrameKind::Data;
  /// Encoded with wire.hpp. The bytes belong to the transport and stay valid until its next
  /// poll(): a receiver decodes them in place instead of taking a copy of every frame.
  std::span<const std::byte> body;
};

class Transport {
public:
  virtual ~Transport() = default;

  virtual int host() const = 0;
  virtual int hosts() const = 0;

  /// Queues a frame of `kind` to host `to` (never this host) whose body is `head` followed by
  /// `tail`, copied once: the caller's bytes are free again when it returns. A message's header
  /// and payload go as the two parts, so that its payload is not first copied to join them.
  /// Never blocks for long.
  virtual void send_parts(int to, FrameKind kind, std::span<const std::byte> head,
                          std::span<const std::byte> tail) = 0;
  /// A frame of one part.
  void send(int to, FrameKind kind, std::span<const std::byte> body) {
    send_parts(to, kind, body, {});
  }
  /// Receives one waiting frame, if any. Does not block.
  virtual bool poll(Frame& out) = 0;
  /// Gives the core to other processes for a moment: called when this host has nothing to do
  /// but wait for frames.
  virtual void pause() {}

  /// Collective over all hosts (once, at the end of a run): host 0 gets every host's bytes, in
  /// host order; the others get nothing.
  virtual std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine) = 0;
  /// Collective over all hosts (before ranks run): every host gets host 0's `mine`.
  virtual std::vector<std::byte> broadcast(std::vector<std::byte> mine) = 0;
  /// Ends every host process with `code`, once this one's stdio is out.
  [[noreturn]] void abort_all(int code) {
    std::fflush(stdout);
    std::fflush(stderr);
    abort_from_fault(code);
    std::_Exit(code); // not reached: the compiler cannot see through the virtual call
  }
  /// The same from the handler of a fault signal in a rank, which has already said why: no
  /// stdio, nothing that allocates on this side. One host process alone just exits.
  [[noreturn]] virtual void abort_from_fault(int code) { mpilite::end_process_now(code); }
};

/// One host process alone: no peers, no frames.
class SingleHost final : public Transport {
public:
  int host() const override { return 0; }
  int hosts() const override { return 1; }
  void send_parts(int, FrameKind, std::span<const std::byte>, std::span<const std::byte>) override;
  bool poll(Frame&) override { return false; }
  std::vector<std::byte> broadcast(std::vector<std::byte> mine) override { return mine; }
  std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine) override {
    return {mine};
  }
};

/// Tells hwloc, which mpiexec and MPICH run at start-up, not to look for I/O devices (PCI, network
/// and GPU devices): reading their configuration took half of MPICH's 25 ms start here, and the
/// frames between host processes need none of it. A HWLOC_COMPONENTS the user set is kept.
inline void skip_io_discovery() {
  setenv("HWLOC_COMPONENTS", "-linuxio", 0);
}

/// Whether this process was started by mpiexec as one of several processes.
bool launched_as_several_processes();
/// How many host processes mpiexec launched (1 when run alone), known before any is reached.
int launched_processes();

/// The transport among the processes started by mpiexec: loads the MPICH transport library and
/// initializes MPICH. Ends the process with a message when the library cannot be loaded.
std::unique_ptr<Transport> open_mpich_transport(int* argc, char*** argv);
/// The same from the library at `path`. Ends the process with a message when it cannot be
/// loaded, is not a transport library, or implements another kTransportInterface.
std::unique_ptr<Transport> open_transport_library(const std::string& path, int* argc, char*** argv);

} // namespace mpisim::protocols
