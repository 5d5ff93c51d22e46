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
// calls from any thread but the rank's own (api_call.cpp) or from inside a critical section.
//
// The rank's own thread (the team's master) may call MPI inside a region (funnelled): the call
// may switch to other ranks' fibers, which run on the same thread, so the team's other threads
// are first parked where they wait for the team (openmp_call_begins).
#include <dlfcn.h>
#include <link.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "host_clock.hpp"
#include "loaded_object.hpp"
#include "mpisim_privatize.h"
#include "openmp_calls.hpp"
#include "privatization.hpp"
#include "process_exit.hpp"
#include "world.hpp"

extern "C" int omp_get_max_threads(); // below: the rank's team size

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
    mpilite::end_process_now(1);
  }
  return reinterpret_cast<F*>(f);
}

/// libgomp's own controls of the calling thread (its task's, outside regions the process's).
struct Gomp {
  void (*set_dynamic)(int);
  int (*get_dynamic)();
  void (*set_schedule)(int, int);
  void (*get_schedule)(int*, int*);
  void (*set_max_active_levels)(int);
  int (*get_max_active_levels)();
  int (*get_supported_active_levels)();
};
const Gomp& gomp() {
  static const Gomp g{libgomp<void(int)>("omp_set_dynamic"),
                      libgomp<int()>("omp_get_dynamic"),
                      libgomp<void(int, int)>("omp_set_schedule"),
                      libgomp<void(int*, int*)>("omp_get_schedule"),
                      libgomp<void(int)>("omp_set_max_active_levels"),
                      libgomp<int()>("omp_get_max_active_levels"),
                      libgomp<int()>("omp_get_supported_active_levels")};
  return g;
}

/// While a rank's region runs, libgomp has the controls the rank set (its team's threads start
/// from the master's); the process's come back after it, for every other rank. The ranks share
/// the host thread, whose controls libgomp keeps. Only the controls the rank set are touched: a
/// region of a rank that set none costs no call.
class RankControls {
public:
  explicit RankControls(const Rank& rank) : mine_(rank.rare_or_default().openmp) {
    const Gomp& g = gomp();
    if (mine_.dynamic >= 0) {
      saved_.dynamic = g.get_dynamic();
      g.set_dynamic(mine_.dynamic);
    }
    if (mine_.schedule >= 0) {
      g.get_schedule(&saved_.schedule, &saved_.chunk);
      g.set_schedule(mine_.schedule, mine_.chunk);
    }
    if (mine_.max_active_levels >= 0) {
      saved_.max_active_levels = g.get_max_active_levels();
      g.set_max_active_levels(mine_.max_active_levels);
    }
  }
  ~RankControls() {
    const Gomp& g = gomp();
    if (mine_.dynamic >= 0) g.set_dynamic(saved_.dynamic);
    if (mine_.schedule >= 0) g.set_schedule(saved_.schedule, saved_.chunk);
    if (mine_.max_active_levels >= 0) g.set_max_active_levels(saved_.max_active_levels);
  }
  RankControls(const RankControls&) = delete;
  RankControls& operator=(const RankControls&) = delete;

private:
  mpilite::RankRare::OpenMpControls mine_;  ///< what the rank set (-1: not set)
  mpilite::RankRare::OpenMpControls saved_; ///< the process's, where the rank set its own
};

