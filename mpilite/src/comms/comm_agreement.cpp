#include "comm_agreement.hpp"

#include <algorithm>
#include <bit>

#include "collectives.hpp"
#include "p2p.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

// Tag of the (color, key) exchange on the collective context; far from the tags of the
// collective operations (collectives.cpp) so that neither list needs to know the other.
constexpr int kColorKeyTag = 1000;

} // namespace

ContextWords free_at_all(World& w, Rank& r, const Comm& over, int part) {
  ContextWords free_blocks = r.comms.contexts.part(part);
  for (std::uint64_t& word : free_blocks)
    word = ~word;
  allreduce(w, r, MPI_IN_PLACE, free_blocks.data(), free_blocks.size(),
            *builtin_datatype(MPI_UINT64_T), *builtin_op(MPI_BAND), over);
  return free_blocks;
}

int lowest_context(const ContextWords& free_blocks, int part) {
  for (int i = 0; i < ContextMask::kPartWords; ++i)
    if (const std::uint64_t word = free_blocks[static_cast<std::size_t>(i)])
      return (part * ContextMask::kPartBits + i * 64 + std::countr_zero(word)) * kContextStride;
  return -1;
}

int agree_by_parts(const std::function<int(int part)>& agree_part) {
  for (int part = 0; part < ContextMask::kParts; ++part)
    if (const int context = agree_part(part); context >= 0) return context;
  return -1;
}

int agree_context(World& w, Rank& r, const Comm& over) {
  return agree_by_parts(
      [&](int part) { return lowest_context(free_at_all(w, r, over, part), part); });
}

void take_context(Rank& r, int context) {
  r.comms.contexts.set(context / kContextStride);
}
void release_context(Rank& r, int context) {
  r.comms.contexts.clear(context / kContextStride);
}
bool holds_context(const Rank& r, int context) {
  return r.comms.contexts.test(context / kContextStride);
}

namespace {

/// Bruck's rounds of the (color, key) allgather: in round k this rank sends the entries from
/// `out(k)` and receives as many into `in(k)`, as `type`, of which an entry is `per_entry`.
template <class Out, class In>
void bruck_rounds(World& w, Rank& r, const Comm& c, const Datatype& type, std::size_t per_entry,
                  Out out, In in) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  for (int k = 1; k < p; k <<= 1) {
    const std::size_t n = per_entry * static_cast<std::size_t>(std::min(k, p - k));
    send_receive(w, r, out(k), n, type, c.world_of((me - k + p) % p, r.id), kColorKeyTag, in(k), n,
                 type, c.world_of((me + k) % p, r.id), kColorKeyTag, c.coll_context(), c,
                 MPI_STATUS_IGNORE);
  }
}

} // namespace

std::vector<ColorKey> allgather_color_key(World& w, Rank& r, const Comm& c, ColorKey mine) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  std::vector<ColorKey> got(static_cast<std::size_t>(p));
  got[0] = mine; // got[i] is the entry of rank (me + i) % p
  bruck_rounds(
      w, r, c, *builtin_datatype(MPI_INT), 2, [&](int) { return got.data(); },
      [&](int k) { return got.data() + k; });
  std::rotate(got.begin(), got.begin() + (p - me) % p, got.end());
  return got;
}

std::shared_ptr<const RankList> split_group(World& w, Rank& r, const Comm& parent, ColorKey mine) {
  const auto world_of = [&](int i) { return parent.world_of(i, r.id); };
  if (!w.whole_world_here())
    return group_of(color_groups(allgather_color_key(w, r, parent, mine), world_of, mine.color),
                    mine.color);
  // Every member is here: once this rank's rounds are done it has heard from every member, each
  // of which deposited its entry before its first message.
  const std::shared_ptr<SplitBoard::Round> round =
      w.split_board().deposit(parent, parent.size, parent.rank_of(r.id), mine);
  bruck_rounds(
      w, r, parent, size_only_bytes(), sizeof(ColorKey), [](int) { return nullptr; },
      [](int) { return nullptr; });
  if (!round->grouped) {
    round->groups = color_groups(round->entries, world_of);
    round->grouped = true;
  }
  return group_of(round->groups, mine.color);
}

} // namespace mpilite
