#include "split_board.hpp"

namespace mpilite {

std::shared_ptr<SplitBoard::Round> SplitBoard::deposit(const Comm& parent, int size, int rank,
                                                       ColorKey mine) {
  std::shared_ptr<Round>& slot = filling_[&parent];
  if (!slot) slot = std::make_shared<Round>(static_cast<std::size_t>(size));
  std::shared_ptr<Round> round = slot;
  round->entries[static_cast<std::size_t>(rank)] = mine;
  if (++round->deposited == static_cast<std::size_t>(size)) filling_.erase(&parent);
  return round;
}

} // namespace mpilite
