// What the members of a new communicator agree on, by messages: its context id, and for
// MPI_Comm_split every member's (color, key). The simulated cost of making a communicator is the
// cost of these messages, as in MPICH.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "comm.hpp"
#include "rank.hpp"
#include "split_board.hpp"

namespace mpilite {

class World;

using ContextWords = ContextMask::Part;

/// The context-id blocks of part `part` of the mask free at every member of `over` (see
/// agree_context).
ContextWords free_at_all(World& w, Rank& r, const Comm& over, int part);
/// The first context id of the lowest block set in `free_blocks` (part `part` of the mask), or
/// -1 if none is.
int lowest_context(const ContextWords& free_blocks, int part);

/// The lowest context-id block free at every member of `over`, found with an Allreduce
/// (MPI_BAND over the members' masks of free blocks, 64 bytes) on over's collective context,
/// one part of the mask after the other until a block is free: every member sees the same
/// result, so all of them take the same number of steps. Returns the block's first context id,
/// or -1 if no block is free at every member. The caller takes it (take_context) if it becomes
/// a member of the new communicator.
int agree_context(World& w, Rank& r, const Comm& over);
/// The same over the parts, for `agree_part`, which agrees on one part of the mask.
int agree_by_parts(const std::function<int(int part)>& agree_part);

/// Marks the block of `context` used / free at rank `r`.
void take_context(Rank& r, int context);
void release_context(Rank& r, int context);
/// Whether a receive of `r` is posted on any of the contexts of the communicator whose
/// point-to-point context is `context`.
bool posted_on(const Rank& r, int context);
/// Whether rank `r` uses the block of `context` (it holds a communicator with that context).
bool holds_context(const Rank& r, int context);

/// Every member's (color, key), in rank order of `c`, gathered with Bruck's allgather:
/// ceil(log2 p) rounds; in round k a rank sends the min(2^k, p - 2^k) entries it has to the
/// rank 2^k below it. MPICH uses this algorithm for short allgathers of non-power-of-two sizes.
std::vector<ColorKey> allgather_color_key(World& w, Rank& r, const Comm& c, ColorKey mine);
/// The group of the caller's color in MPI_Comm_split of `parent` (color_groups), or null for
/// MPI_UNDEFINED, after the (color, key) allgather. `parent` is a communicator object its local
/// members share (CommTable): the messages are Bruck's, but the entries come from one table for
/// the members in this host process (SplitBoard), which only messages from other host processes
/// carry entries into, and the members of a color here share one group made from it once.
std::shared_ptr<const RankList> split_group(World& w, Rank& r, const Comm& parent, ColorKey mine);

} // namespace mpilite
