// OpenMP inside a rank (GCC's libgomp): a parallel region is charged as the target runs it, each
// thread of the team on a core of its own, not as the master's clock saw it. Each thread's CPU
// time in the region's body is measured between the team's barriers, less what it spent waiting
// (a spinning thread is not working): with a core per thread the region lasts, phase after
// phase, as long as the busiest thread. The kernel turns that and the team's work into the
// region's time.
//
// The program calls these entry points of libgomp (GCC compiles `#pragma omp` into them); each
// forwards to libgomp's own, found with dlsym. What the charging cannot follow is refused by
// name: tasks (their work runs inside other threads' waits), active nested parallelism, and MPI
// calls while a team of several threads runs (api_call.cpp).
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

#include "host_clock.hpp"
#include "mpisim_privatize.h"
#include "privatization.hpp"
#include "world.hpp"

namespace {

using mpilite::Rank;
using mpilite::World;
using Body = void (*)(void*);

/// libgomp's own definition of `name`.
template <class F> F* libgomp(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr,
                 "mpisim: %s not found in the OpenMP runtime (libgomp): %s; link the program "
                 "with -fopenmp\n",
                 name, dlerror());
    std::_Exit(1);
  }
  return reinterpret_cast<F*>(f);
}

[[noreturn]] void refuse(const char* what) {
  std::fprintf(stderr,
               "mpisim: %s inside a simulated rank is not supported: the time of its work could "
               "not be charged to the rank. Run it outside parallel regions, or with "
               "OMP_NUM_THREADS=1 and the construct removed (docs/model.md, OpenMP)\n",
               what);
  std::_Exit(1);
}

