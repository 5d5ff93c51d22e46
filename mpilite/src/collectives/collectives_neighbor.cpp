// The neighbourhood collectives (MPI_Neighbor_* and MPI_Ineighbor_*): one exchange engine for
// all five, over the blocks the API layer lays out per slot.
#include <utility>

#include "collectives.hpp"

namespace mpilite {

// Blocks usually share one type, copied once.
void keep_types(Schedule& s, std::vector<NeighborBlock>& blocks) {
  std::vector<std::pair<const Datatype*, const Datatype*>> kept;
  for (NeighborBlock& b : blocks) {
    const Datatype* copy = nullptr;
    for (const auto& [from, to] : kept)
      if (from == b.type) copy = to;
    if (!copy) {
      copy = &s.keep(*b.type);
      kept.emplace_back(b.type, copy);
    }
    b.type = copy;
  }
}

CollTask build_neighbor_exchange(Schedule& s, std::vector<NeighborBlock> sends,
                                 std::vector<NeighborBlock> recvs) {
  keep_types(s, sends);
  keep_types(s, recvs);
  for (const NeighborBlock& b : sends)
    if (b.peer != MPI_PROC_NULL) s.post_send(b.buf, b.count, *b.type, b.peer);
  for (const NeighborBlock& b : recvs)
    if (b.peer != MPI_PROC_NULL) s.post_recv(b.buf, b.count, *b.type, b.peer);
  co_await s.wait();
}

} // namespace mpilite
