#include "privatization.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "mpisim_privatize.h"

char* mpisim_priv_base = nullptr;
__thread char* mpisim_priv_thread_base = nullptr;

namespace mpilite {
namespace {

// Segments are cache-line aligned so that one rank's variables never share a line with
// another's (ranks of one host do not run at once, but their segments are written in turn).
constexpr std::size_t kSegmentAlign = 64;
// Segments from this size on are mapped (lazy zero pages); smaller ones come from the heap.
constexpr std::size_t kMappedSegment = std::size_t{1} << 20;

/// A place in the segment: a unit's group, or a variable of its own that several records
/// may share (same name).
struct Slot {
  std::size_t offset = 0;
  std::size_t size = 0;
  std::size_t align = 1;
  const mpisim_priv_var* defining = nullptr; ///< its image and init (none for a group)
  mpisim_priv_group* group = nullptr;

  bool thread_local_() const { return defining && (defining->flags & MPISIM_PRIV_THREAD_LOCAL); }
};

/// What a rank's segment receives for one record.
struct Copy {
  std::size_t offset;
  const mpisim_priv_var* var;
  bool image; ///< has bytes other than zeros (a fresh segment is zero already)
};

bool all_zero(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  return n == 0 || (b[0] == 0 && std::memcmp(b, b + 1, n - 1) == 0);
}

struct Registry {
  std::vector<mpisim_priv_var*> records; ///< in registration order
  bool laid_out = false;
  std::vector<Slot> slots;
  /// Per record: where its image goes and which record supplies it (itself, or the record
  /// of a merged slot that has the initializer), in registration order.
  std::vector<Copy> copies;
  std::size_t size = 0;
  std::size_t align = kSegmentAlign; ///< of the segment's base: the largest variable's
  /// The thread-local variables, last in the segment: [threads_at, size), which each other
  /// thread of a rank's OpenMP team has a copy of.
  std::size_t threads_at = 0;
  std::size_t threads_align = 1;
  bool has_thread_locals = false;
};

/// Cells to point into the current segment on every switch (laid out once, read often).
struct Cell {
  void** cell;
  std::size_t offset;
};
std::vector<Cell> g_cells;

Registry& registry() {
  static Registry r; // constructed by the first registration, which runs before main
  return r;
}

[[noreturn]] void conflict(const mpisim_priv_var& a, const mpisim_priv_var& b) {
  std::fprintf(stderr,
               "mpisim: the program defines the variable %s twice (%s and %s); keep one "
               "definition and declare it extern elsewhere (programs that rely on common "
               "symbols: compile with -fcommon)\n",
               a.name, a.where ? a.where : "?", b.where ? b.where : "?");
  std::exit(2);
}

bool mergeable(const mpisim_priv_var& v) {
  return v.flags & MPISIM_PRIV_MERGEABLE;
}

void lay_out(Registry& r) {
  std::map<mpisim_priv_group*, std::size_t> group_slot;
  std::map<std::string, std::size_t> named_slot; ///< slot of a name
  std::map<std::string, const mpisim_priv_var*> named_in_group;
  std::vector<std::size_t> slot_of(r.records.size());
  // Groups first: a name defined in a group is where same-named mergeable records go.
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    mpisim_priv_var& v = *r.records[i];
    if (!v.group) continue;
    const auto [it, fresh] = group_slot.emplace(v.group, r.slots.size());
    if (fresh)
      r.slots.push_back(
          Slot{0, v.group->size, std::max<std::size_t>(v.group->align, 1), nullptr, v.group});
    slot_of[i] = it->second;
    if (v.name && !named_in_group.emplace(v.name, &v).second) conflict(*named_in_group[v.name], v);
  }
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    mpisim_priv_var& v = *r.records[i];
    if (v.group) continue;
    if (v.name) {
      if (auto g = named_in_group.find(v.name); g != named_in_group.end()) {
        if (!mergeable(v) || v.size > g->second->size) conflict(*g->second, v);
        continue;
      }
      if (auto it = named_slot.find(v.name); it != named_slot.end()) {
        Slot& slot = r.slots[it->second];
        if (!mergeable(v) && !mergeable(*slot.defining)) conflict(*slot.defining, v);
        slot.size = std::max(slot.size, v.size);
        slot.align = std::max(slot.align, v.align);
        // A tentative definition gives way to one with an initializer.
        if (mergeable(*slot.defining) && !mergeable(v)) slot.defining = &v;
        slot_of[i] = it->second;
        continue;
      }
      named_slot.emplace(v.name, r.slots.size());
    }
    slot_of[i] = r.slots.size();
    r.slots.push_back(Slot{0, v.size, v.align ? v.align : 1, &v, nullptr});
  }
  for (const Slot& s : r.slots)
    if (s.thread_local_()) {
      r.threads_align = std::max(r.threads_align, s.align);
      r.has_thread_locals = true;
    }
  std::size_t at = 0;
  for (const bool thread_locals : {false, true}) {
    // A team thread's copy of them starts as aligned as the most aligned one.
    if (thread_locals)
      r.threads_at = at = (at + r.threads_align - 1) / r.threads_align * r.threads_align;
    for (Slot& s : r.slots) {
      if (s.thread_local_() != thread_locals) continue;
      r.align = std::max(r.align, s.align);
      at = (at + s.align - 1) / s.align * s.align;
      s.offset = at;
      at += s.size;
      if (s.group) s.group->offset = s.offset;
    }
  }
  r.size = (at + kSegmentAlign - 1) / kSegmentAlign * kSegmentAlign;
  std::map<std::string, std::size_t> group_member_at;
  for (std::size_t i = 0; i < r.records.size(); ++i)
    if (r.records[i]->group) {
      const mpisim_priv_var& v = *r.records[i];
      const std::size_t off = r.slots[slot_of[i]].offset + v.group_at;
      *v.offset = off;
      if (v.name) group_member_at[v.name] = off;
      r.copies.push_back(Copy{off, &v, false});
    }
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    const mpisim_priv_var& v = *r.records[i];
    if (v.group) continue;
    if (v.name && group_member_at.count(v.name)) {
      *v.offset = group_member_at[v.name];
      continue;
    }
    const Slot& slot = r.slots[slot_of[i]];
    *v.offset = slot.offset;
    if (slot.defining == &v) r.copies.push_back(Copy{slot.offset, &v, false});
  }
  // Found once here rather than copied into every rank: zero images (large arrays without
  // initializer) then cost no memory until a rank touches them.
  for (Copy& c : r.copies) {
    c.image = c.var->image && !all_zero(c.var->image, c.var->size);
    if (c.var->cell) g_cells.push_back(Cell{c.var->cell, c.offset});
  }
  r.laid_out = true;
}

} // namespace