std::int64_t thread_cpu_ns() {
  return mpilite::host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/// One region under way: its body, and what its threads did between its barriers.
struct Region {
  Region(Body f, void* d, Rank* r) : fn(f), data(d), rank(r) {}

  Body fn;
  void* data;
  Rank* rank;
  std::mutex m;
  int threads = 0;
  std::int64_t total_ns = 0;
  /// Per phase (the work between two barriers of the team): its busiest thread's work. A
  /// barrier makes every thread wait for the slowest, so the region lasts their sum.
  std::vector<std::int64_t> phase_most_ns;
};

/// The region whose body this thread runs (nullptr: none), the phase it is in, when that phase
/// began on its CPU clock and how long it has waited in it since.
thread_local Region* t_region = nullptr;
thread_local std::size_t t_phase = 0;
thread_local std::int64_t t_phase_start = 0;
thread_local std::int64_t t_waited_ns = 0;

/// Ends this thread's current phase of the region at `now` (its CPU clock).
void end_phase(std::int64_t now) {
  Region& r = *t_region;
  const std::int64_t work = std::max<std::int64_t>(0, now - t_phase_start - t_waited_ns);
  std::lock_guard lock(r.m);
  if (r.phase_most_ns.size() <= t_phase) r.phase_most_ns.resize(t_phase + 1);
  r.phase_most_ns[t_phase] = std::max(r.phase_most_ns[t_phase], work);
  r.total_ns += work;
  ++t_phase;
}

/// Leaves the time until its end out of the thread's work (a lock, an ordered turn).
class Waiting {
public:
  Waiting() : start_(t_region ? thread_cpu_ns() : 0) {}
  ~Waiting() {
    if (t_region) t_waited_ns += thread_cpu_ns() - start_;
  }

private:
  std::int64_t start_;
};

/// A barrier of the team: ends the thread's phase, and the next begins when it leaves.
class Barrier {
public:
  Barrier() {
    if (t_region) end_phase(thread_cpu_ns());
  }
  ~Barrier() {
    if (!t_region) return;
    t_phase_start = thread_cpu_ns();
    t_waited_ns = 0;
  }
};

int team_size() {
  static const auto num_threads = libgomp<int()>("omp_get_num_threads");
  return num_threads();
}
int thread_num() {
  static const auto num = libgomp<int()>("omp_get_thread_num");
  return num();
}

/// The thread-locals named by copyin clauses of the region the calling thread starts next
/// (offset in the segment, size): mpisim_priv_copyin.
thread_local std::vector<std::pair<std::size_t, std::size_t>> t_copyin;

/// Every thread of the team runs the region's body through this.
void run_share(void* p) {
  Region& r = *static_cast<Region*>(p);
  const int me = thread_num();
  // MPI calls from the master are refused while other threads run (they may still be working).
  if (me == 0) r.rank->region_threads = team_size();
  // The rank's own thread has its thread-locals in the segment; the others, copies of their own.
  mpisim_priv_thread_base = r.rank->globals.team_thread_base(me);
  if (me != 0 && !mpisim_priv_thread_base && mpilite::private_segment_has_thread_locals()) {
    std::fprintf(stderr,
                 "mpisim: thread %d of a team of %d has no copy of the rank's thread-local "
                 "variables (a team larger than the one the region asked for); report this "
                 "with the program\n",
                 me, team_size());
    std::_Exit(1);
  }
  t_region = &r;
  t_phase = 0;
  t_waited_ns = 0;
  t_phase_start = thread_cpu_ns();
  r.fn(r.data);
  end_phase(thread_cpu_ns());
  t_region = nullptr;
  mpisim_priv_thread_base = nullptr;
  std::lock_guard lock(r.m);
  ++r.threads;
}

/// The team size a region that asked for `threads` (0: the default) gets at most.
int team_asked(unsigned threads, const Rank& rank) {
  if (threads != 0) return static_cast<int>(threads);
  if (rank.omp_threads > 0) return rank.omp_threads;
  static const auto max_threads = libgomp<int()>("omp_get_max_threads");
  return max_threads();
}

/// Runs a region whose body is `fn` through `start` (libgomp's entry point with the program's
/// other arguments), charging it to the rank that runs it.
template <class Start> void run_region(Body fn, void* data, unsigned threads, Start start) {
  if (t_region) {
    // A nested region: part of the enclosing thread's work, unless it makes a team of its own.
    static const auto active = libgomp<int()>("omp_get_active_level");
    static const auto max_active = libgomp<int()>("omp_get_max_active_levels");
    if (threads != 1 && active() < max_active())
      refuse("a nested OpenMP parallel region with nesting active (OMP_MAX_ACTIVE_LEVELS or "
             "OMP_NESTED)");
    t_copyin.clear(); // a team of one: the thread's own values already
    start(fn, data, threads);
    return;
  }
  World* w = World::try_get();
  if (!w || !w->in_rank_on_this_thread()) { // before main, or the simulator's own threads
    start(fn, data, threads);
    return;
  }
  Rank& rank = w->self();
  const int team = team_asked(threads, rank);
  rank.globals.prepare_team(team);
  for (const auto& [offset, size] : t_copyin)
    rank.globals.copy_in(team, offset, size);
  t_copyin.clear();
  if (threads == 0) threads = static_cast<unsigned>(rank.omp_threads);
  Region region(fn, data, &rank);
  w->kernel().hooks.region_begins(rank);
  start(run_share, &region, threads);
  rank.region_threads = 0;
  std::int64_t longest = 0;
  for (std::int64_t most : region.phase_most_ns)
    longest += most;
  w->kernel().hooks.region_ends(rank, {region.threads, longest, region.total_ns});
}

/// The combined constructs (`parallel for` with a schedule, `parallel sections`) differ from
/// GOMP_parallel only in the arguments after the team size.
template <const char* kName, class... Rest>
void parallel(Body fn, void* data, unsigned threads, Rest... rest) {
  static const auto real = libgomp<void(Body, void*, unsigned, Rest...)>(kName);
  run_region(fn, data, threads, [&](Body f, void* d, unsigned n) { real(f, d, n, rest...); });
}

constexpr char kParallel[] = "GOMP_parallel";
constexpr char kLoopStatic[] = "GOMP_parallel_loop_static";
constexpr char kLoopDynamic[] = "GOMP_parallel_loop_dynamic";
constexpr char kLoopGuided[] = "GOMP_parallel_loop_guided";
constexpr char kLoopRuntime[] = "GOMP_parallel_loop_runtime";
constexpr char kLoopNmDynamic[] = "GOMP_parallel_loop_nonmonotonic_dynamic";
constexpr char kLoopNmGuided[] = "GOMP_parallel_loop_nonmonotonic_guided";
constexpr char kLoopNmRuntime[] = "GOMP_parallel_loop_nonmonotonic_runtime";
constexpr char kLoopMaybeNmRuntime[] = "GOMP_parallel_loop_maybe_nonmonotonic_runtime";
constexpr char kSections[] = "GOMP_parallel_sections";

/// libgomp's function `kName` of no arguments, as a wait of kind `Wait`.
template <const char* kName, class R, class Wait = Waiting> R wait_in() {
  static const auto real = libgomp<R()>(kName);
  Wait w;
  return real();
}

constexpr char kBarrier[] = "GOMP_barrier";
constexpr char kBarrierCancel[] = "GOMP_barrier_cancel";
constexpr char kLoopEnd[] = "GOMP_loop_end";
constexpr char kLoopEndCancel[] = "GOMP_loop_end_cancel";
constexpr char kSectionsEnd[] = "GOMP_sections_end";
constexpr char kSectionsEndCancel[] = "GOMP_sections_end_cancel";
constexpr char kCritical[] = "GOMP_critical_start";
constexpr char kAtomic[] = "GOMP_atomic_start";
constexpr char kOrdered[] = "GOMP_ordered_start";
constexpr char kSingleCopy[] = "GOMP_single_copy_start";
constexpr char kTaskwait[] = "GOMP_taskwait";
constexpr char kTaskgroupEnd[] = "GOMP_taskgroup_end";

} // namespace

