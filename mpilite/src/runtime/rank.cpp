#include "rank.hpp"

namespace mpilite {

const RankRare& Rank::rare_or_default() const {
  // Out of line: a function-local static in the header would make every file that includes it
  // refer to __dso_handle, which exit_interpose.cpp declares with C linkage.
  static const RankRare defaults;
  return rare_state ? *rare_state : defaults;
}

} // namespace mpilite