void install_segment(char* base) {
  mpisim_priv_base = base;
  for (const Cell& c : g_cells)
    *c.cell = base ? base + c.offset : nullptr;
}

std::size_t private_segment_size() {
  Registry& r = registry();
  if (!r.laid_out) lay_out(r);
  return r.size;
}

void PrivateSegment::create(char*& task_base) {
  const std::size_t size = private_segment_size();
  if (size == 0) return;
  const Registry& r = registry();
  align_ = r.align;
  if (size + r.align < kMappedSegment) {
    // Small segments come from the heap: a mapping per rank would run into the limit on
    // mappings (vm.max_map_count) long before memory runs out.
    base_ = static_cast<char*>(::operator new (size, std::align_val_t{r.align}));
    std::memset(base_, 0, size);
  } else {
    // Anonymous memory: zero pages stay unmapped until the rank touches them. A base aligned
    // beyond a page needs room to slide.
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    mapped_size_ = size + (r.align > page ? r.align : 0);
    void* m = mmap(nullptr, mapped_size_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      std::fprintf(stderr,
                   "mpisim: no memory for a rank's copy of the program's globals (%zu bytes): "
                   "%s; simulate fewer ranks per host process (-hosts)\n",
                   size, std::strerror(errno));
      std::exit(2);
    }
    mapped_ = static_cast<char*>(m);
    const auto at = reinterpret_cast<std::uintptr_t>(mapped_);
    base_ = mapped_ + ((at + r.align - 1) / r.align * r.align - at);
  }
  task_base = base_;
  switch_segment(base_);
  for (const Copy& c : r.copies)
    if (c.image) std::memcpy(base_ + c.offset, c.var->image, c.var->size);
}

void PrivateSegment::initialize() {
  if (!base_) return;
  for (const Copy& c : registry().copies)
    if (c.var->init) c.var->init(base_ + c.offset);
}

