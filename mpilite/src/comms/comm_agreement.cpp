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
  std::erase_if(r.comms.held_after_free, [&r](int context) {
    if (posted_on(r, context)) return false;
    release_context(r, context);
    return true;
  });
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

bool posted_on(const Rank& r, int context) {
  for (const Request* q : r.posted)
    if (q->context / kContextStride == context / kContextStride) return true;
  return false;
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

/// Bruck's rounds of the (color, key) allgather over `c`: in round k = 1, 2, 4, ... this rank
/// sends the n = min(k, p - k) entries it has to the member k below it and receives as many from
/// the member k above it, `exchange(k, n, to, from)` (world ranks).
template <class Exchange> void bruck_rounds(const Rank& r, const Comm& c, Exchange exchange) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  for (int k = 1; k < p; k <<= 1)
    exchange(k, std::min(k, p - k), c.world_of((me - k + p) % p, r.id),
             c.world_of((me + k) % p, r.id));
}

/// One round's exchange of `n` entries: from `out` to world rank `to`, into `in` from `from`. A
/// null side is between ranks of this host process and carries nothing (size_only_bytes).
void exchange_entries(World& w, Rank& r, const Comm& c, int to, const ColorKey* out, int from,
                      ColorKey* in, int n) {
  const Datatype& bytes = *builtin_datatype(MPI_BYTE);
  const std::size_t size = static_cast<std::size_t>(n) * sizeof(ColorKey);
  send_receive(w, r, out, size, out ? bytes : size_only_bytes(), to, kColorKeyTag, in, size,
               in ? bytes : size_only_bytes(), from, kColorKeyTag, c.coll_context(), c,
               MPI_STATUS_IGNORE);
}

} // namespace

std::vector<ColorKey> allgather_color_key(World& w, Rank& r, const Comm& c, ColorKey mine) {
  const int p = c.size;
  const int me = c.rank_of(r.id);
  std::vector<ColorKey> got(static_cast<std::size_t>(p));
  got[0] = mine; // got[i] is the entry of rank (me + i) % p
  bruck_rounds(r, c, [&](int k, int n, int to, int from) {
    exchange_entries(w, r, c, to, got.data(), from, got.data() + k, n);
  });
  std::rotate(got.begin(), got.begin() + (p - me) % p, got.end());
  return got;
}

std::shared_ptr<const RankList> split_group(World& w, Rank& r, const Comm& parent, ColorKey mine) {
  const int me = parent.rank_of(r.id);
  const std::shared_ptr<SplitBoard::Round> round =
      w.split_board().deposit(parent, parent.size, parent.local_members, me, mine);
  // Before its round k this rank has the entries of members me .. me + k - 1 (mod p): deposited
  // by a member of this host process before its first message, or received from another host
  // process by a member here before the message that told this rank. So only messages between
  // host processes carry entries: from the run at `me` of the doubled table, into the run at
  // me + k, whose copies at the other place are set after.
  ColorKey* table = round->entries.data();
  bruck_rounds(r, parent, [&](int k, int n, int to, int from) {
    const bool to_here = w.local(to) != nullptr, from_here = w.local(from) != nullptr;
    exchange_entries(w, r, parent, to, to_here ? nullptr : table + me, from,
                     from_here ? nullptr : table + me + k, n);
    if (!from_here)
      for (int i = me + k; i < me + k + n; ++i)
        round->know(static_cast<std::size_t>(i), table[i]);
  });
  // Once one member's rounds are done, the table has every entry.
  if (!round->grouped) {
    round->groups = color_groups(std::span(round->entries).first(round->size()),
                                 [&](int i) { return parent.world_of(i, r.id); });
    round->grouped = true;
  }
  return group_of(round->groups, mine.color);
}

} // namespace mpilite
