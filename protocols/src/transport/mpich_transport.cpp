// The transport over MPICH: the only file of mpisim that includes MPICH's mpi.h. It is built as
// a library of its own, loaded with dlopen (transport_loader.cpp), so that MPICH's MPI_* symbols
// never enter the target program's namespace.
//
// Frames to one peer are batched: send_parts() appends to the peer's batch, and a batch leaves as
// one MPICH message when this host polls (every poll, so while ranks run and whenever the host is
// idle) or grows past kBatchBytes. A batch is a sequence of (kind u8, length u32, body); FIFO
// order per pair of hosts holds within and across batches.
//
// A message's payload is copied once on each side: into the batch, and by the receiver out of the
// batch it received, where poll() hands out frames in place. Batch buffers are reused, never
// zeroed: growing one is the only allocation.
#include <mpi.h>
#include <poll.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "process_exit.hpp"
#include "transport.hpp"

namespace mpisim::protocols {
namespace {

// Outstanding sends beyond which send() makes progress first: bounds the memory of a host that
// produces messages faster than its peers take them.
constexpr std::size_t kMaxPending = 4096;
// A batch this large leaves at once.
constexpr std::size_t kBatchBytes = 64 * 1024;
constexpr int kBatchTag = 1;
// Spare batch buffers kept for reuse, and the largest kept: a run of large messages should not
// leave its buffers behind.
constexpr std::size_t kSpares = 16;
constexpr std::size_t kLargestSpare = 4 * kBatchBytes;

/// Leaves new elements uninitialized: a batch is written whole (by this host, or by MPICH
/// receiving it) before it is read, and zeroing it first cost as much as a copy.
template <class T> struct UninitializedAllocator : std::allocator<T> {
  template <class U> struct rebind { using other = UninitializedAllocator<U>; };
  UninitializedAllocator() = default;
  template <class U> UninitializedAllocator(const UninitializedAllocator<U>&) {}
  template <class U> void construct(U* p) { ::new (static_cast<void*>(p)) U; }
  template <class U, class... A> void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};
using Bytes = std::vector<std::byte, UninitializedAllocator<std::byte>>;

/// With that allocator, vector::insert would copy byte by byte.
void append(Bytes& b, std::span<const std::byte> s) {
  const std::size_t at = b.size();
  b.resize(at + s.size());
  if (!s.empty()) std::memcpy(b.data() + at, s.data(), s.size());
}

/// Waits `ms` of wall time. Not with sleep or usleep: in a rank's code (a signal handler in its
/// fiber, say) those advance the rank's simulated clock and return at once
/// (mpilite/src/api/api_libc_time.cpp).
void wait_ms(int ms) {
  poll(nullptr, 0, ms);
}

[[noreturn]] void fail(int rc, const char* what) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(rc, text, &n);
  std::fprintf(stderr, "mpisim: transport between host processes failed in %s: %s\n", what, text);
  std::fflush(stderr);
  // Most often a peer process has ended (a fault in one of its ranks, which it has named, with
  // the code mpiexec should report): give mpiexec the time to see that exit and end this process
  // too, rather than race it with a code of 1.
  wait_ms(2000);
  MPI_Abort(MPI_COMM_WORLD, 1);
  mpilite::end_process_now(1);
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) fail(rc, what);
}

void on_transport_error(MPI_Comm*, int* rc, ...) {
  fail(*rc, "a call of MPICH");
}

