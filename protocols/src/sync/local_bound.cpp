#include "local_bound.hpp"

#include <algorithm>

namespace mpisim::protocols {

LocalK local_k(LocalLps& lps, SimTime lookahead) {
  LocalK k;
  lps.undecided([&](std::int64_t id, SimTime act) { k.add(id, plus(act, lookahead)); });
  return k;
}

SimTime local_eit(const LocalK& k, std::int64_t id, SimTime lookahead, SimTime remote) {
  const SimTime others = id == k.arg ? k.g2 : k.g;
  return std::min({others, plus(std::min(k.g, remote), lookahead), remote});
}

} // namespace mpisim::protocols
