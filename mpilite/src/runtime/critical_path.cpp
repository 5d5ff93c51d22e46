#include "critical_path.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace mpilite {
namespace {

constexpr const char* kPartNames[kPathParts] = {
    "compute", "send_overhead", "recv_overhead", "latency", "transfer", "contention", "wait"};

bool same_key(const PathEntry& a, const PathEntry& b) {
  return a.rank == b.rank && a.part == b.part && a.call_id == b.call_id;
}

/// Every call name seen, with its number (call_id): the map's keys are also the lasting copies
/// of names read from another host process's bytes.
struct CallNames {
  std::mutex lock;
  std::unordered_map<std::string, std::uint32_t> ids;

  /// The entry of `name`, numbered in the order names come.
  const std::pair<const std::string, std::uint32_t>& of(std::string name) {
    const std::lock_guard<std::mutex> hold(lock);
    const auto next = static_cast<std::uint32_t>(ids.size());
    if (next >= (1u << 24)) throw std::runtime_error("more than 2^24 call names on critical paths");
    return *ids.try_emplace(std::move(name), next).first;
  }
};

CallNames& call_names() {
  static CallNames names;
  return names;
}

/// A lasting copy of a call name read from another host process's bytes.
const char* interned(std::string name) {
  return call_names().of(std::move(name)).first.c_str();
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

std::uint32_t call_id(const char* name) {
  // Every addition to a path names its call: a comparison of the text in the tables' scans was
  // a fifth of a run's instructions. Names are few and live at few addresses, so a small cache
  // by address answers nearly every time.
  struct Slot {
    const char* name = nullptr;
    std::uint32_t id = 0;
  };
  thread_local std::array<Slot, 256> cache{};
  Slot& slot = cache[(reinterpret_cast<std::uintptr_t>(name) >> 3) & 255];
  if (slot.name == name) return slot.id;
  slot = {name, call_names().of(name).second};
  return slot.id;
}

const char* path_part_name(PathPart p) {
  return kPartNames[static_cast<std::size_t>(p)];
}

template <std::size_t N> std::size_t PathTable<N>::home(const PathEntry& e) {
  std::uint64_t k = static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.rank)) << 32 |
                    std::uint64_t{e.call_id} << 8 | static_cast<std::uint8_t>(e.part);
  k *= 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(k >> 40) & (kSlots - 1);
}

template <std::size_t N> std::size_t PathTable<N>::probe(const PathEntry& e) const {
  std::size_t s = home(e);
  while (index_[s] != 0 && !same_key(e_[index_[s] - 1u], e))
    s = (s + 1) & (kSlots - 1);
  return s;
}

template <std::size_t N> void PathTable<N>::unindex(std::size_t entry) {
  // Removal from linear probing: later entries of the run move back over the hole when their
  // home does not lie between the hole and them.
  std::size_t hole = probe(e_[entry]);
  index_[hole] = 0;
  for (std::size_t s = (hole + 1) & (kSlots - 1); index_[s] != 0; s = (s + 1) & (kSlots - 1)) {
    const std::size_t h = home(e_[index_[s] - 1u]);
    const bool stays = hole <= s ? (hole < h && h <= s) : (hole < h || h <= s);
    if (stays) continue;
    index_[hole] = index_[s];
    index_[s] = 0;
    hole = s;
  }
}

template <std::size_t N> void PathTable<N>::reindex() {
  index_.fill(0);
  for (std::size_t i = 0; i < n_; ++i)
    index_[probe(e_[i])] = static_cast<std::uint8_t>(i + 1);
  smallest_known_ = false;
}

template <std::size_t N> std::size_t PathTable<N>::smallest() {
  if (!smallest_known_) {
    std::size_t m = 0;
    for (std::size_t i = 1; i < n_; ++i)
      if (e_[i].ps < e_[m].ps) m = i;
    smallest_ = static_cast<std::uint8_t>(m);
    smallest_known_ = true;
  }
  return smallest_;
}

