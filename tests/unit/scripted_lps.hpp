// Scripted LPs for the unit tests of the synchronization core: each LP runs a list of compute,
// send and receive steps with MPI's matching rule (named source: its first message; any source:
// the smallest (recv timestamp, source, sequence) among each source's first), deciding a receive
// only as the bounds the core gives allow (or, in DET mode, a named receive as soon as its
// message is there). Every message from another LP that arrives is checked against every bound
// its LP was given.
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "frames.hpp"
#include "local_lps.hpp"
#include "synchronizer.hpp"

namespace test {

using mpisim::protocols::SimTime;

struct Step {
  enum class Kind { Compute, Send, Recv } kind;
  SimTime dt = 0; ///< Compute
  int peer = -1;  ///< Send: destination; Recv: source, or -1 for any source
  int tag = 0;    ///< Send and Recv: receives match only messages of their tag
};
using Script = std::vector<Step>;
/// The latency of a message from LP `src` to LP `dst`.
using Latency = std::function<SimTime(int src, int dst)>;

struct Msg {
  int src = 0;
  std::uint64_t seq = 0;
  SimTime ts = 0;
  int tag = 0;
};

/// The LPs of one host (LP i lives on host i % hosts) and what the test checks of them.
class ScriptedHost final : public mpisim::protocols::LocalLps, public mpisim::protocols::FrameSink {
public:
  ScriptedHost(const std::vector<Script>& scripts, int host, int hosts, Latency latency, bool det)
      : scripts_(scripts), host_(host), hosts_(hosts), latency_(std::move(latency)), det_(det) {
    for (int i = host; i < static_cast<int>(scripts.size()); i += hosts) {
      Lp lp;
      lp.id = i;
      lp.bound_from.assign(static_cast<std::size_t>(hosts), 0);
      lps_.push_back(std::move(lp));
      ready_.push_back(static_cast<int>(lps_.size()) - 1);
    }
  }

  /// Runs the host until the core says the run finished or deadlocked.
  mpilite::RunEnd run(mpisim::protocols::Synchronizer& sync) {
    sync_ = &sync;
    for (;;) {
      sync.poll(*this);
      while (!ready_.empty()) {
        const int i = ready_.front();
        ready_.pop_front();
        step(lps_[static_cast<std::size_t>(i)]);
      }
      const auto o = sync.idle(*this, *this);
      if (o != mpilite::RunEnd::None) return o;
    }
  }

  /// Final clocks by LP id (-1 for LPs of other hosts or not finished).
  void clocks(std::vector<SimTime>& out) const {
    for (const Lp& lp : lps_)
      out[static_cast<std::size_t>(lp.id)] = lp.pc == script(lp).size() ? lp.clock : -1;
  }
  /// Messages that arrived below a bound their LP had been given (must stay empty).
  const std::vector<std::string>& violations() const { return violations_; }

  // LocalLps
  std::int64_t not_done() const override {
    return std::count_if(lps_.begin(), lps_.end(),
                         [&](const Lp& lp) { return lp.pc < script(lp).size(); });
  }
  bool any_ready() const override { return !ready_.empty(); }
  void undecided(const std::function<void(std::int64_t, SimTime)>& visit) override {
    for (const Lp& lp : lps_)
      if (lp.blocked && lp.key < mpisim::protocols::kTimeInfinity) visit(lp.id, lp.key);
  }
  mpisim::protocols::Sources sources(std::int64_t id) const override {
    const Lp& lp = by_id(id);
    const int peer = script(lp)[lp.pc].peer;
    if (peer < 0) return {true, mpisim::protocols::kAllHosts};
    const int h = peer % hosts_;
    return h == host_ ? mpisim::protocols::Sources{true, 0}
                      : mpisim::protocols::Sources{false, mpisim::protocols::host_bit(h)};
  }
  bool closed() const override {
    return std::all_of(lps_.begin(), lps_.end(), [&](const Lp& lp) {
      if (lp.pc == script(lp).size()) return true;
      const Step& st = script(lp)[lp.pc];
      return lp.blocked && st.kind == Step::Kind::Recv && st.peer >= 0 && st.peer % hosts_ == host_;
    });
  }
  bool raise(bool all_blocked,
             const std::function<mpisim::protocols::LpBound(std::int64_t)>& bound) override {
    bool woke = false;
    for (std::size_t i = 0; i < lps_.size(); ++i) {
      Lp& lp = lps_[i];
      if (!lp.blocked || (!all_blocked && lp.key >= mpisim::protocols::kTimeInfinity)) continue;
      const mpisim::protocols::LpBound b = bound(lp.id);
      const auto from = sources(lp.id);
      for (int h = 0; h < hosts_; ++h) {
        const bool narrowed = h == host_ ? from.local : mpisim::protocols::contains(from.remote, h);
        auto& f = lp.bound_from[static_cast<std::size_t>(h)];
        f = std::max(f, narrowed ? b.now : b.keep);
      }
      const SimTime kept = std::max(lp.eit, b.keep);
      lp.eit = std::max(lp.eit, b.now);
      if (try_receive(lp)) {
        lp.blocked = false;
        ready_.push_back(static_cast<int>(i));
        woke = true;
      }
      lp.eit = kept;
    }
    return woke;
  }
  SimTime min_clock() const override {
    SimTime low = mpisim::protocols::kTimeInfinity;
    for (const Lp& lp : lps_)
      if (lp.pc < script(lp).size()) low = std::min(low, lp.clock);
    return low;
  }
  SimTime earliest_action() const override {
    SimTime low = mpisim::protocols::kTimeInfinity;
    for (const Lp& lp : lps_)
      if (lp.pc < script(lp).size()) low = std::min(low, std::max(lp.clock, lp.eit));
    return low;
  }