class MpichTransport final : public Transport {
public:
  MpichTransport(int* argc, char*** argv) {
    int provided = 0;
    skip_io_discovery();
    // Batches up to the largest reused buffer go eagerly: between two processes of a machine,
    // UCX's rendezvous pins the receiver's pages for every batch (process_vm_readv), which cost
    // more than the copy it saves on batches of tens of KiB (CG class W on 2 hosts: 3-6 % of the
    // wall). A UCX_RNDV_THRESH the user set is kept.
    setenv("UCX_RNDV_THRESH", std::to_string(kLargestSpare).c_str(), 0);
    check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    // A failing peer must end this process too, with MPICH's message, rather than leave it
    // waiting (the duplicate below inherits the handler).
    MPI_Errhandler fatal;
    check(MPI_Comm_create_errhandler(on_transport_error, &fatal), "MPI_Comm_create_errhandler");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, fatal);
    MPI_Errhandler_free(&fatal);
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &host_);
    MPI_Comm_size(comm_, &hosts_);
    batches_.resize(static_cast<std::size_t>(hosts_));
    sent_to_.assign(static_cast<std::size_t>(hosts_), 0);
    received_from_.assign(static_cast<std::size_t>(hosts_), 0);
  }

  ~MpichTransport() override {
    settle();
    MPI_Comm_free(&comm_);
    MPI_Finalize();
  }

  int host() const override { return host_; }
  int hosts() const override { return hosts_; }

  void send_parts(int to, FrameKind kind, std::span<const std::byte> head,
                  std::span<const std::byte> tail) override {
    auto& batch = batches_[static_cast<std::size_t>(to)];
    if (batch.capacity() == 0) batch = spare();
    batch.push_back(static_cast<std::byte>(kind));
    const auto n = static_cast<std::uint32_t>(head.size() + tail.size());
    for (int i = 0; i < 4; ++i)
      batch.push_back(static_cast<std::byte>(n >> (8 * i)));
    append(batch, head);
    append(batch, tail);
    if (batch.size() >= kBatchBytes) flush(to);
  }

  /// Lets outstanding sends progress.
  void progress() {
    // Sends to one peer complete in order; testing from the front frees most of them.
    while (!pending_.empty()) {
      int done = 0;
      check(MPI_Test(&pending_.front().request, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done) break;
      keep_spare(std::move(pending_.front().frame));
      pending_.pop_front();
    }
  }

  bool poll(Frame& out) override {
    if (received_.empty()) {
      // Every frame handed out so far has been read: their batches can be reused.
      for (auto& b : held_)
        keep_spare(std::move(b));
      held_.clear();
      for (int h = 0; h < hosts_; ++h)
        flush(h);
      progress();
      receive();
    }
    if (received_.empty()) return false;
    out = std::move(received_.front());
    received_.pop_front();
    return true;
  }

  void pause() override { sched_yield(); }

  std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>& mine) override {
    settle();
    int n = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(hosts_));
    check(MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
    std::vector<int> displs(static_cast<std::size_t>(hosts_), 0);
    int total = 0;
    for (int h = 0; h < hosts_; ++h) {
      displs[static_cast<std::size_t>(h)] = total;
      total += sizes[static_cast<std::size_t>(h)];
    }
    std::vector<std::byte> all(static_cast<std::size_t>(host_ == 0 ? total : 0));
    check(MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE,
                      0, comm_),
          "MPI_Gatherv");
    std::vector<std::vector<std::byte>> out;
    if (host_ != 0) return out;
    for (int h = 0; h < hosts_; ++h) {
      auto first = all.begin() + displs[static_cast<std::size_t>(h)];
      out.emplace_back(first, first + sizes[static_cast<std::size_t>(h)]);
    }
    return out;
  }

  std::vector<std::byte> broadcast(std::vector<std::byte> mine) override {
    settle();
    int n = static_cast<int>(mine.size());
    check(MPI_Bcast(&n, 1, MPI_INT, 0, comm_), "MPI_Bcast");
    mine.resize(static_cast<std::size_t>(n));
    check(MPI_Bcast(mine.data(), n, MPI_BYTE, 0, comm_), "MPI_Bcast");
    return mine;
  }

  [[noreturn]] void abort_from_fault(int code) override {
    // Through mpiexec, whose own clean-up of the job would otherwise race with this process's
    // exit and may report another process's status (killed, or 1 for a lost connection).
    // mpiexec ends every process as soon as one aborts: first a moment to pass on what this one
    // just wrote, which says why.
    wait_ms(200);
    MPI_Abort(MPI_COMM_WORLD, code);
    mpilite::end_process_now(code);
  }