template <std::size_t N> void PathTable<N>::add(const PathEntry& c) {
  const std::size_t slot = probe(c);
  if (index_[slot] != 0) {
    const std::size_t i = index_[slot] - 1u;
    e_[i].ps += c.ps;
    // Only the smallest entry growing can change which is the smallest.
    if (smallest_known_ && i == smallest_) smallest_known_ = false;
    return;
  }
  if (n_ < N) {
    e_[n_] = c;
    index_[slot] = static_cast<std::uint8_t>(++n_);
    smallest_known_ = false;
    return;
  }
  const std::size_t m = smallest();
  if (e_[m].ps < c.ps) {
    dropped_ += e_[m].ps;
    unindex(m);
    e_[m] = c;
    index_[probe(c)] = static_cast<std::uint8_t>(m + 1);
    smallest_known_ = false;
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
  n_ = static_cast<std::uint16_t>(n);
  dropped_ = get_time(b, at, what);
  for (std::size_t i = 0; i < n_; ++i) {
    PathEntry& e = e_[i];
    e.ps = get_time(b, at, what);
    e.rank = get<std::int32_t>(b, at, what);
    const auto part = get<std::uint8_t>(b, at, what);
    if (part >= kPathParts) bad("of an unknown part", what);
    e.part = static_cast<PathPart>(part);
    e.call = get_name(b, at, what);
    e.call_id = call_id(e.call);
  }
  reindex();
}

template <std::size_t N> bool PathTable<N>::operator==(const PathTable& o) const {
  if (n_ != o.n_ || dropped_ != o.dropped_) return false;
  for (std::size_t i = 0; i < n_; ++i)
    if (e_[i].ps != o.e_[i].ps || !same_key(e_[i], o.e_[i])) return false;
  return true;
}

namespace {

/// Blocks of one size kept for reuse on this thread, each free block holding the next: a
/// list with no storage of its own and no destructor, so that reaching it costs no guard of a
/// thread-local's construction (each host process's simulation runs on one thread; a block
/// freed on another goes to that thread's list). What is kept is bounded; what stays at the end
/// of the process goes with it.
template <std::size_t Size> class KeptBlocks {
  static_assert(Size >= sizeof(void*));

public:
  void* take() {
#if !defined(MPISIM_ASAN)
    if (head_) {
      void* b = head_;
      head_ = *static_cast<void**>(b);
      --count_;
      return b;
    }
#endif
    return ::operator new(Size);
  }
  void give(void* b) noexcept {
#if !defined(MPISIM_ASAN)
    if (count_ < kKept) {
      *static_cast<void**>(b) = head_;
      head_ = b;
      ++count_;
      return;
    }
#endif
    ::operator delete(b);
  }

private:
  // At most 4 MiB of each size: a path's block is about 500 bytes, its tables' 2.9 KiB.
  static constexpr std::size_t kKept = (std::size_t{4} << 20) / Size;
  void* head_ = nullptr;
  std::size_t count_ = 0;
};

template <std::size_t Size> KeptBlocks<Size>& kept_blocks() {
  static_assert(std::is_trivially_destructible_v<KeptBlocks<Size>>);
  thread_local KeptBlocks<Size> blocks;
  return blocks;
}

/// An allocator of std::allocate_shared's blocks from the kept ones.
template <class T> struct KeptAllocator {
  using value_type = T;
  KeptAllocator() = default;
  template <class U> KeptAllocator(const KeptAllocator<U>&) {}
  T* allocate(std::size_t n) {
    if (n != 1) return static_cast<T*>(::operator new(n * sizeof(T)));
    return static_cast<T*>(kept_blocks<sizeof(T)>().take());
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n != 1) return ::operator delete(p);
    kept_blocks<sizeof(T)>().give(p);
  }
  template <class U> bool operator==(const KeptAllocator<U>&) const { return true; }
};

} // namespace

void* CritPath::operator new(std::size_t bytes) {
  return bytes == sizeof(CritPath) ? kept_blocks<sizeof(CritPath)>().take() : ::operator new(bytes);
}

void CritPath::operator delete(void* block, std::size_t bytes) noexcept {
  if (bytes == sizeof(CritPath))
    kept_blocks<sizeof(CritPath)>().give(block);
  else
    ::operator delete(block);
}

void CritPath::add(PathPart part, SimTime ps, int rank, const char* call) {
  if (ps <= 0) return;
  if (!call) call = "(outside MPI)";
  last_rank_ = rank;
  last_call_ = call;
  parts_[static_cast<std::size_t>(part)] += ps;
  total_ += ps;
  pending_.push({call, ps, rank, part, call_id(call)});
  if (pending_.size() == kPending) flush();
}

void CritPath::flush() const {
  if (!tables_)
    tables_ = std::allocate_shared<Tables>(KeptAllocator<Tables>());
  else if (tables_.use_count() > 1)
    tables_ = std::allocate_shared<Tables>(KeptAllocator<Tables>(), *tables_);
  static const std::uint32_t no_call = call_id("");
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    const PathEntry& c = pending_[i];
    tables_->named.add(c);
    tables_->calls.add({c.call, c.ps, -1, c.part, c.call_id});
    tables_->ranks.add({"", c.ps, c.rank, PathPart::Wait, no_call});
  }
  pending_.clear();
}

const CritPath::Tables& CritPath::tables() const {
  if (pending_.size() > 0 || !tables_) flush();
  return *tables_;
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
  const Tables& t = tables();
  t.named.encode(out);
  t.calls.encode(out);
  t.ranks.encode(out);
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
  p.tables_ = std::make_shared<Tables>();
  p.tables_->named.decode(bytes, at, what);
  p.tables_->calls.decode(bytes, at, what);
  p.tables_->ranks.decode(bytes, at, what);
  if (at != bytes.size()) bad("followed by other bytes", what);
  return p;
}

bool CritPath::operator==(const CritPath& o) const {
  const Tables &a = tables(), &b = o.tables();
  return parts_ == o.parts_ && a.named == b.named && a.calls == b.calls && a.ranks == b.ranks;
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
