#include "split_board.hpp"

#include <stdexcept>

namespace mpilite {

std::shared_ptr<SplitBoard::Round> SplitBoard::deposit(const Comm& parent, int size, int local,
                                                       int rank, ColorKey mine) {
  // A count that no deposit reaches would put the next split's members in this round.
  if (local < 1 || local > size)
    throw std::logic_error("MPI_Comm_split: the parent's count of local members is wrong");
  std::shared_ptr<Round>& slot = filling_[&parent];
  if (!slot) slot = std::make_shared<Round>(static_cast<std::size_t>(size));
  std::shared_ptr<Round> round = slot;
  round->know(static_cast<std::size_t>(rank), mine);
  if (++round->deposited == static_cast<std::size_t>(local)) filling_.erase(&parent);
  return round;
}

} // namespace mpilite