private:
  /// Called by every host at once: sends what waits and returns once every batch any host sent
  /// has been received. A large batch completes only when its receiver takes it, so a host that
  /// merely waited for its own sends could wait forever on a peer that has stopped polling (at
  /// the end of a run, in the gather or in MPI_Finalize). Batches received here are kept for
  /// poll().
  void settle() {
    for (int h = 0; h < hosts_; ++h)
      flush(h);
    std::vector<long> expected(static_cast<std::size_t>(hosts_));
    check(MPI_Alltoall(sent_to_.data(), 1, MPI_LONG, expected.data(), 1, MPI_LONG, comm_),
          "MPI_Alltoall");
    while (!pending_.empty() || received_from_ != expected) {
      progress();
      receive();
    }
  }

  /// Sends the batch of frames waiting for `to`, if any.
  void flush(int to) {
    auto& batch = batches_[static_cast<std::size_t>(to)];
    if (batch.empty()) return;
    while (pending_.size() >= kMaxPending) {
      progress();
      sched_yield();
    }
    pending_.push_back({MPI_REQUEST_NULL, std::move(batch)});
    batch = Bytes();
    ++sent_to_[static_cast<std::size_t>(to)];
    Pending& p = pending_.back();
    check(MPI_Isend(p.frame.data(), static_cast<int>(p.frame.size()), MPI_BYTE, to, kBatchTag,
                    comm_, &p.request),
          "MPI_Isend");
  }

  /// Takes one waiting batch, if any, apart into received_.
  void receive() {
    int flag = 0;
    MPI_Status st;
    check(MPI_Iprobe(MPI_ANY_SOURCE, kBatchTag, comm_, &flag, &st), "MPI_Iprobe");
    if (!flag) return;
    int bytes = 0;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    Bytes& batch = held_.emplace_back(spare());
    batch.resize(static_cast<std::size_t>(bytes));
    check(
        MPI_Recv(batch.data(), bytes, MPI_BYTE, st.MPI_SOURCE, kBatchTag, comm_, MPI_STATUS_IGNORE),
        "MPI_Recv");
    ++received_from_[static_cast<std::size_t>(st.MPI_SOURCE)];
    for (std::size_t at = 0; at < batch.size();) {
      if (batch.size() - at < 5)
        throw std::runtime_error("a truncated batch between host processes");
      const auto kind = static_cast<std::uint8_t>(batch[at]);
      std::uint32_t n = 0;
      for (int i = 0; i < 4; ++i)
        n |= static_cast<std::uint32_t>(batch[at + 1 + static_cast<std::size_t>(i)]) << (8 * i);
      at += 5;
      if (kind < 1 || kind > kLastFrameKind || batch.size() - at < n)
        throw std::runtime_error("a bad frame between host processes");
      received_.push_back({st.MPI_SOURCE, static_cast<FrameKind>(kind),
                           std::span<const std::byte>(batch).subspan(at, n)});
      at += n;
    }
  }

  /// An empty batch buffer, with the capacity of a former batch when one is spare.
  Bytes spare() {
    if (spares_.empty()) {
      Bytes b;
      b.reserve(256);
      return b;
    }
    Bytes b = std::move(spares_.back());
    spares_.pop_back();
    return b;
  }

  void keep_spare(Bytes b) {
    if (spares_.size() >= kSpares || b.capacity() > kLargestSpare) return;
    b.clear();
    spares_.push_back(std::move(b));
  }

  struct Pending {
    MPI_Request request;
    Bytes frame;
  };
  int host_ = 0;
  int hosts_ = 1;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::deque<Pending> pending_;
  std::vector<long> sent_to_, received_from_; ///< batches, per peer host
  std::vector<Bytes> batches_;                ///< per peer: frames not yet sent
  std::deque<Frame> received_; ///< frames of received batches not yet taken, in held_
  std::deque<Bytes> held_;     ///< received batches whose frames may still be read
  std::vector<Bytes> spares_;  ///< batch buffers free for reuse
};

} // namespace
} // namespace mpisim::protocols

/// The interface this library was built for (transport_loader.cpp checks it first).
extern "C" __attribute__((visibility("default"))) int mpisim_transport_interface() {
  return mpisim::protocols::kTransportInterface;
}

/// The library's entry point (transport_loader.cpp looks it up by name).
extern "C" __attribute__((visibility("default"))) mpisim::protocols::Transport*
mpisim_open_mpich_transport(int* argc, char*** argv) {
  return new mpisim::protocols::MpichTransport(argc, argv);
}
