#include "time_limit.hpp"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "rank.hpp"
#include "world.hpp"

namespace mpilite {

std::string time_limit_text() {
  constexpr SimTime kSecondsPerDay = 86'400;
  return fmt::format("the limit of {} s ({} days)", kTimeLimit / kPicosPerSecond,
                     kTimeLimit / kPicosPerSecond / kSecondsPerDay);
}

void fail_time_limit(const Rank& r, std::string what) {
  std::string message =
      fmt::format("rank {}: {}: simulated time would pass {} (the rank is at {:.6f} s)", r.id, what,
                  time_limit_text(), time_to_seconds(r.clock));
  // stop() leaves the rank's fiber for good: nothing of its frame is destroyed.
  std::string().swap(what);
  World* w = World::try_get();
  if (w && w->in_rank()) w->stop(RunEnd::Limit, 1, std::move(message));
  std::fflush(stdout);
  std::fprintf(stderr, "mpisim: %s\n", message.c_str());
  std::exit(1);
}

} // namespace mpilite