[[noreturn]] void refuse(const char* what) {
  std::fprintf(stderr,
               "mpisim: %s inside a simulated rank is not supported: the time of its work could "
               "not be charged to the rank. Run it outside parallel regions, or with "
               "OMP_NUM_THREADS=1 and the construct removed (docs/model.md, OpenMP)\n",
               what);
  mpilite::end_process_now(1);
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
  /// Per phase (the work between two barriers of the team): its busiest thread's work, or the
  /// team's work in the sections of one lock if longer. A barrier makes every thread wait for
  /// the slowest, so the region lasts their sum.
  std::vector<std::int64_t> phase_most_ns;
  /// The team's work in sections that one thread at a time runs (critical, ordered, atomic),
  /// per phase and lock: the threads take such a section in turn, so the phase lasts at least
  /// the sum of their times in it, however many cores they have.
  struct Serial {
    std::size_t phase;
    const void* lock;
    std::int64_t ns;
  };
  std::vector<Serial> serial;

  /// The master's MPI calls: the phases they were made in (most_ns is filled in at the end).
  std::vector<mpilite::PhaseCalls> calls;
  /// The team's threads other than the master that are parked (in a wait for the team, or done
  /// with their share), plus kAway while the master is in MPI: they must not run the rank's
  /// code then, as other ranks run on its thread.
  std::atomic<int> parked{0};
  static constexpr int kAway = 1 << 30;
  /// What the master's thread held of the region while it is away in MPI (other ranks' regions
  /// use the thread meanwhile): its phase, its CPU clock readings, and libgomp's state.
  struct Away {
    std::size_t phase = 0;
    std::int64_t phase_start = 0;
    std::int64_t waited_ns = 0;
    std::int64_t cpu_ns = 0; ///< when the call began: the time to its end is not the master's work
    std::vector<std::byte> libgomp;
  } away;

  /// The region's work as the master sees it at `master_ns` of work in its current phase: the
  /// phases before it, then that phase's master work and calls so far.
  mpilite::RegionWork so_far(std::size_t phase, std::int64_t master_ns);
  /// A thread's `ns` of work in a section of `lock` that one thread at a time runs.
  void add_serial(std::size_t phase, const void* lock, std::int64_t ns);
  /// The phases with calls, each with the work of its busiest thread.
  std::vector<mpilite::PhaseCalls> calls_done();
};

/// The region whose body this thread runs (nullptr: none), the phase it is in, when that phase
/// began on its CPU clock and how long it has waited in it since.
thread_local Region* t_region = nullptr;
thread_local std::size_t t_phase = 0;
thread_local std::int64_t t_phase_start = 0;
thread_local std::int64_t t_waited_ns = 0;
/// Whether this thread is the master of the team of t_region (the rank's own thread), and the
/// critical sections it is in.
thread_local bool t_master = false;
thread_local int t_criticals = 0;
/// The section of one thread at a time (critical, ordered, atomic) this thread is in: its depth,
/// its lock, and when it entered it (CPU clock, and the waits of the phase so far).
thread_local int t_serial_depth = 0;
thread_local const void* t_serial_lock = nullptr;
thread_local std::int64_t t_serial_start = 0;
thread_local std::int64_t t_serial_waited = 0;

