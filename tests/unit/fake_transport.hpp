// An in-process transport among H hosts (one thread each) for the unit tests of the protocols:
// FIFO per pair of hosts, as MPICH gives, but frames are handed out in a random (seeded) order
// across senders and sometimes held back, so that the protocols meet many interleavings.
#pragma once

#include <deque>
#include <mutex>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "transport.hpp"

namespace test {

class FakeNetwork {
public:
  FakeNetwork(int hosts, unsigned seed)
      : hosts_(hosts), queues_(static_cast<std::size_t>(hosts * hosts)),
        taken_(static_cast<std::size_t>(hosts)) {
    for (int h = 0; h < hosts; ++h)
      rngs_.emplace_back(seed * 7919u + static_cast<unsigned>(h));
  }

  int hosts() const { return hosts_; }

  void send(int from, int to, mpisim::protocols::FrameKind kind, std::span<const std::byte> head,
            std::span<const std::byte> tail) {
    if (to == from || to < 0 || to >= hosts_) throw std::logic_error("a frame to a bad host");
    std::vector<std::byte> body(head.begin(), head.end());
    body.insert(body.end(), tail.begin(), tail.end());
    std::lock_guard lock(mutex_);
    queue(from, to).push_back({from, kind, std::move(body)});
    ++frames_;
  }

  /// The frame's body stays in `out`'s storage (one per host) until that host's next poll.
  bool poll(int host, mpisim::protocols::Frame& out) {
    std::lock_guard lock(mutex_);
    auto& rng = rngs_[static_cast<std::size_t>(host)];
    // Hold everything back now and then: a frame is late.
    if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) return false;
    std::vector<int> ready;
    for (int from = 0; from < hosts_; ++from)
      if (!queue(from, host).empty()) ready.push_back(from);
    if (ready.empty()) return false;
    const int from = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
    Stored& in = taken_[static_cast<std::size_t>(host)];
    in = std::move(queue(from, host).front());
    queue(from, host).pop_front();
    out = {in.from, in.kind, in.body};
    return true;
  }

  std::uint64_t frames() const {
    std::lock_guard lock(mutex_);
    return frames_;
  }

private:
  struct Stored {
    int from = -1;
    mpisim::protocols::FrameKind kind = mpisim::protocols::FrameKind::Data;
    std::vector<std::byte> body;
  };
  std::deque<Stored>& queue(int from, int to) {
    return queues_[static_cast<std::size_t>(from * hosts_ + to)];
  }
  int hosts_;
  mutable std::mutex mutex_;
  std::vector<std::deque<Stored>> queues_;
  std::vector<Stored> taken_; ///< per host: the frame it took last
  std::vector<std::mt19937> rngs_;
  std::uint64_t frames_ = 0;
};

class FakeTransport final : public mpisim::protocols::Transport {
public:
  FakeTransport(FakeNetwork& net, int host) : net_(net), host_(host) {}
  int host() const override { return host_; }
  int hosts() const override { return net_.hosts(); }
  void send_parts(int to, mpisim::protocols::FrameKind kind, std::span<const std::byte> head,
                  std::span<const std::byte> tail) override {
    net_.send(host_, to, kind, head, tail);
  }
  bool poll(mpisim::protocols::Frame& out) override { return net_.poll(host_, out); }
  void pause() override { std::this_thread::yield(); }
  std::vector<std::vector<std::byte>> gather(const std::vector<std::byte>&) override {
    throw std::logic_error("gather is not part of the synchronization core");
  }
  std::vector<std::byte> broadcast(std::vector<std::byte>) override {
    throw std::logic_error("broadcast is not part of the synchronization core");
  }
  [[noreturn]] void abort_from_fault(int code) override {
    throw std::runtime_error("abort(" + std::to_string(code) + ")");
  }

private:
  FakeNetwork& net_;
  int host_;
};

} // namespace test
