#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#if defined(MPISIM_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

namespace mpilite {
namespace {

// Mappings left for the program, MPICH, libraries and the heap.
constexpr long kMappingReserve = 8192;
// An mprotect()ed page inside a mapping splits it: the page and the rest are mappings of their own.
constexpr long kMappingsPerGuard = 2;

long max_map_count() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  long n = 65530;
  in >> n;
  return n;
}

std::size_t page_size() {
  return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

/// The top `bytes` of stack `s` (its used part) and the whole pages they lie on.
struct UsedPart {
  std::byte* low;
  std::byte* pages;
  std::byte* top;
  std::size_t page_bytes() const { return static_cast<std::size_t>(top - pages); }
};

UsedPart used_part(const Stack& s, std::size_t bytes, std::size_t page) {
  std::byte* top = s.bottom + s.size;
  std::byte* low = top - bytes;
  return {low, s.bottom + (static_cast<std::size_t>(low - s.bottom) & ~(page - 1)), top};
}

} // namespace

StackPool::StackPool(std::size_t count, std::size_t size, const StackPoolOptions& options) {
  const std::size_t page = page_size();
  asked_ = round_up(size, page);
  reserve_ = round_up(options.top_reserve, 64);
  if (reserve_ > page) throw std::logic_error("a stack's top reserve must fit in its top page");
  // A page more holds the reserve, so that every stack still has the size asked for.
  size_ = asked_ + (reserve_ > 0 ? page : 0);
  if (reserve_ > 0 && options.copy_stacks)
    throw std::logic_error("stack copying keeps no top reserve: it parks whole pages");
  guard_bytes_ = page;
  // An odd number of pages per slot: the stacks' tops (the hottest bytes of every fiber, and its
  // rank's state) then fall on every page colour of a cache indexed by address bits above the
  // page offset; with an even number they would share half of its sets.
  if ((size_ / page + 1) % 2 == 0) size_ += page;
  slot_bytes_ = size_ + guard_bytes_;
  shared_ = options.copy_stacks && options.shared_slots > 0;
  slots_ = shared_ ? std::min(count, options.shared_slots) : count;
  install_guards(slots_, options);
  if (options.copy_stacks) enable_copying(count, options.park_batch);
}

bool kernel_has_guard_regions() {
  static const bool has = [] {
    const auto page = page_size();
    void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    const bool ok = madvise(p, page, MADV_GUARD_INSTALL) == 0;
    munmap(p, page);
    return ok;
  }();
  return has;
}

void StackPool::enable_copying(std::size_t count, std::size_t batch) {
  // A parked stack must fault when touched, without a memory mapping of its own per rank:
  // only kernel guard regions do that.
#if defined(MPISIM_ASAN)
  // Copying a stack out reads its frames' poisoned redzones, and a parked stack's shadow memory
  // would have to be saved and restored with it.
  throw std::runtime_error("stack copying is not available under AddressSanitizer; set "
                           "MPISIM_STACK_COPY=off");
#endif
  parked_.resize(count);
  if (shared_) {
    // Every fiber starts out of place, with nothing to put back.
    for (ParkedStack& p : parked_)
      p.state = ParkedStack::State::Parked;
    occupant_.assign(slots_, -1);
    return;
  }
  if (count > 0 && !kernel_guards_)
    throw std::runtime_error("stack copying needs kernel guard regions (MADV_GUARD_INSTALL, "
                             "Linux 6.13 or later), which this kernel lacks; set "
                             "MPISIM_STACK_COPY=off");
  park_batch_ = std::clamp<std::size_t>(batch, 1, BatchedAdvice::kBatch);
  leaving_.reserve(park_batch_);
}

void StackPool::install_guards(std::size_t count, const StackPoolOptions& options) {
  long budget =
      options.mapping_budget > 0 ? options.mapping_budget : max_map_count() - kMappingReserve;
  budget = std::max(budget, 64L);
  const std::size_t guards = static_cast<std::size_t>(budget / kMappingsPerGuard);
  // Decided before mapping so that every chunk starts with a guarded stack; revised to 1 below
  // if the kernel has guard regions, which cost no mapping.
  stacks_per_guard_ = std::max<std::size_t>(1, (count + guards - 1) / guards);
  // Chunks of at most 1 GiB keep single mmap calls reasonable at 100 000 ranks.
  const std::size_t fit = std::max<std::size_t>(1, (std::size_t{1} << 30) / slot_bytes_);
  per_chunk_ = std::max(stacks_per_guard_, fit / stacks_per_guard_ * stacks_per_guard_);
  for (std::size_t first = 0; first < count; first += per_chunk_) {
    const std::size_t n = std::min(per_chunk_, count - first);
    const std::size_t bytes = n * slot_bytes_;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("cannot map " + std::to_string(bytes) +
                               " bytes of fiber stacks: " + std::strerror(errno) +
                               "; lower MPISIM_STACK or the number of ranks per host process");
    chunks_.push_back({static_cast<std::byte*>(p), bytes});
    by_address_.push_back(static_cast<std::uint32_t>(chunks_.size() - 1));
  }
  std::sort(by_address_.begin(), by_address_.end(),
            [this](std::uint32_t x, std::uint32_t y) { return chunks_[x].base < chunks_[y].base; });
  if (count == 0) return;
  kernel_guards_ = options.kernel_guard_regions && kernel_has_guard_regions();
  if (kernel_guards_) stacks_per_guard_ = 1;
  BatchedAdvice guard_advice(MADV_GUARD_INSTALL);
  int error = 0;
  for (std::size_t i = 0; i < count && error == 0; i += stacks_per_guard_)
    if (kernel_guards_)
      error = guard_advice.add(slot(i), guard_bytes_);
    else if (mprotect(slot(i), guard_bytes_, PROT_NONE) != 0)
      error = errno;
  if (error == 0) error = guard_advice.flush();
  if (error != 0)
    throw std::runtime_error(std::string("cannot install a stack guard page: ") +
                             std::strerror(error) + "; lower the number of ranks per host process");
}

StackPool::~StackPool() {
  releases_.drop();
  for (const Chunk& c : chunks_)
    munmap(c.base, c.bytes);
  for (const ParkedStack& p : parked_)
    std::free(p.copy);
}

void StackPool::keep_for_leak_check([[maybe_unused]] const std::vector<std::size_t>& indices) {
#if defined(MPISIM_ASAN)
  if (indices.empty()) return;
  // Each stack alone: kernel guard regions sit inside readable mappings and fault when scanned.
  for (std::size_t i : indices)
    __lsan_register_root_region(stack(i).bottom, stack(i).size);
  chunks_.clear();
  by_address_.clear();
#endif
}

std::string StackPool::describe() const {
  if (stacks_per_guard_ > 1)
    return "a guard page per " + std::to_string(stacks_per_guard_) +
           " stacks + canary + stack pointer";
  return kernel_guards_ ? "kernel guard pages" : "guard pages";
}

std::byte* StackPool::slot(std::size_t index) const {
  return chunks_[index / per_chunk_].base + (index % per_chunk_) * slot_bytes_;
}

Stack StackPool::stack(std::size_t index) const {
  return {slot(home(index)) + guard_bytes_, size_ - reserve_};
}

long StackPool::slot_of(const void* addr, bool& in_guard) const {
  const auto* a = static_cast<const std::byte*>(addr);
  // The last chunk that starts at or below `a`: a million 8 MiB stacks are 7 813 chunks, and
  // every buffer handed to MPI is looked up here (reach) when stacks are copied.
  const auto after =
      std::upper_bound(by_address_.begin(), by_address_.end(), a,
                       [this](const std::byte* x, std::uint32_t c) { return x < chunks_[c].base; });
  if (after == by_address_.begin()) return -1;
  const std::size_t c = *std::prev(after);
  const Chunk& ch = chunks_[c];
  if (a >= ch.base + ch.bytes) return -1;
  const std::size_t offset = static_cast<std::size_t>(a - ch.base);
  in_guard = offset % slot_bytes_ < guard_bytes_;
  return static_cast<long>(c * per_chunk_ + offset / slot_bytes_);
}

long StackPool::stack_of_guard_address(const void* addr) const {
  bool in_guard = false;
  const long index = slot_of(addr, in_guard);
  return index >= 0 && in_guard && guarded(static_cast<std::size_t>(index)) ? index : -1;
}

void StackPool::park(std::size_t index, const void* sp) {
  ParkedStack& p = parked_[index];
  const Stack s = stack(index);
  // The saved context is at the stack pointer; what lies below it is dead.
  p.bytes = static_cast<std::uint32_t>(s.bottom + s.size - static_cast<const std::byte*>(sp));
  if (shared_) return; // copied out when another fiber claims the slot
  if (p.state == ParkedStack::State::InPlace) leaving_.push_back(static_cast<std::uint32_t>(index));
  p.state = ParkedStack::State::Leaving;
  if (leaving_.size() >= park_batch_) park_leaving();
}

namespace {

[[noreturn]] void parking_failed(const char* what, int error) {
  // A stack whose copy was taken but whose pages stayed in place would take writes that the
  // copy, put back later, undoes: no run may go on from there.
  char msg[160];
  const int n = std::snprintf(msg, sizeof msg, "mpisim: %s while parking fiber stacks: %s\n", what,
                              std::strerror(error));
  (void)!write(2, msg, static_cast<std::size_t>(std::max(n, 0)));
  std::abort();
}

} // namespace

void StackPool::park_leaving() {
  for (const std::uint32_t index : leaving_) {
    ParkedStack& p = parked_[index];
    if (p.state != ParkedStack::State::Leaving) continue; // ran again, or finished
    const Stack s = stack(index);
    const UsedPart used = used_part(s, p.bytes, guard_bytes_);
    copy_out(p, used.low);
    if (const int error = guards_.add(used.pages, used.page_bytes()))
      parking_failed("installing guard regions", error);
    // The first time, the pages below that a deeper start (MPI_Init, the program's set-up) left
    // behind are given back too; later excursions that deep are rare enough to leave.
    if (!p.trimmed) {
      if (used.pages > s.bottom)
        trims_.add(s.bottom, static_cast<std::size_t>(used.pages - s.bottom));
      p.trimmed = true;
    }
  }
  leaving_.clear();
  if (const int error = guards_.flush()) parking_failed("installing guard regions", error);
  trims_.flush(); // memory only: a range not given back costs nothing more
}

void StackPool::copy_out(ParkedStack& p, const std::byte* low) {
  const std::uint32_t bytes = p.bytes;
  if (bytes > p.capacity) {
    // Exact, to the allocator's 16 bytes: a rank blocked in MPI_Recv keeps about 600 bytes, and
    // every byte here counts a million times; a deeper stack later grows it, once for each depth.
    const std::uint32_t capacity = (bytes + 15) & ~std::uint32_t{15};
    void* copy = std::realloc(p.copy, capacity);
    if (!copy) parking_failed("copying out a fiber stack", ENOMEM);
    p.copy = static_cast<std::byte*>(copy);
    p.capacity = capacity;
  }
  std::memcpy(p.copy, low, bytes);
  p.state = ParkedStack::State::Parked;
}

void StackPool::bring_back(std::size_t index) {
  ParkedStack& p = parked_[index];
  const UsedPart used = used_part(stack(index), p.bytes, guard_bytes_);
  if (madvise(used.pages, used.page_bytes(), MADV_GUARD_REMOVE) != 0)
    parking_failed("removing guard regions", errno);
  // Its pages made present in the same kind of call, not one page fault each as the copy
  // below writes them: a fault's trap cost more than the call (the million-rank ring 8 % less
  // wall time). Should it fail, the copy's faults do the same.
  (void)madvise(used.pages, used.page_bytes(), MADV_POPULATE_WRITE);
  std::memcpy(used.low, p.copy, p.bytes);
  p.state = ParkedStack::State::InPlace;
}

void StackPool::claim(std::size_t index) {
  long& occupant = occupant_[home(index)];
  if (occupant == static_cast<long>(index)) return;
  const Stack s = stack(index);
  std::byte* top = s.bottom + s.size;
  if (occupant >= 0) {
    ParkedStack& out = parked_[static_cast<std::size_t>(occupant)];
    copy_out(out, top - out.bytes);
  }
  occupant = static_cast<long>(index);
  ParkedStack& p = parked_[index];
  std::memcpy(top - p.bytes, p.copy, p.bytes);
  p.state = ParkedStack::State::InPlace;
}

void* StackPool::reach_shared(std::size_t owner, void* base, std::ptrdiff_t lo, std::ptrdiff_t hi) {
  const ParkedStack& p = parked_[owner];
  if (p.state == ParkedStack::State::InPlace) return base;
  const Stack s = stack(owner);
  auto* b = static_cast<std::byte*>(base);
  std::byte* top = s.bottom + s.size;
  if (b + hi <= s.bottom || b + lo >= top) return base; // not on its stack
  std::byte* low = top - p.bytes;
  if (b + lo >= low && b + hi <= top) return p.copy + (b - low);
  // Bytes of its slot below what its copy holds (below its stack pointer): in place they are
  // another fiber's now, and nothing of its own can be there.
  char msg[240];
  const int n = std::snprintf(msg, sizeof msg,
                              "mpisim: a buffer handed to MPI lies below the stack pointer of its "
                              "blocked rank (fiber %zu), outside the part of its shared stack "
                              "that is kept (MPISIM_STACK_COPY=shared); set MPISIM_STACK_COPY=on\n",
                              owner);
  (void)!write(2, msg, static_cast<std::size_t>(std::max(n, 0)));
  std::abort();
}

long StackPool::parked_at(const void* addr) const {
  if (parked_.empty() || shared_) return -1;
  bool in_guard = false;
  const long index = slot_of(addr, in_guard);
  if (index < 0 || in_guard ||
      parked_[static_cast<std::size_t>(index)].state != ParkedStack::State::Parked)
    return -1;
  return index;
}

bool StackPool::unpark_at(const void* addr) {
  const long index = parked_at(addr);
  if (index < 0) return false;
  const auto i = static_cast<std::size_t>(index);
  // Only the guarded pages fault: a fault elsewhere is not this, and retrying would repeat it.
  if (static_cast<const std::byte*>(addr) <
      used_part(stack(i), parked_[i].bytes, guard_bytes_).pages)
    return false;
  bring_back(i);
  ++faults_;
  return true;
}

void* StackPool::reach(void* base, std::ptrdiff_t lo, std::ptrdiff_t hi) {
  const long index = parked_at(base);
  if (index < 0) return base;
  const auto i = static_cast<std::size_t>(index);
  ParkedStack& p = parked_[i];
  const UsedPart used = used_part(stack(i), p.bytes, guard_bytes_);
  auto* b = static_cast<std::byte*>(base);
  if (b + lo >= used.low && b + hi <= used.top) return p.copy + (b - used.low);
  bring_back(i);
  return base;
}

std::size_t StackPool::parked_bytes() const {
  std::size_t sum = 0;
  for (const ParkedStack& p : parked_)
    sum += p.capacity;
  return sum;
}

bool StackPool::below_stack(std::size_t index, const void* addr) const {
  const auto* a = static_cast<const std::byte*>(addr);
  if (a >= stack(index).bottom) return false;
  return std::any_of(chunks_.begin(), chunks_.end(),
                     [a](const Chunk& ch) { return a >= ch.base && a < ch.base + ch.bytes; });
}

void StackPool::release(std::size_t index) {
  if (shared_) {
    // The slot's pages stay for the fibers that share it.
    long& occupant = occupant_[home(index)];
    if (occupant == static_cast<long>(index)) occupant = -1;
    std::free(parked_[index].copy);
    parked_[index] = {};
    parked_[index].state = ParkedStack::State::Parked;
    return;
  }
  // Dropped pages read as zero again, which also restores the canary; guard regions stay. The
  // top reserve's page stays: its owner outlives the stack.
  const std::size_t bytes = reserve_ > 0 ? size_ - guard_bytes_ : size_;
  if (bytes > 0) releases_.add(slot(index) + guard_bytes_, bytes);
  if (parked_.empty()) return;
  std::free(parked_[index].copy);
  parked_[index] = {};
}

} // namespace mpilite