  // FrameSink
  void on_data(int from, std::span<const std::byte> body) override {
    std::span<const std::byte> payload;
    const auto h = mpisim::protocols::decode_data(body, payload);
    arrive(by_id(h.dst), {h.src, h.seq, h.ts, h.tag}, from);
  }
  void on_reply(int, std::span<const std::byte>) override {}
  void on_transfer(int, std::span<const std::byte>) override {}

private:
  struct Lp {
    int id = 0;
    std::size_t pc = 0;
    SimTime clock = 0;
    SimTime eit = 0;
    bool blocked = false;
    SimTime key = mpisim::protocols::kTimeInfinity; ///< undecided receive: when it may match
    std::deque<Msg> inbox;                          ///< arrival order
    std::uint64_t seq = 0;
    std::vector<SimTime> bound_from; ///< per source host: the largest bound given
  };

  const Script& script(const Lp& lp) const { return scripts_[static_cast<std::size_t>(lp.id)]; }
  Lp& by_id(std::int64_t id) { return lps_[static_cast<std::size_t>((id - host_) / hosts_)]; }
  const Lp& by_id(std::int64_t id) const {
    return lps_[static_cast<std::size_t>((id - host_) / hosts_)];
  }

  void arrive(Lp& lp, const Msg& m, int from_host) {
    // A bound covers what the other LPs may send: an LP's own messages follow its decisions.
    const SimTime b = lp.bound_from[static_cast<std::size_t>(from_host)];
    if (m.src != lp.id && m.ts < b)
      violations_.push_back("LP " + std::to_string(lp.id) + " got ts " + std::to_string(m.ts) +
                            " from LP " + std::to_string(m.src) + " below its bound " +
                            std::to_string(b));
    lp.inbox.push_back(m);
    if (lp.blocked && try_receive(lp)) {
      lp.blocked = false;
      ready_.push_back(static_cast<int>((lp.id - host_) / hosts_));
    }
  }

  /// The message a receive from `peer` with `tag` would take now.
  std::deque<Msg>::iterator candidate(Lp& lp, int peer, int tag) {
    auto best = lp.inbox.end();
    std::vector<int> seen;
    for (auto it = lp.inbox.begin(); it != lp.inbox.end(); ++it) {
      if (it->tag != tag) continue;
      if (peer >= 0) {
        if (it->src == peer) return it;
        continue;
      }
      if (std::find(seen.begin(), seen.end(), it->src) != seen.end()) continue;
      seen.push_back(it->src);
      if (best == lp.inbox.end() ||
          std::tie(it->ts, it->src, it->seq) < std::tie(best->ts, best->src, best->seq))
        best = it;
    }
    return best;
  }

  /// Completes the receive `lp` is blocked in if that is safe; otherwise records its key.
  bool try_receive(Lp& lp) {
    const Step& st = script(lp)[lp.pc];
    const int peer = st.peer;
    const auto m = candidate(lp, peer, st.tag);
    if (m == lp.inbox.end()) {
      lp.key = mpisim::protocols::kTimeInfinity;
      return false;
    }
    if ((det_ && peer >= 0) || m->ts < lp.eit) {
      lp.clock = std::max(lp.clock, m->ts);
      lp.inbox.erase(m);
      lp.key = mpisim::protocols::kTimeInfinity;
      ++lp.pc;
      return true;
    }
    lp.key = std::max(lp.clock, m->ts);
    return false;
  }

  void step(Lp& lp) {
    const Script& s = script(lp);
    while (lp.pc < s.size()) {
      const Step& st = s[lp.pc];
      switch (st.kind) {
      case Step::Kind::Compute:
        lp.clock += st.dt;
        ++lp.pc;
        break;
      case Step::Kind::Send: {
        const Msg m{lp.id, lp.seq++, lp.clock + latency_(lp.id, st.peer), st.tag};
        const int to = st.peer % hosts_;
        if (to == host_) {
          arrive(by_id(st.peer), m, host_);
        } else {
          mpisim::protocols::DataHeader h;
          h.src = lp.id;
          h.dst = st.peer;
          h.seq = m.seq;
          h.ts = m.ts;
          h.tag = m.tag;
          sync_->send(to, mpisim::protocols::FrameKind::Data, mpisim::protocols::encode(h));
        }
        ++lp.pc;
        break;
      }
      case Step::Kind::Recv:
        if (!try_receive(lp)) {
          lp.blocked = true;
          return;
        }
        break;
      }
    }
  }

  const std::vector<Script>& scripts_;
  int host_, hosts_;
  Latency latency_;
  bool det_;
  std::vector<Lp> lps_;
  std::deque<int> ready_;
  std::vector<std::string> violations_;
  mpisim::protocols::Synchronizer* sync_ = nullptr;
};

} // namespace test