extern "C" {

void GOMP_parallel(Body fn, void* data, unsigned threads, unsigned flags) {
  parallel<kParallel>(fn, data, threads, flags);
}
void GOMP_parallel_loop_static(Body fn, void* data, unsigned threads, long start, long end,
                               long incr, long chunk, unsigned flags) {
  parallel<kLoopStatic>(fn, data, threads, start, end, incr, chunk, flags);
}
void GOMP_parallel_loop_dynamic(Body fn, void* data, unsigned threads, long start, long end,
                                long incr, long chunk, unsigned flags) {
  parallel<kLoopDynamic>(fn, data, threads, start, end, incr, chunk, flags);
}
void GOMP_parallel_loop_guided(Body fn, void* data, unsigned threads, long start, long end,
                               long incr, long chunk, unsigned flags) {
  parallel<kLoopGuided>(fn, data, threads, start, end, incr, chunk, flags);
}
void GOMP_parallel_loop_nonmonotonic_dynamic(Body fn, void* data, unsigned threads, long start,
                                             long end, long incr, long chunk, unsigned flags) {
  parallel<kLoopNmDynamic>(fn, data, threads, start, end, incr, chunk, flags);
}
void GOMP_parallel_loop_nonmonotonic_guided(Body fn, void* data, unsigned threads, long start,
                                            long end, long incr, long chunk, unsigned flags) {
  parallel<kLoopNmGuided>(fn, data, threads, start, end, incr, chunk, flags);
}
void GOMP_parallel_loop_runtime(Body fn, void* data, unsigned threads, long start, long end,
                                long incr, unsigned flags) {
  parallel<kLoopRuntime>(fn, data, threads, start, end, incr, flags);
}
void GOMP_parallel_loop_nonmonotonic_runtime(Body fn, void* data, unsigned threads, long start,
                                             long end, long incr, unsigned flags) {
  parallel<kLoopNmRuntime>(fn, data, threads, start, end, incr, flags);
}
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(Body fn, void* data, unsigned threads,
                                                   long start, long end, long incr,
                                                   unsigned flags) {
  parallel<kLoopMaybeNmRuntime>(fn, data, threads, start, end, incr, flags);
}
void GOMP_parallel_sections(Body fn, void* data, unsigned threads, unsigned count, unsigned flags) {
  parallel<kSections>(fn, data, threads, count, flags);
}
unsigned GOMP_parallel_reductions(Body fn, void* data, unsigned threads, unsigned flags) {
  static const auto real =
      libgomp<unsigned(Body, void*, unsigned, unsigned)>("GOMP_parallel_reductions");
  unsigned team = 0;
  run_region(fn, data, threads, [&](Body f, void* d, unsigned n) { team = real(f, d, n, flags); });
  return team;
}

void mpisim_priv_copyin(void* copy, size_t size) {
  const char* base = mpisim_priv_thread_base ? mpisim_priv_thread_base : mpisim_priv_base;
  t_copyin.emplace_back(static_cast<std::size_t>(static_cast<char*>(copy) - base), size);
}

// The old entry points (GCC before 4.9) split a region in two calls; nothing compiles to them now.
void GOMP_parallel_start(Body, void*, unsigned) {
  refuse("an OpenMP region compiled for GCC before 4.9 (GOMP_parallel_start)");
}

void GOMP_barrier() {
  wait_in<kBarrier, void, Barrier>();
}
bool GOMP_barrier_cancel() {
  return wait_in<kBarrierCancel, bool, Barrier>();
}
void GOMP_loop_end() {
  wait_in<kLoopEnd, void, Barrier>();
}
bool GOMP_loop_end_cancel() {
  return wait_in<kLoopEndCancel, bool, Barrier>();
}
void GOMP_sections_end() {
  wait_in<kSectionsEnd, void, Barrier>();
}
bool GOMP_sections_end_cancel() {
  return wait_in<kSectionsEndCancel, bool, Barrier>();
}
void GOMP_critical_start() {
  wait_in<kCritical, void>();
}
void GOMP_atomic_start() {
  wait_in<kAtomic, void>();
}
void GOMP_ordered_start() {
  wait_in<kOrdered, void>();
}
void* GOMP_single_copy_start() {
  return wait_in<kSingleCopy, void*>();
}
void GOMP_taskwait() {
  wait_in<kTaskwait, void>();
}
void GOMP_taskgroup_end() {
  wait_in<kTaskgroupEnd, void>();
}
void GOMP_critical_name_start(void** lock) {
  static const auto real = libgomp<void(void**)>("GOMP_critical_name_start");
  Waiting w;
  real(lock);
}

// A deferred task runs inside whichever thread waits next, so its work would be left out.
void GOMP_task(Body, void*, void (*)(void*, void*), long, long, bool, unsigned, void**, int,
               void*) {
  refuse("an OpenMP task (#pragma omp task)");
}
void GOMP_taskloop(Body, void*, void (*)(void*, void*), long, long, unsigned, unsigned long, int,
                   long, long, long) {
  refuse("an OpenMP taskloop (#pragma omp taskloop)");
}
void GOMP_taskloop_ull(Body, void*, void (*)(void*, void*), long, long, unsigned, unsigned long,
                       int, unsigned long long, unsigned long long, unsigned long long) {
  refuse("an OpenMP taskloop (#pragma omp taskloop)");
}

// LLVM's OpenMP runtime (clang -fopenmp, libomp) starts its regions here; their threads' work
// would not be charged, so the prediction would be silently wrong.
void __kmpc_fork_call(void*, int, void*, ...) {
  refuse("an OpenMP region compiled for LLVM's runtime (libomp, __kmpc_fork_call: code built "
         "with clang -fopenmp); build it with GCC (mpisimcc -fopenmp links libgomp)");
}

// The team size a rank sets is its own, as each process of a real run has its own.
void omp_set_num_threads(int n) {
  World* w = World::try_get();
  if (w && w->in_rank_on_this_thread() && !t_region) {
    w->self().omp_threads = n > 0 ? n : 1;
    return;
  }
  static const auto real = libgomp<void(int)>("omp_set_num_threads");
  real(n);
}
int omp_get_max_threads() {
  World* w = World::try_get();
  if (w && w->in_rank_on_this_thread() && !t_region && w->self().omp_threads > 0)
    return w->self().omp_threads;
  static const auto real = libgomp<int()>("omp_get_max_threads");
  return real();
}

// gfortran's omp_lib calls these (arguments by reference); libgomp's own call its C functions
// through hidden aliases, which would pass the ones above by.
void omp_set_num_threads_(const int* n) {
  omp_set_num_threads(*n);
}
void omp_set_num_threads_8_(const long long* n) {
  omp_set_num_threads(static_cast<int>(*n));
}
int omp_get_max_threads_() {
  return omp_get_max_threads();
}

} // extern "C"
