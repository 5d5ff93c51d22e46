// A simulated point-to-point message (user or collective), as it travels between LPs.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "critical_path.hpp"
#include "message_timing.hpp"
#include "sim_time.hpp"
#include "zeroed_blocks.hpp"

namespace mpilite {

struct Request;
struct Datatype;

/// How the sender's side completes.
enum class SendProtocol : std::uint8_t {
  Eager,      ///< data travels with the envelope; the send completes at once
  EagerSync,  ///< eager data, but the send completes when the receiver's acknowledgement arrives
  Rendezvous, ///< request-to-send; data moves when matched; the send completes when it has left
  Buffered,   ///< rendezvous timing for the receiver, but the sender completed at once (Bsend)
};

/// Releases a block of allocate_unzeroed.
struct FreeBlock {
  void operator()(std::byte* p) const { std::free(p); }
};

struct Message {
  Message* prev = nullptr; ///< links of the receiver's unexpected queue
  Message* next = nullptr;
  Message* source_prev = nullptr; ///< links of its (context, source) list there
  Message* source_next = nullptr;
  int src = 0; ///< world ranks
  int dst = 0;
  int context = 0;
  int tag = 0;
  std::uint64_t seq = 0; ///< per-sender send order
  SimTime ts = 0;        ///< recv timestamp: data (eager) or request-to-send (rendezvous) arrival
  /// The network has not decided the arrival yet (contention): `ts` is a lower bound, and the
  /// message may not be matched until the kernel settles it (settle_message).
  bool pending = false;
  /// Only its size counts: it carries no data and the receive writes none (size_only_bytes).
  bool no_data = false;
  std::size_t bytes = 0; ///< packed size
  SendProtocol protocol = SendProtocol::Eager;
  std::uint64_t reply_to = 0;  ///< sender's request id for the reply (0: no reply wanted)
  std::int32_t partitions = 0; ///< a partitioned send's partition count (0: not partitioned)
  // Data: packed bytes owned by the message, or the sender's own buffer (in-host rendezvous).
  std::byte* packed = nullptr; ///< points into `small` or `heap`, or null
  std::unique_ptr<std::byte, FreeBlock> heap;
  std::size_t heap_capacity = 0; ///< bytes `heap` holds: a recycled message keeps up to
                                 ///< kKeptPayload of them for its next payload
  alignas(16) std::byte small[64];
  const void* user_buf = nullptr;
  std::size_t user_count = 0;
  const Datatype* user_type = nullptr;
  /// MPISIM_CRITICAL_PATH: the path of the sender's clock when the message left, plus the
  /// leg's latency and transfer (null: off, or unknown). What the arrival `ts` exceeds it by is
  /// contention.
  std::unique_ptr<CritPath> path;
};

/// The largest payload room a recycled message keeps (World::free_message): allocating and
/// freeing a block per message made the C library grow and trim its heap, page faults included,
/// about as often as messages were sent (NPB-style CG at 256 ranks: 123 000 page faults with
/// rooms kept up to 4 KiB, 3 000 up to 64 KiB).
inline constexpr std::size_t kKeptPayload = 64 * 1024;

/// The room kept for `bytes` of payload: powers of two up to a page, whole pages above, so that
/// a room fits the next payloads of about its size while messages in flight hold at most a page
/// more each than their payloads (never nearly twice as much).
inline std::size_t payload_room(std::size_t bytes) {
  constexpr std::size_t kPage = 4096;
  if (bytes > kKeptPayload) return bytes;
  return bytes <= kPage ? std::bit_ceil(bytes) : (bytes + kPage - 1) / kPage * kPage;
}

/// Room for `bytes` packed bytes of payload, small ones inside the message itself.
inline std::byte* allocate_payload(Message& m, std::size_t bytes) {
  if (bytes <= sizeof m.small) return m.packed = m.small;
  if (bytes > m.heap_capacity) {
    m.heap.reset();
    m.heap_capacity = 0;
    const std::size_t capacity = payload_room(bytes);
    // Written whole by the send that packs it (or the frame it arrives in) before any read.
    m.heap.reset(static_cast<std::byte*>(allocate_unzeroed(capacity)));
    if (!m.heap) throw std::bad_alloc();
    m.heap_capacity = capacity;
  }
  return m.packed = m.heap.get();
}

/// The answer to a send that waits for its receiver (EagerSync and Rendezvous).
struct Reply {
  int to = 0;                ///< world rank of the sender
  std::uint64_t request = 0; ///< its request id
  SimTime ts = 0;            ///< when the send completes
  /// The critical path of `ts` (MPISIM_CRITICAL_PATH; null: off, or the sender's own part).
  std::shared_ptr<const CritPath> path;
};

/// Intrusive FIFO of messages in arrival order.
class MessageQueue {
public:
  void push_back(Message* m) {
    m->prev = tail_;
    m->next = nullptr;
    (tail_ ? tail_->next : head_) = m;
    tail_ = m;
  }
  void erase(Message* m) {
    (m->prev ? m->prev->next : head_) = m->next;
    (m->next ? m->next->prev : tail_) = m->prev;
    m->prev = m->next = nullptr;
  }
  Message* front() const { return head_; }
  bool empty() const { return head_ == nullptr; }

private:
  Message* head_ = nullptr;
  Message* tail_ = nullptr;
};

} // namespace mpilite