namespace {

bool thread_local_copy(const Copy& c) {
  return c.var->flags & MPISIM_PRIV_THREAD_LOCAL;
}

/// Runs with `thread_base` as the calling thread's copies of the thread-locals.
class ThreadBaseScope {
public:
  explicit ThreadBaseScope(char* thread_base) : saved_(mpisim_priv_thread_base) {
    mpisim_priv_thread_base = thread_base;
  }
  ~ThreadBaseScope() { mpisim_priv_thread_base = saved_; }
  ThreadBaseScope(const ThreadBaseScope&) = delete;
  ThreadBaseScope& operator=(const ThreadBaseScope&) = delete;

private:
  char* saved_;
};

} // namespace

void PrivateSegment::prepare_team(int threads) {
  const Registry& r = registry();
  if (!base_ || !r.has_thread_locals) return;
  if (!team_) team_ = std::make_unique<std::vector<char*>>();
  const std::size_t bytes = r.size - r.threads_at;
  while (team_->size() + 1 < static_cast<std::size_t>(std::max(threads, 1))) {
    // A new thread's copies start as a new thread's do: the images, then the init functions
    // (run here, on the rank's thread: no other thread touches them yet).
    char* copy = static_cast<char*>(::operator new (bytes, std::align_val_t{r.threads_align}));
    std::memset(copy, 0, bytes);
    char* thread_base = copy - r.threads_at;
    team_->push_back(thread_base);
    for (const Copy& c : r.copies)
      if (thread_local_copy(c) && c.image)
        std::memcpy(thread_base + c.offset, c.var->image, c.var->size);
    ThreadBaseScope scope(thread_base);
    for (const Copy& c : r.copies)
      if (thread_local_copy(c) && c.var->init) c.var->init(thread_base + c.offset);
  }
}

char* PrivateSegment::team_thread_base(int thread) const {
  if (thread == 0 || !team_) return nullptr;
  return static_cast<std::size_t>(thread) <= team_->size() ? (*team_)[thread - 1] : nullptr;
}

void PrivateSegment::copy_in(int threads, std::size_t offset, std::size_t size) const {
  const char* from = MPISIM_PRIV_TBASE + offset;
  for (int t = 1; t < threads; ++t)
    if (char* to = team_thread_base(t)) std::memmove(to + offset, from, size);
}

void PrivateSegment::finish() {
  if (!base_ || finished_) return;
  finished_ = true;
  const Registry& r = registry();
  if (team_)
    for (char* thread_base : *team_) {
      ThreadBaseScope scope(thread_base);
      for (auto it = r.copies.rbegin(); it != r.copies.rend(); ++it)
        if (thread_local_copy(*it) && it->var->fini) it->var->fini(thread_base + it->offset);
    }
  for (auto it = r.copies.rbegin(); it != r.copies.rend(); ++it)
    if (it->var->fini) it->var->fini(base_ + it->offset);
}

SegmentScope::SegmentScope(char* base) : saved_(mpisim_priv_base) {
  switch_segment(base);
}

SegmentScope::~SegmentScope() {
  switch_segment(saved_);
}

PrivateSegment::~PrivateSegment() {
  if (team_)
    for (char* thread_base : *team_)
      ::operator delete (thread_base + registry().threads_at,
                         std::align_val_t{registry().threads_align});
  if (mapped_)
    munmap(mapped_, mapped_size_);
  else if (base_)
    ::operator delete (base_, std::align_val_t{align_});
}

} // namespace mpilite

bool mpilite::private_segment_has_thread_locals() {
  private_segment_size(); // lays the registry out
  return registry().has_thread_locals;
}

namespace {
bool g_streams_named = false;
bool g_exceptions_caught = false;
} // namespace

bool mpilite::standard_streams_named() {
  return g_streams_named;
}

bool mpilite::exceptions_caught() {
  return g_exceptions_caught;
}

extern "C" int mpisim_priv_uses_streams(void) {
  g_streams_named = true;
  return 0;
}

extern "C" int mpisim_priv_uses_exceptions(void) {
  g_exceptions_caught = true;
  return 0;
}

extern "C" int mpisim_priv_register(mpisim_priv_var* var) {
  mpilite::Registry& r = mpilite::registry();
  if (r.laid_out) {
    std::fprintf(stderr,
                 "mpisim: %s registered a privatized variable after ranks started (a "
                 "library loaded at run time?); link it into the program instead\n",
                 var->where ? var->where : "a unit");
    std::exit(2);
  }
  r.records.push_back(var);
  return 0;
}