/// Ends this thread's current phase of the region at `now` (its CPU clock).
void end_phase(std::int64_t now) {
  Region& r = *t_region;
  const std::int64_t work = std::max<std::int64_t>(0, now - t_phase_start - t_waited_ns);
  std::lock_guard lock(r.m);
  if (r.phase_most_ns.size() <= t_phase) r.phase_most_ns.resize(t_phase + 1);
  r.phase_most_ns[t_phase] = std::max(r.phase_most_ns[t_phase], work);
  r.total_ns += work;
  if (t_master && !r.calls.empty() && r.calls.back().phase == t_phase)
    r.calls.back().master_ns = work;
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

/// Entering (once its lock is held) and leaving a section that one thread at a time runs; the
/// outermost one counts, with the lock it was entered with.
void serial_begins(const void* lock) {
  if (!t_region || t_serial_depth++ > 0) return;
  t_serial_lock = lock;
  t_serial_waited = t_waited_ns;
  t_serial_start = thread_cpu_ns();
}

void serial_ends() {
  if (!t_region || --t_serial_depth > 0) return;
  const std::int64_t waited = t_waited_ns - t_serial_waited;
  t_region->add_serial(t_phase, t_serial_lock,
                       std::max<std::int64_t>(0, thread_cpu_ns() - t_serial_start - waited));
}

/// The locks of the sections libgomp keeps no lock argument for: the unnamed critical section
/// is one, every ordered section of a loop another, atomics a third.
constexpr char kUnnamedCritical = 0, kOrderedTurns = 0, kAtomicLock = 0;

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

/// A wait of a thread for the rest of its team (not for a lock that other ranks' threads may
/// hold): a worker in it is parked, and goes back to the rank's code only while the master is
/// not away in MPI.
class Parked {
public:
  Parked() : region_(t_master ? nullptr : t_region) {
    if (region_) park(*region_);
  }
  ~Parked() {
    if (!region_) return;
    std::atomic<int>& parked = region_->parked;
    for (;;) {
      int now = parked.load();
      if (now & Region::kAway)
        parked.wait(now);
      else if (parked.compare_exchange_weak(now, now - 1))
        return;
    }
  }
  Parked(const Parked&) = delete;
  Parked& operator=(const Parked&) = delete;

  static void park(Region& r) {
    r.parked.fetch_add(1);
    r.parked.notify_all();
  }

private:
  Region* region_;
};

/// A wait of kind `Wait` in which the thread is parked: the park ends first when it leaves.
template <class Wait> struct ParkedIn : Wait { Parked parked; };
using TeamWait = ParkedIn<Waiting>;
using TeamBarrier = ParkedIn<Barrier>;

mpilite::RegionWork Region::so_far(std::size_t phase, std::int64_t master_ns) {
  std::lock_guard lock(m);
  mpilite::RegionWork work{rank->region_threads, 0, 0, calls_done()};
  for (std::size_t p = 0; p < phase && p < phase_most_ns.size(); ++p)
    work.most_ns += phase_most_ns[p];
  // The other threads' work in the current phase does not hold the master up before its call.
  if (work.calls.empty() || work.calls.back().phase != phase) work.calls.push_back({phase});
  work.calls.back().most_ns = 0;
  work.calls.back().master_ns = master_ns;
  return work;
}

void Region::add_serial(std::size_t phase, const void* lock, std::int64_t ns) {
  std::lock_guard guard(m);
  auto it = std::find_if(serial.begin(), serial.end(),
                         [&](const Serial& e) { return e.phase == phase && e.lock == lock; });
  if (it == serial.end()) it = serial.insert(serial.end(), {phase, lock, 0});
  it->ns += ns;
  if (phase_most_ns.size() <= phase) phase_most_ns.resize(phase + 1);
  phase_most_ns[phase] = std::max(phase_most_ns[phase], it->ns);
}

std::vector<mpilite::PhaseCalls> Region::calls_done() {
  std::vector<mpilite::PhaseCalls> done = calls;
  for (mpilite::PhaseCalls& c : done)
    if (c.phase < phase_most_ns.size()) c.most_ns = phase_most_ns[c.phase];
  return done;
}

/// libgomp's thread-local block of the calling thread, where it keeps the thread's OpenMP state:
/// its team, its pool of worker threads. Empty where libgomp is not loaded.
std::span<std::byte> libgomp_tls() {
  const void* fn = dlsym(RTLD_NEXT, "GOMP_parallel");
  const std::optional<dl_phdr_info> libgomp = fn ? mpilite::object_holding(fn) : std::nullopt;
  if (!libgomp || !libgomp->dlpi_tls_data) return {};
  std::size_t size = 0;
  for (int i = 0; i < libgomp->dlpi_phnum; ++i)
    if (libgomp->dlpi_phdr[i].p_type == PT_TLS) size = libgomp->dlpi_phdr[i].p_memsz;
  return {static_cast<std::byte*>(libgomp->dlpi_tls_data), size};
}

/// The ranks share one thread, and libgomp keeps a thread's OpenMP state in its thread-local
/// storage; while a rank's master is away in MPI in its region, the other ranks' regions must
/// each start as in a process of its own: from a thread in no team, with a pool of worker
/// threads that no team uses. The state of a thread that never ran a region (taken at start-up,
/// before any did), and the states such regions left, each with its own idle pool.
const std::vector<std::byte> g_fresh_libgomp = [] {
  const std::span<std::byte> block = libgomp_tls();
  return std::vector<std::byte>(block.begin(), block.end());
}();
/// Never destroyed: the pools in them stay reachable to the end, as the thread's own does.
std::vector<std::vector<std::byte>>& idle_libgomp() {
  static auto* const states = new std::vector<std::vector<std::byte>>;
  return *states;
}

/// libgomp's state on the ranks' thread.
std::span<std::byte> ranks_libgomp() {
  static const std::span<std::byte> block = libgomp_tls();
  return block;
}

/// Keeps the region's libgomp state in `away` and gives the thread one outside any team.
void stash_libgomp(std::vector<std::byte>& away) {
  const std::span<std::byte> block = ranks_libgomp();
  away.assign(block.begin(), block.end());
  std::vector<std::vector<std::byte>>& idle = idle_libgomp();
  if (idle.empty()) {
    std::copy(g_fresh_libgomp.begin(), g_fresh_libgomp.end(), block.begin());
    return;
  }
  std::copy(idle.back().begin(), idle.back().end(), block.begin());
  idle.pop_back();
}

/// Gives the thread back the region's libgomp state from `away`.
void unstash_libgomp(const std::vector<std::byte>& away) {
  const std::span<std::byte> block = ranks_libgomp();
  idle_libgomp().emplace_back(block.begin(), block.end());
  std::copy(away.begin(), away.end(), block.begin());
}

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
  if (me == 0) {
    // The master's MPI calls in the region go through it (openmp_call_begins).
    r.rank->region_threads = team_size();
    r.rank->rare().openmp_region = &r;
  }
  // The rank's own thread has its thread-locals in the segment; the others, copies of their own.
  mpisim_priv_thread_base = r.rank->globals.team_thread_base(me);
  if (me != 0 && !mpisim_priv_thread_base && mpilite::private_segment_has_thread_locals()) {
    std::fprintf(stderr,
                 "mpisim: thread %d of a team of %d has no copy of the rank's thread-local "
                 "variables (a team larger than the one the region asked for); report this "
                 "with the program\n",
                 me, team_size());
    mpilite::end_process_now(1);
  }
  t_region = &r;
  t_master = me == 0;
  t_phase = 0;
  t_waited_ns = 0;
  t_phase_start = thread_cpu_ns();
  r.fn(r.data);
  end_phase(thread_cpu_ns());
  if (!t_master) Parked::park(r); // for good: nothing of the rank's is left for it to run
  t_region = nullptr;
  mpisim_priv_thread_base = nullptr;
  std::lock_guard lock(r.m);
  ++r.threads;
}

