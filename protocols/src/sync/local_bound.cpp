#include "local_bound.hpp"

#include <algorithm>

namespace mpisim::protocols {

LocalK local_k(LocalLps& lps, SimTime lookahead) {
  LocalK k;
  lps.undecided([&](std::int64_t id, SimTime act) {
    const SimTime v = plus(act, lookahead);
    if (v < k.g) {
      k.g2 = k.g;
      k.g = v;
      k.arg = id;
    } else if (v < k.g2) {
      k.g2 = v;
    }
  });
  return k;
}

SimTime local_eit(const LocalK& k, std::int64_t id, SimTime lookahead, SimTime remote) {
  const SimTime others = id == k.arg ? k.g2 : k.g;
  return std::min({others, plus(std::min(k.g, remote), lookahead), remote});
}

} // namespace mpisim::protocols
