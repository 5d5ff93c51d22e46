#include "privatization.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "mpisim_privatize.h"

char* mpisim_priv_base = nullptr;

namespace mpilite {
namespace {

// Segments are cache-line aligned so that one rank's variables never share a line with
// another's (ranks of one host do not run at once, but their segments are written in turn).
constexpr std::size_t kSegmentAlign = 64;

/// A place in the segment: a unit's group, or a variable of its own that several records
/// may share (same name).
struct Slot {
  std::size_t offset = 0;
  std::size_t size = 0;
  std::size_t align = 1;
  const mpisim_priv_var* defining = nullptr; ///< its image and init (none for a group)
  mpisim_priv_group* group = nullptr;
};

struct Registry {
  std::vector<mpisim_priv_var*> records; ///< in registration order
  bool laid_out = false;
  std::vector<Slot> slots;
  /// Per record: where its image goes and which record supplies it (itself, or the record
  /// of a merged slot that has the initializer), in registration order.
  std::vector<std::pair<std::size_t, const mpisim_priv_var*>> copies;
  std::size_t size = 0;
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
  std::size_t at = 0;
  for (Slot& s : r.slots) {
    at = (at + s.align - 1) / s.align * s.align;
    s.offset = at;
    at += s.size;
    if (s.group) s.group->offset = s.offset;
  }
  r.size = (at + kSegmentAlign - 1) / kSegmentAlign * kSegmentAlign;
  std::map<std::string, std::size_t> group_member_at;
  for (std::size_t i = 0; i < r.records.size(); ++i)
    if (r.records[i]->group) {
      const mpisim_priv_var& v = *r.records[i];
      const std::size_t off = r.slots[slot_of[i]].offset + v.group_at;
      *v.offset = off;
      if (v.name) group_member_at[v.name] = off;
      r.copies.emplace_back(off, &v);
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
    if (slot.defining == &v) r.copies.emplace_back(slot.offset, &v);
  }
  for (const auto& [offset, v] : r.copies)
    if (v->cell) g_cells.push_back(Cell{v->cell, offset});
  r.laid_out = true;
}

} // namespace

void switch_segment(char* base) {
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
  base_ = static_cast<char*>(::operator new (size, std::align_val_t{kSegmentAlign}));
  std::memset(base_, 0, size);
  task_base = base_;
  switch_segment(base_);
  const Registry& r = registry();
  for (const auto& [offset, v] : r.copies)
    if (v->image) std::memcpy(base_ + offset, v->image, v->size);
  for (const auto& [offset, v] : r.copies)
    if (v->init) v->init(base_ + offset);
}

void PrivateSegment::finish() {
  if (!base_ || finished_) return;
  finished_ = true;
  const Registry& r = registry();
  for (auto it = r.copies.rbegin(); it != r.copies.rend(); ++it)
    if (it->second->fini) it->second->fini(base_ + it->first);
}

SegmentScope::SegmentScope(char* base) : saved_(mpisim_priv_base) {
  switch_segment(base);
}

SegmentScope::~SegmentScope() {
  switch_segment(saved_);
}

PrivateSegment::~PrivateSegment() {
  ::operator delete (base_, std::align_val_t{kSegmentAlign});
}

} // namespace mpilite

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