/// The calling rank, when its own code runs outside its regions: the controls it sets there are
/// its own.
Rank* outside_region() {
  World* w = World::of_calling_rank();
  return w && !t_region ? &w->self() : nullptr;
}

/// The team size a region that asked for `threads` (0: the default, the rank's own as
/// omp_get_max_threads below answers it) gets at most.
int team_asked(unsigned threads) {
  return threads != 0 ? static_cast<int>(threads) : omp_get_max_threads();
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
  World* w = World::of_calling_rank();
  if (!w) { // before main, or the simulator's own threads
    start(fn, data, threads);
    return;
  }
  Rank& rank = w->self();
  const int team = team_asked(threads);
  rank.globals.prepare_team(team);
  for (const auto& [offset, size] : t_copyin)
    rank.globals.copy_in(team, offset, size);
  t_copyin.clear();
  if (threads == 0) threads = static_cast<unsigned>(rank.rare_or_default().omp_threads);
  Region region(fn, data, &rank);
  w->kernel().hooks.region_begins(rank);
  {
    const RankControls controls(rank);
    start(run_share, &region, threads);
  }
  rank.region_threads = 0;
  rank.rare().openmp_region = nullptr;
  std::int64_t longest = 0;
  for (std::int64_t most : region.phase_most_ns)
    longest += most;
  w->kernel().hooks.region_ends(rank,
                                {region.threads, longest, region.total_ns, region.calls_done()});
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
template <const char* kName, class R, class Wait> R wait_in() {
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
  const char* base = MPISIM_PRIV_TBASE;
  t_copyin.emplace_back(static_cast<std::size_t>(static_cast<char*>(copy) - base), size);
}

// The old entry points (GCC before 4.9) split a region in two calls; nothing compiles to them now.
void GOMP_parallel_start(Body, void*, unsigned) {
  refuse("an OpenMP region compiled for GCC before 4.9 (GOMP_parallel_start)");
}

void GOMP_barrier() {
  wait_in<kBarrier, void, TeamBarrier>();
}
bool GOMP_barrier_cancel() {
  return wait_in<kBarrierCancel, bool, TeamBarrier>();
}
void GOMP_loop_end() {
  wait_in<kLoopEnd, void, TeamBarrier>();
}
bool GOMP_loop_end_cancel() {
  return wait_in<kLoopEndCancel, bool, TeamBarrier>();
}
void GOMP_sections_end() {
  wait_in<kSectionsEnd, void, TeamBarrier>();
}
bool GOMP_sections_end_cancel() {
  return wait_in<kSectionsEndCancel, bool, TeamBarrier>();
}
// The locks of critical sections and atomics are the process's, shared by the ranks' teams: a
// thread waiting for one is not parked, as the lock may be another rank's.
void GOMP_critical_start() {
  wait_in<kCritical, void, Waiting>();
  ++t_criticals;
  serial_begins(&kUnnamedCritical);
}
void GOMP_critical_end() {
  static const auto real = libgomp<void()>("GOMP_critical_end");
  serial_ends();
  --t_criticals;
  real();
}
void GOMP_atomic_start() {
  wait_in<kAtomic, void, Waiting>();
  serial_begins(&kAtomicLock);
}
void GOMP_atomic_end() {
  static const auto real = libgomp<void()>("GOMP_atomic_end");
  serial_ends();
  real();
}
void GOMP_ordered_start() {
  wait_in<kOrdered, void, TeamWait>();
  serial_begins(&kOrderedTurns);
}
void GOMP_ordered_end() {
  static const auto real = libgomp<void()>("GOMP_ordered_end");
  serial_ends();
  real();
}
void* GOMP_single_copy_start() {
  return wait_in<kSingleCopy, void*, TeamWait>();
}
void GOMP_taskwait() {
  wait_in<kTaskwait, void, TeamWait>();
}
void GOMP_taskgroup_end() {
  wait_in<kTaskgroupEnd, void, TeamWait>();
}
void GOMP_critical_name_start(void** lock) {
  static const auto real = libgomp<void(void**)>("GOMP_critical_name_start");
  {
    Waiting w;
    real(lock);
  }
  ++t_criticals;
  serial_begins(lock);
}
void GOMP_critical_name_end(void** lock) {
  static const auto real = libgomp<void(void**)>("GOMP_critical_name_end");
  serial_ends();
  --t_criticals;
  real(lock);
}

// A simple lock's holders take their sections in turn, as a critical section's do.
void omp_set_lock(void* lock) {
  static const auto real = libgomp<void(void*)>("omp_set_lock");
  {
    Waiting w;
    real(lock);
  }
  serial_begins(lock);
}
void omp_unset_lock(void* lock) {
  static const auto real = libgomp<void(void*)>("omp_unset_lock");
  serial_ends();
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
  World* w = World::of_calling_rank();
  if (w && !t_region) {
    w->self().rare().omp_threads = n > 0 ? n : 1;
    return;
  }
  static const auto real = libgomp<void(int)>("omp_set_num_threads");
  real(n);
}
int omp_get_max_threads() {
  World* w = World::of_calling_rank();
  if (w && !t_region) {
    if (const int threads = w->self().rare_or_default().omp_threads; threads > 0) return threads;
  }
  static const auto real = libgomp<int()>("omp_get_max_threads");
  return real();
}

// A thread that waits for a function's static another thread of its team builds
// (mpisim_privatize.h) waits for the team: parked, so that the master may call MPI meanwhile
// (its constructor may), and not working.
void mpisim_priv_team_wait(int waiting) {
  thread_local std::optional<TeamWait> wait;
  if (waiting)
    wait.emplace();
  else
    wait.reset();
}

// So are the other controls a rank sets outside its regions; its regions run with them
// (RankControls).
void omp_set_dynamic(int on) {
  if (Rank* r = outside_region()) {
    r->rare().openmp.dynamic = on != 0;
    return;
  }
  gomp().set_dynamic(on);
}
int omp_get_dynamic() {
  const Rank* r = outside_region();
  if (r && r->rare_or_default().openmp.dynamic >= 0) return r->rare_or_default().openmp.dynamic;
  return gomp().get_dynamic();
}
void omp_set_schedule(int kind, int chunk) {
  if (Rank* r = outside_region()) {
    r->rare().openmp.schedule = kind;
    r->rare().openmp.chunk = chunk;
    return;
  }
  gomp().set_schedule(kind, chunk);
}
void omp_get_schedule(int* kind, int* chunk) {
  const Rank* r = outside_region();
  if (r && r->rare_or_default().openmp.schedule >= 0) {
    // What libgomp reads back from what was set (a chunk below 1 is the kind's default), the
    // process's schedule kept.
    const RankControls mine(*r);
    gomp().get_schedule(kind, chunk);
    return;
  }
  gomp().get_schedule(kind, chunk);
}
void omp_set_max_active_levels(int levels) {
  if (Rank* r = outside_region()) {
    // libgomp's bounds: no fewer than 0, no more than it supports.
    r->rare().openmp.max_active_levels =
        std::clamp(levels, 0, gomp().get_supported_active_levels());
    return;
  }
  gomp().set_max_active_levels(levels);
}
int omp_get_max_active_levels() {
  const Rank* r = outside_region();
  if (r && r->rare_or_default().openmp.max_active_levels >= 0)
    return r->rare_or_default().openmp.max_active_levels;
  return gomp().get_max_active_levels();
}
// OpenMP 5.0 deprecates these; libgomp keeps them as the number of active levels.
void omp_set_nested(int on) {
  omp_set_max_active_levels(on ? gomp().get_supported_active_levels() : 1);
}
int omp_get_nested() {
  return omp_get_max_active_levels() > 1;
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
void omp_set_dynamic_(const int* on) {
  omp_set_dynamic(*on);
}
void omp_set_dynamic_8_(const long long* on) {
  omp_set_dynamic(*on != 0);
}
int omp_get_dynamic_() {
  return omp_get_dynamic();
}
void omp_set_schedule_(const int* kind, const int* chunk) {
  omp_set_schedule(*kind, *chunk);
}
void omp_set_schedule_8_(const int* kind, const long long* chunk) {
  omp_set_schedule(*kind, static_cast<int>(std::clamp<long long>(*chunk, INT_MIN, INT_MAX)));
}
void omp_get_schedule_(int* kind, int* chunk) {
  omp_get_schedule(kind, chunk);
}
void omp_get_schedule_8_(int* kind, long long* chunk) {
  int c = 0;
  omp_get_schedule(kind, &c);
  *chunk = c;
}
void omp_set_max_active_levels_(const int* levels) {
  omp_set_max_active_levels(*levels);
}
void omp_set_max_active_levels_8_(const long long* levels) {
  omp_set_max_active_levels(static_cast<int>(std::clamp<long long>(*levels, 0, INT_MAX)));
}
int omp_get_max_active_levels_() {
  return omp_get_max_active_levels();
}
void omp_set_nested_(const int* on) {
  omp_set_nested(*on);
}
void omp_set_nested_8_(const long long* on) {
  omp_set_nested(*on != 0);
}
int omp_get_nested_() {
  return omp_get_nested();
}

} // extern "C"

namespace mpilite {

void openmp_call_begins(World& w, Rank& rank, const char* call) {
  Region& r = *static_cast<Region*>(rank.rare().openmp_region);
  // Other ranks' teams may wait for the process's critical lock held here, on this thread.
  if (t_criticals > 0)
    w.stop(RunEnd::FatalError, 1,
           fmt::format("rank {}: {} called inside an OpenMP critical section, which mpisim does "
                       "not support (the ranks' regions share its lock); call MPI outside it "
                       "(docs/model.md, OpenMP)",
                       rank.id, call));
  if (ranks_libgomp().empty() || ranks_libgomp().size() != g_fresh_libgomp.size())
    w.stop(RunEnd::FatalError, 1,
           fmt::format("rank {}: {} called inside an OpenMP parallel region: mpisim did not find "
                       "the OpenMP runtime's (libgomp's) state of the thread, which other ranks' "
                       "regions need while the call waits; call MPI outside parallel regions",
                       rank.id, call));
  const std::int64_t now = thread_cpu_ns();
  const int workers = rank.region_threads - 1;
  for (;;) {
    int parked = r.parked.load();
    if (parked != workers)
      r.parked.wait(parked);
    else if (r.parked.compare_exchange_weak(parked, workers | Region::kAway))
      break;
  }
  w.kernel().hooks.region_call(rank, r.so_far(t_phase, now - t_phase_start - t_waited_ns));
  r.away.phase = t_phase;
  r.away.phase_start = t_phase_start;
  r.away.waited_ns = t_waited_ns;
  r.away.cpu_ns = now;
  stash_libgomp(r.away.libgomp);
  t_region = nullptr;
  t_master = false;
}

int team_rank() {
  return t_region ? t_region->rank->id : -1;
}

void openmp_call_ends(Rank& rank, SimTime took) {
  Region& r = *static_cast<Region*>(rank.rare().openmp_region);
  unstash_libgomp(r.away.libgomp);
  t_region = &r;
  t_master = true;
  t_phase = r.away.phase;
  t_phase_start = r.away.phase_start;
  // The call's time on this thread was other ranks' and the simulator's, not the master's work.
  t_waited_ns = r.away.waited_ns + (thread_cpu_ns() - r.away.cpu_ns);
  {
    std::lock_guard lock(r.m);
    if (r.calls.empty() || r.calls.back().phase != t_phase) r.calls.push_back({t_phase});
    r.calls.back().calls += took;
  }
  r.parked.fetch_and(~Region::kAway);
  r.parked.notify_all();
}

} // namespace mpilite
