#include "critical_path.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace mpilite {
namespace {

constexpr const char* kPartNames[kPathParts] = {
    "compute", "send_overhead", "recv_overhead", "latency", "transfer", "contention", "wait"};

bool same_key(const PathEntry& a, const PathEntry& b) {
  return a.rank == b.rank && a.part == b.part &&
         (a.call == b.call || std::strcmp(a.call, b.call) == 0);
}

/// A lasting copy of a call name read from another host process's bytes.
const char* interned(std::string name) {
  static std::mutex lock;
  static std::unordered_set<std::string> names;
  const std::lock_guard<std::mutex> hold(lock);
  return names.insert(std::move(name)).first->c_str();
}

template <class T> void put(std::vector<std::byte>& out, T v) {
  const std::size_t at = out.size();
  out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

void put_name(std::vector<std::byte>& out, const char* name) {
  const std::size_t n = std::strlen(name);
  put(out, static_cast<std::uint32_t>(n));
  const std::size_t at = out.size();
  out.resize(at + n);
  if (n) std::memcpy(out.data() + at, name, n);
}

[[noreturn]] void bad(const char* problem, const char* what) {
  throw std::runtime_error(std::string("a critical path ") + problem + " in " + what);
}

const std::byte* take(std::span<const std::byte> b, std::size_t& at, std::size_t n,
                      const char* what) {
  if (b.size() - at < n) bad("cut short", what);
  const std::byte* p = b.data() + at;
  at += n;
  return p;
}

template <class T> T get(std::span<const std::byte> b, std::size_t& at, const char* what) {
  T v;
  std::memcpy(&v, take(b, at, sizeof v, what), sizeof v);
  return v;
}

SimTime get_time(std::span<const std::byte> b, std::size_t& at, const char* what) {
  const auto t = get<SimTime>(b, at, what);
  if (t < 0 || t > kTimeInfinity) bad("with a time out of range", what);
  return t;
}

const char* get_name(std::span<const std::byte> b, std::size_t& at, const char* what) {
  const auto n = get<std::uint32_t>(b, at, what);
  const std::byte* s = take(b, at, n, what);
  return interned(std::string(reinterpret_cast<const char*>(s), n));
}

} // namespace

const char* path_part_name(PathPart p) {
  return kPartNames[static_cast<std::size_t>(p)];
}

template <std::size_t N> void PathTable<N>::add(const PathEntry& c) {
  for (std::size_t i = 0; i < n_; ++i)
    if (same_key(e_[i], c)) {
      e_[i].ps += c.ps;
      return;
    }
  if (n_ < N) {
    e_[n_++] = c;
    return;
  }
  std::size_t smallest = 0; // the first of the smallest: the same choice on every host count
  for (std::size_t i = 1; i < n_; ++i)
    if (e_[i].ps < e_[smallest].ps) smallest = i;
  if (e_[smallest].ps < c.ps) {
    dropped_ += e_[smallest].ps;
    e_[smallest] = c;
  } else {
    dropped_ += c.ps;
  }
}

template <std::size_t N> void PathTable<N>::encode(std::vector<std::byte>& out) const {
  put(out, static_cast<std::uint32_t>(n_));
  put(out, dropped_);
  for (std::size_t i = 0; i < n_; ++i) {
    put(out, e_[i].ps);
    put(out, e_[i].rank);
    put(out, static_cast<std::uint8_t>(e_[i].part));
    put_name(out, e_[i].call);
  }
}

template <std::size_t N>
void PathTable<N>::decode(std::span<const std::byte> b, std::size_t& at, const char* what) {
  const auto n = get<std::uint32_t>(b, at, what);
  if (n > N) bad("with too many entries", what);
  n_ = n;
  dropped_ = get_time(b, at, what);
  for (std::size_t i = 0; i < n_; ++i) {
    PathEntry& e = e_[i];
    e.ps = get_time(b, at, what);
    e.rank = get<std::int32_t>(b, at, what);
    const auto part = get<std::uint8_t>(b, at, what);
    if (part >= kPathParts) bad("of an unknown part", what);
    e.part = static_cast<PathPart>(part);
    e.call = get_name(b, at, what);
  }
}

template <std::size_t N> bool PathTable<N>::operator==(const PathTable& o) const {
  if (n_ != o.n_ || dropped_ != o.dropped_) return false;
  for (std::size_t i = 0; i < n_; ++i)
    if (e_[i].ps != o.e_[i].ps || !same_key(e_[i], o.e_[i])) return false;
  return true;
}

void CritPath::add(PathPart part, SimTime ps, int rank, const char* call) {
  if (ps <= 0) return;
  if (!call) call = "(outside MPI)";
  last_rank_ = rank;
  last_call_ = call;
  parts_[static_cast<std::size_t>(part)] += ps;
  total_ += ps;
  named_.add({call, ps, rank, part});
  calls_.add({call, ps, -1, part});
  ranks_.add({"", ps, rank, PathPart::Wait});
}

void CritPath::reach(SimTime t, const CritPath* cause, int rank, const char* call) {
  // The cause's path when it explains more of `t` than this one does.
  if (cause && total_ <= cause->total_ && cause->total_ <= t) *this = *cause;
  add(PathPart::Wait, t - total_, rank, call);
}

void CritPath::encode(std::vector<std::byte>& out) const {
  for (SimTime p : parts_)
    put(out, p);
  put(out, last_rank_);
  put_name(out, last_call_);
  named_.encode(out);
  calls_.encode(out);
  ranks_.encode(out);
}

CritPath CritPath::decode(std::span<const std::byte> bytes, const char* what) {
  CritPath p;
  std::size_t at = 0;
  for (SimTime& part : p.parts_) {
    part = get_time(bytes, at, what);
    p.total_ += part;
  }
  if (p.total_ > kTimeInfinity) bad("with a total out of range", what);
  p.last_rank_ = get<std::int32_t>(bytes, at, what);
  p.last_call_ = get_name(bytes, at, what);
  p.named_.decode(bytes, at, what);
  p.calls_.decode(bytes, at, what);
  p.ranks_.decode(bytes, at, what);
  if (at != bytes.size()) bad("followed by other bytes", what);
  return p;
}

bool CritPath::operator==(const CritPath& o) const {
  return parts_ == o.parts_ && named_ == o.named_ && calls_ == o.calls_ && ranks_ == o.ranks_;
}

std::unique_ptr<CritPath> leg_path(const CritPath& from, const LegPlan& plan, SimTime at, int rank,
                                   const char* call) {
  auto p = std::make_unique<CritPath>(from);
  p->add(PathPart::SendOverhead, plan.leaves - at, rank, call);
  p->add(PathPart::Latency, plan.latency, rank, call);
  p->add(PathPart::Transfer, plan.transfer, rank, call);
  return p;
}

std::unique_ptr<CritPath> sender_path(const CritPath& from, const LegPlan& plan, SimTime at,
                                      int rank, const char* call) {
  auto p = std::make_unique<CritPath>(from);
  p->add(PathPart::SendOverhead, plan.leaves - at, rank, call);
  p->add(PathPart::Transfer, std::min(plan.transfer, plan.sent - plan.leaves), rank, call);
  return p;
}

std::unique_ptr<CritPath> copy_path(const CritPath* p) {
  return p ? std::make_unique<CritPath>(*p) : nullptr;
}

std::unique_ptr<CritPath> arrival_path(const CritPath* leg, SimTime at) {
  return leg ? arrival_path(std::make_unique<CritPath>(*leg), at) : nullptr;
}

std::unique_ptr<CritPath> arrival_path(std::unique_ptr<CritPath> leg, SimTime at) {
  if (!leg || leg->total() > at) return nullptr;
  leg->extend(PathPart::Contention, at - leg->total());
  return leg;
}

template class PathTable<CritPath::kNamed>;
template class PathTable<CritPath::kCalls>;
template class PathTable<CritPath::kRanks>;

} // namespace mpilite
