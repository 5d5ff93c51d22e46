// bench_fiber_switch: cost of one LP-to-LP fiber switch in mpilite's scheduler, the path every
// blocking MPI call of a rank takes when another rank of the host can run. With "streams" the
// switch also carries the C++ standard streams' format, as in a program that names std::cout.
// usage: bench_fiber_switch [switches] [streams]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <cstring>

#include "mpisim_privatize.h"
#include "scheduler.hpp"

namespace {

struct PingPong {
  mpilite::Scheduler* sched = nullptr;
  mpilite::Task* other = nullptr;
  long rounds = 0;
};

void ping_pong(void* arg) {
  auto* p = static_cast<PingPong*>(arg);
  for (long i = 0; i < p->rounds; ++i) {
    p->sched->wake(*p->other);
    p->sched->block();
  }
  // The partner is blocked waiting for us; without this wake it would never finish and run()
  // would end Stuck instead of Finished.
  p->sched->wake(*p->other);
}

} // namespace

int main(int argc, char** argv) {
  const long switches = argc > 1 ? std::atol(argv[1]) : 10'000'000;
  if (argc > 2 && std::strcmp(argv[2], "streams") == 0) mpisim_priv_uses_streams();
  mpilite::Scheduler sched(2, 64 * 1024);
  mpilite::Task a, b;
  PingPong pa{&sched, &b, switches / 2};
  PingPong pb{&sched, &a, switches / 2};
  sched.spawn(a, 0, &ping_pong, &pa);
  sched.spawn(b, 1, &ping_pong, &pb);

  const auto start = std::chrono::steady_clock::now();
  const mpilite::RunEnd outcome = sched.run([] { return false; });
  const auto end = std::chrono::steady_clock::now();
  if (outcome != mpilite::RunEnd::Finished) {
    std::fprintf(stderr, "bench_fiber_switch: scheduler did not finish\n");
    return 1;
  }

  // The scheduler's own count includes the switches into and out of the root context, so the
  // figure is per real switch, not per loop iteration.
  const double ns = std::chrono::duration<double, std::nano>(end - start).count();
  const auto count = sched.context_switches();
  std::printf("bench_fiber_switch: %.2f ns/switch (%zu switches, %.3f s)\n",
              ns / static_cast<double>(count), count, ns * 1e-9);
  return 0;
}
