#include "comm_table.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace mpilite {

std::string Comm::label() const {
  return name.empty() ? fmt::format("communicator {:#x}", static_cast<unsigned>(handle)) : name;
}

CommTable::CommTable(int world_size, int local_ranks) {
  world_.handle = MPI_COMM_WORLD;
  world_.context = 0;
  world_.size = world_size;
  world_.local_members = local_ranks;
  world_.group = RankList::identity(world_size);
  world_.name = "MPI_COMM_WORLD";
  self_.handle = MPI_COMM_SELF;
  self_.context = kContextStride;
  self_.size = 1;
  self_.local_members = 1; // as each member sees it: the object is shared, its group is not
  self_.self = true;
  self_.name = "MPI_COMM_SELF";
}

Comm* CommTable::join_open(int context, const std::function<bool(const RankList&)>& same) {
  auto [first, last] = open_.equal_range(context);
  for (auto it = first; it != last; ++it) {
    Comm& c = *it->second;
    if (!same(*c.group)) continue;
    ++c.holders;
    if (++c.joined == c.local_members) open_.erase(it);
    return &c;
  }
  return nullptr;
}

Comm& CommTable::join(int context, std::shared_ptr<const RankList> group,
                      const CountLocal& count_local) {
  if (Comm* c = join_open(context, [&](const RankList& g) { return g.same_order(*group); }))
    return *c;
  const int local = count_local(*group);
  return make(context, std::move(group), local);
}

Comm& CommTable::join(int context, std::vector<int> members, const CountLocal& count_local) {
  auto same = [&members](const RankList& g) {
    if (g.size() != static_cast<int>(members.size())) return false;
    for (int i = 0; i < g.size(); ++i)
      if (g.world(i) != members[static_cast<std::size_t>(i)]) return false;
    return true;
  };
  if (Comm* c = join_open(context, same)) return *c;
  auto group = RankList::of(std::move(members));
  const int local = count_local(*group);
  return make(context, std::move(group), local);
}

Comm& CommTable::make(int context, std::shared_ptr<const RankList> group, int local_members) {
  std::uint32_t i;
  if (!free_slots_.empty()) {
    i = free_slots_.back();
    free_slots_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(slots_.size());
    if (i > kIndexMask) throw std::runtime_error("more than 16 million communicators");
    slots_.emplace_back();
  }
  auto c = std::make_unique<Comm>();
  c->handle = kUserBase | static_cast<int>(i);
  c->context = context;
  c->size = group->size();
  c->group = std::move(group);
  c->local_members = local_members;
  c->joined = 1;
  c->holders = 1;
  if (local_members > 1) open_.emplace(context, c.get());
  slots_[i] = std::move(c);
  return *slots_[i];
}

void CommTable::leave(Comm& c, const std::function<bool(const Comm&)>& pending) {
  std::erase_if(retired_, [&](const std::unique_ptr<Comm>& r) { return !pending(*r); });
  if (--c.holders > 0 || c.joined < c.local_members) return;
  const std::uint32_t i = static_cast<std::uint32_t>(c.handle) & kIndexMask;
  std::unique_ptr<Comm> gone = std::move(slots_[i]);
  free_slots_.push_back(i);
  if (pending(*gone)) retired_.push_back(std::move(gone));
}

} // namespace mpilite
