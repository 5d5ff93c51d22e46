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

/// One slot of the segment; several records share it when they name the same variable.
struct Slot {
  std::size_t offset = 0;
  std::size_t size = 0;
  std::size_t align = 1;
  const mpisim_priv_var* defining = nullptr; ///< the record whose image and init are used
};

struct Registry {
  std::vector<mpisim_priv_var*> records; ///< in registration order
  bool laid_out = false;
  std::vector<Slot> slots;
  std::vector<std::size_t> slot_of; ///< per record
  std::size_t size = 0;
};

Registry& registry() {
  static Registry r; // constructed by the first registration, which runs before main
  return r;
}

[[noreturn]] void conflict(const mpisim_priv_var& a, const mpisim_priv_var& b) {
  std::fprintf(stderr,
               "mpisim: the program defines the variable %s twice (%s and %s); keep one "
               "definition and declare it extern elsewhere\n",
               a.name, a.where ? a.where : "?", b.where ? b.where : "?");
  std::exit(2);
}

void lay_out(Registry& r) {
  std::map<std::string, std::size_t> by_name;
  r.slot_of.resize(r.records.size());
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    const mpisim_priv_var& v = *r.records[i];
    std::size_t s = r.slots.size();
    if (v.name) {
      const auto [it, fresh] = by_name.emplace(v.name, s);
      if (!fresh) {
        s = it->second;
        Slot& slot = r.slots[s];
        const bool both_fixed =
            !(v.flags & MPISIM_PRIV_MERGEABLE) && !(slot.defining->flags & MPISIM_PRIV_MERGEABLE);
        if (both_fixed) conflict(*slot.defining, v);
        slot.size = std::max(slot.size, v.size);
        slot.align = std::max(slot.align, v.align);
        // A tentative definition gives way to one with an initializer.
        if ((slot.defining->flags & MPISIM_PRIV_MERGEABLE) && !(v.flags & MPISIM_PRIV_MERGEABLE))
          slot.defining = &v;
        r.slot_of[i] = s;
        continue;
      }
    }
    r.slots.push_back(Slot{0, v.size, v.align ? v.align : 1, &v});
    r.slot_of[i] = s;
  }
  std::size_t at = 0;
  for (Slot& s : r.slots) {
    at = (at + s.align - 1) / s.align * s.align;
    s.offset = at;
    at += s.size;
  }
  r.size = (at + kSegmentAlign - 1) / kSegmentAlign * kSegmentAlign;
  for (std::size_t i = 0; i < r.records.size(); ++i)
    *r.records[i]->offset = r.slots[r.slot_of[i]].offset;
  r.laid_out = true;
}

} // namespace

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
  mpisim_priv_base = base_;
  const Registry& r = registry();
  for (const Slot& s : r.slots)
    if (s.defining->image) std::memcpy(base_ + s.offset, s.defining->image, s.defining->size);
  for (const Slot& s : r.slots)
    if (s.defining->init) s.defining->init(base_ + s.offset);
}

void PrivateSegment::finish() {
  if (!base_ || finished_) return;
  finished_ = true;
  const Registry& r = registry();
  for (auto it = r.slots.rbegin(); it != r.slots.rend(); ++it)
    if (it->defining->fini) it->defining->fini(base_ + it->offset);
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
