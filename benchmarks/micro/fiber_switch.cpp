// bench_fiber_switch: cost of one LP-to-LP fiber switch in mpilite's scheduler, the path every
// blocking MPI call of a rank takes when another rank of the host can run, against the floor:
// a bare Boost.Context jump_fcontext ping-pong between two contexts, measured in the same
// process. With "streams" the switch also carries the C++ standard streams' format, as in a
// program that names std::cout; with "copy" the stacks are copied out (MPISIM_STACK_COPY=on), and
// the token goes round 4 096 fibers instead of two, so that every stack switched out is parked
// (in batches) before its fiber runs again, as in a ring of many ranks; with "shared" the 4 096
// fibers share 1 024 stacks (MPISIM_STACK_COPY=shared), so that every switch copies a fiber out
// of its stack and the next one in.
// usage: bench_fiber_switch [switches] [streams|copy|shared]
#include <boost/context/detail/fcontext.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "mpisim_privatize.h"
#include "scheduler.hpp"

namespace {

namespace bctx = boost::context::detail;

struct PingPong {
  mpilite::Scheduler* sched = nullptr;
  mpilite::Task* other = nullptr;
  long rounds = 0;
};

void ping_pong(void* arg) {
  auto* p = static_cast<PingPong*>(arg);
  // What a rank blocked in MPI_Recv keeps on its stack: about a kilobyte of frames.
  volatile char frames[1024];
  frames[0] = 1;
  for (long i = 0; i < p->rounds; ++i) {
    p->sched->wake(*p->other);
    p->sched->block();
  }
  // The partner is blocked waiting for us; without this wake it would never finish and run()
  // would end Stuck instead of Finished.
  p->sched->wake(*p->other);
  (void)frames[0];
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// ns per switch of the scheduler passing a token round `fibers` fibers.
double scheduler_switch(long switches, const mpilite::StackPoolOptions& stacks,
                        std::size_t fibers) {
  mpilite::Scheduler sched(fibers, 64 * 1024, stacks);
  std::vector<mpilite::Task> tasks(fibers);
  std::vector<PingPong> ring(fibers);
  for (std::size_t i = 0; i < fibers; ++i) {
    ring[i] = {&sched, &tasks[(i + 1) % fibers], switches / static_cast<long>(fibers)};
    sched.spawn(tasks[i], i, &ping_pong, &ring[i]);
  }
  const auto start = std::chrono::steady_clock::now();
  const mpilite::RunEnd outcome = sched.run([] { return false; });
  const double s = seconds_since(start);
  if (outcome != mpilite::RunEnd::Finished) {
    std::fprintf(stderr, "bench_fiber_switch: scheduler did not finish\n");
    std::exit(1);
  }
  // The scheduler's own count includes the switches into and out of the root context, so the
  // figure is per real switch, not per loop iteration.
  const auto count = sched.context_switches();
  std::printf("bench_fiber_switch: %.2f ns/switch (%zu switches, %.3f s)\n",
              s * 1e9 / static_cast<double>(count), count, s);
  return s * 1e9 / static_cast<double>(count);
}

// The bare ping-pong: the context started here jumps straight back to whoever jumped to it,
// `rounds` times; each round trip is two jumps.
void bounce(bctx::transfer_t t) {
  const long rounds = *static_cast<const long*>(t.data);
  for (long i = 0; i < rounds; ++i)
    t = bctx::jump_fcontext(t.fctx, nullptr);
  bctx::jump_fcontext(t.fctx, nullptr); // never resumed
}

/// ns per jump of two bare contexts jumping to each other.
double bare_jump(long jumps) {
  constexpr std::size_t kStack = 64 * 1024;
  const auto stack = std::make_unique<std::byte[]>(kStack);
  long rounds = jumps / 2;
  bctx::fcontext_t other = bctx::make_fcontext(stack.get() + kStack, kStack, &bounce);
  bctx::transfer_t t = bctx::jump_fcontext(other, &rounds); // the first round trip starts it
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < rounds; ++i)
    t = bctx::jump_fcontext(t.fctx, nullptr);
  const double s = seconds_since(start);
  const long count = 2 * rounds;
  std::printf("bench_fiber_switch: bare jump_fcontext %.2f ns/jump (%ld jumps, %.3f s)\n",
              s * 1e9 / static_cast<double>(count), count, s);
  return s * 1e9 / static_cast<double>(count);
}

} // namespace

int main(int argc, char** argv) {
  const long switches = argc > 1 ? std::atol(argv[1]) : 10'000'000;
  const char* variant = argc > 2 ? argv[2] : "";
  if (std::strcmp(variant, "streams") == 0) mpisim_priv_uses_streams();
  const double jump = bare_jump(switches);
  const bool copy = std::strcmp(variant, "copy") == 0;
  const bool shared = std::strcmp(variant, "shared") == 0;
  const double sw = scheduler_switch(
      switches, {.copy_stacks = copy || shared, .shared_slots = shared ? 1024u : 0u},
      copy || shared ? 4096 : 2);
  std::printf("bench_fiber_switch: ratio %.2f (scheduler switch / bare jump)\n", sw / jump);
  return 0;
}
