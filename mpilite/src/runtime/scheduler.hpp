// Per-host scheduler: one fiber per LP, switched LP to LP on one OS thread.
#pragma once

#include <boost/context/detail/fcontext.hpp>
#include <pthread.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "libc_state.hpp"
#include "overflow_guard.hpp"
#include "privatization.hpp"
#include "run_end.hpp"
#include "stack_pool.hpp"

#if defined(MPISIM_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

namespace mpilite {

enum class TaskState { Ready, Running, Blocked, Done };

/// A fiber: an LP's execution context. Owned by the LP; the scheduler only switches it.
struct Task {
  void* ctx = nullptr; ///< suspended context (Boost.Context fcontext)
  Stack stack;
  std::size_t index = 0; ///< stack slot
  TaskState state = TaskState::Ready;
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
  /// The fiber's segment of privatized variables: current while the fiber runs.
  char* data_base = nullptr;
  /// The C library state the fiber has of its own (errno, getopt, generators): a rank's.
  LibcState libc;
};

class Scheduler {
public:
  /// Room for `count` fibers with stacks of `stack_size` bytes.
  Scheduler(std::size_t count, std::size_t stack_size, const StackPoolOptions& stacks = {});
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  /// Prepares `task` (slot `index`) to run `entry(arg)` and queues it as ready.
  void spawn(Task& task, std::size_t index, void (*entry)(void*), void* arg);

  /// Runs fibers until all are done, one calls stop(), or none is ready and `idle` returns
  /// false. `idle` is called whenever no fiber is ready; it may make fibers ready. `poll`, if
  /// given, is called from the scheduler's own stack at least every `poll_every` switches while
  /// fibers keep running (to take in work from outside without starving it). Returns
  /// RunEnd::Finished, RunEnd::Stopped, or RunEnd::Blocked (none ready, `idle` gave up).
  RunEnd run(const std::function<bool()>& idle, const std::function<void()>& poll = {},
             std::size_t poll_every = 1024);

  /// Called by block() when no other fiber is ready, before leaving for the root: what the
  /// root's `idle` would do first, done without the two switches. It may wake fibers, the
  /// blocking one included (which then goes on).
  void set_before_idle(bool (*fn)(void*), void* arg) {
    before_idle_ = fn;
    before_idle_arg_ = arg;
  }

  /// From a fiber: suspend the current task (Blocked) and run the next ready one.
  void block() {
    current_->state = TaskState::Blocked;
    if (ready_count_ == 0 && before_idle_) before_idle_(before_idle_arg_);
    // Every so often the root runs between two fibers, to poll for work from outside.
    Task& next = poll_every_ && ++since_root_ >= poll_every_ ? root_ : next_or_root();
    if (&next == current_) { // woken again before we left: just go on
      current_->state = TaskState::Running;
      return;
    }
    switch_to(next, false);
  }
  /// The next block() goes through `poll` (when run() was given one): work for the outside
  /// (frames to other host processes) waits no longer than the current fiber's burst.
  void poll_soon() {
    if (poll_every_) since_root_ = poll_every_;
  }
  /// Queues a blocked task to run again; no effect on tasks that are ready, running or done.
  void wake(Task& task) {
    if (task.state != TaskState::Blocked) return;
    task.state = TaskState::Ready;
    ready_[(ready_head_ + ready_count_) & ready_mask_] = &task;
    ++ready_count_;
    if (warm_) __builtin_prefetch(&task.ctx); // read when it comes next (warm)
  }
  /// From a fiber: ends the current task as if its entry function had returned.
  [[noreturn]] void finish_current();
  /// From a fiber: end the simulation run; control returns from run() with Stopped.
  /// `keep_segment`: the fiber's privatized segment stays current after it, for the other
  /// threads of its OpenMP team, which may still be running its code.
  [[noreturn]] void stop(bool keep_segment = false);

  Task* current() const { return current_; }
  bool in_fiber() const { return current_ != &root_; }
  bool has_ready() const { return ready_count_ > 0; }
  std::size_t done_count() const { return done_; }
  std::size_t context_switches() const { return switches_; }
  const StackPool& stacks() const { return pool_; }
  /// Stack copying: where this fiber's code reaches `base + k`, k in [lo, hi), which may lie in
  /// another fiber's parked stack (a blocked rank's receive buffer): StackPool::reach. Without
  /// copying, `base`.
  void* reach(const Task& owner, void* base, std::ptrdiff_t lo, std::ptrdiff_t hi) {
    return copy_stacks_ ? pool_.reach(owner.index, base, lo, hi) : base;
  }
  const void* reach(const Task& owner, const void* base, std::ptrdiff_t lo, std::ptrdiff_t hi) {
    return reach(owner, const_cast<void*>(base), lo, hi);
  }
  /// Runs `fn(arg)`, work done on behalf of `owner` by whichever fiber runs (a step of its
  /// collective's schedule), with `owner`'s stack in place: with shared stacks, that work then
  /// reaches the owner's buffers at their addresses, as the schedule's code does. Where the
  /// running fiber occupies the same shared stack, `fn` runs on a stack of the scheduler's own
  /// while the running fiber's is copied out; `arg` must therefore not point into the running
  /// fiber's stack. Without shared stacks, just `fn(arg)`: a parked stack comes back when
  /// touched; nor for an owner that has finished, whose stack is gone.
  void run_for(const Task& owner, void (*fn)(void*), void* arg) {
    if (!shared_stacks_ || owner.state == TaskState::Done) {
      fn(arg);
      return;
    }
    run_in_place(owner, fn, arg);
  }
  /// See StackPool::keep_for_leak_check: for the fibers a run abandoned.
  void keep_for_leak_check(const std::vector<std::size_t>& slots) {
    pool_.keep_for_leak_check(slots);
  }

  /// The scheduler of the running simulation (signal handlers and trampolines need it).
  static Scheduler* active();

  /// The running fiber is about to change its working directory: from now on each fiber runs
  /// in its own (a rank is a process, with a directory of its own), the others staying in the
  /// host process's. Returns false, errno set, if the host process's cannot be kept open.
  bool keep_directories();
  /// The running fiber has changed its working directory: it is that fiber's from now on.
  /// Returns false, errno set, if it cannot be kept open; the fiber is then back where it was.
  bool directory_changed();

  /// libgfortran keeps a thread's random-number generator under thread-specific `key`: from
  /// now on each fiber has its own, put in place when it runs (a rank is a process, whose main
  /// thread has its own). Every fiber, the running one included, starts without one, as a new
  /// process does; libgfortran makes it on first use.
  void keep_random_states(pthread_key_t key);
  bool keeps_random_states() const { return switch_random_; }
  /// After each of the running fiber's calls of libgfortran's generator: the first one made the
  /// fiber's state, which is the fiber's from now on.
  void random_state_used();

  /// The running fiber is about to change its environment (setenv and the others): from now on
  /// each fiber has its own once it changes it, put in place when it runs, and the others read
  /// the host process's. The running fiber's becomes a copy (malloc'd) of the one it reads,
  /// which rank_environment.cpp changes. False, with nothing changed, if memory runs out.
  bool own_environment();
  /// After the running fiber's environment changed (it may have moved).
  void environment_changed();

  /// First code of every fiber (called from the Boost.Context entry point only); never returns.
  /// Not declared [[noreturn]]: AddressSanitizer would then run its no-return hook before this
  /// function has told it that the stack changed.
  void begin_fiber(void* from_ctx, void* from_task);

private:
  /// Bytes of a ready fiber's stack top fetched ahead: its saved registers and the frames up to
  /// the program's (8 lines; 1 024 and 2 048 gained no more).
  static constexpr std::size_t kWarmBytes = 512;
  /// From this many fibers on: below it their stacks' tops stay in the caches, and two fibers
  /// switching (bench_fiber_switch) pay nothing for it.
  static constexpr std::size_t kWarmFrom = 64;
  /// The service stack (run_for): as much as a rank's default, since a user's MPI_Op runs on it.
  static constexpr std::size_t kServiceStack = std::size_t{8} << 20;
  // In the header, with what it calls: a switch is a handful of loads and stores around the
  // jump, and a call and return of its own would cost as much again (a return after a context
  // jump is mispredicted, the return stack holding the other fiber's calls).
  void switch_to(Task& to, bool from_dies);
  void run_in_place(const Task& owner, void (*fn)(void*), void* arg);
  /// On the service stack: `fn(arg)` for `owner` while the current fiber (switched away from
  /// at `caller_ctx`) is copied out.
  void serve_in_place(const Task& owner, void (*fn)(void*), void* arg, void* caller_ctx);
  static void service_entry(boost::context::detail::transfer_t t);
  /// The per-thread and per-process state of the runtime libraries that the program uses,
  /// switched with the fiber: the standard streams' format, the exceptions being handled, the
  /// working directory, libgfortran's generator and the environment.
  void save_runtime(Task& task);
  void load_runtime(Task& task);
  /// Makes `task`'s working directory the process's, if it is not already.
  void enter_directory(const Task& task);
  /// Makes `task`'s random-number state libgfortran's for this thread, if it is not already.
  void enter_random_state(const Task& task);
  /// Makes `task`'s environment the process's (`environ`).
  void enter_environment(const Task& task);
  /// `task`'s hidden C library state, made if it has none yet.
  static LibcHidden& hidden_of(Task& task);
  void release_finished();
  /// The context a fiber starts from, written at the top of its stack.
  static void* first_context(Task& task);
  Task& next_or_root() {
    if (ready_count_ == 0) return root_;
    Task* t = ready_[ready_head_];
    ready_head_ = (ready_head_ + 1) & ready_mask_;
    --ready_count_;
    if (warm_ && ready_count_ > 0) warm(*ready_[ready_head_]);
    return *t;
  }
  /// Fetches the top of ready fiber `t`'s stack (its saved context and the frames it returns
  /// through) while the fiber before it runs. With hundreds of fibers those lines have left the
  /// caches since `t` blocked, and unwinding would miss on them one return after another (NPB CG
  /// class S at 1 024 ranks: 5 % of the run).
  static void warm(const Task& t) {
    const char* top = static_cast<const char*>(t.ctx);
    if (!top) return; // not started yet, under stack copying
    for (std::size_t k = 0; k < kWarmBytes; k += 64)
      __builtin_prefetch(top + k);
  }
  /// In the context just switched to: `prev` (saved at `prev_ctx`) is off the CPU now.
  void after_switch(Task& prev, void* prev_ctx) {
    prev.ctx = prev_ctx;
    if (finished_slot_ >= 0) release_finished();
    if (copy_stacks_ && &prev != &root_ && prev.state != TaskState::Done)
      pool_.park(prev.index, prev_ctx);
  }

  // What every switch reads and writes comes first, on one cache line.
  Task* current_ = &root_;
  Task** ready_ = nullptr; ///< ring buffer of ready tasks; its size is a power of two
  std::size_t ready_mask_ = 0;
  std::size_t ready_head_ = 0;
  std::size_t ready_count_ = 0;
  bool (*before_idle_)(void*) = nullptr;
  void* before_idle_arg_ = nullptr;
  std::size_t poll_every_ = 0; ///< 0: never return to the root just to poll
  std::size_t since_root_ = 0; ///< switches since the root last ran
  std::size_t switches_ = 0;
  int* errno_ = &errno;                 ///< this thread's errno
  CxxExceptions* exceptions_ = nullptr; ///< this thread's, if the program catches any
  bool check_canary_ = false;       ///< OverflowCheck::GuardPerBlock: a guard page does not suffice
  bool switch_streams_ = false;     ///< the program names the C++ standard streams
  bool switch_dirs_ = false;        ///< a fiber has changed its working directory (chdir)
  bool switch_random_ = false;      ///< a fiber has used gfortran's RANDOM_NUMBER or RANDOM_SEED
  bool switch_environment_ = false; ///< a fiber has changed its environment (setenv)
  /// Any of the five above: one test per switch where the program uses none.
  bool switch_runtime_ = false;
  bool copy_stacks_ = false;   ///< StackPool::copies_stacks()
  bool shared_stacks_ = false; ///< StackPool::shares_stacks()
  bool in_service_ = false;    ///< running on the service stack (run_for)
  bool stopping_ = false;
  bool warm_ = false;       ///< kWarmFrom fibers or more: warm() the next ready one
  long finished_slot_ = -1; ///< stack to give back once we are off it
  /// Shared stack slots: the fiber to run next from the root, which a fiber could not switch to
  /// directly because both run on one slot.
  Task* detour_ = nullptr;
  /// Shared stacks: the scheduler's own stack for run_for, made on first use, and its context.
  void* service_stack_ = nullptr;
  void* service_ctx_ = nullptr;
  /// Once a fiber has changed its working directory (switch_dirs_): the host process's,
  /// open, and the directory now in place (LibcHidden::dir of the fiber it belongs to).
  int host_dir_ = -1;
  int dir_now_ = -1;
  /// Once a fiber has used gfortran's generator (switch_random_): libgfortran's key and the
  /// state now in place (LibcHidden::fortran_random of the fiber it belongs to).
  pthread_key_t random_key_ = 0;
  void* random_now_ = nullptr;
  /// Once a fiber has changed its environment (switch_environment_): the host process's, which
  /// the code between fibers may change too, and fibers read until they change theirs.
  char** host_environment_ = nullptr;

  std::unique_ptr<Task*[]> ready_storage_;
  StackPool pool_;
  Task root_;
  std::size_t spawned_ = 0;
  std::size_t done_ = 0;
};

inline void Scheduler::switch_to(Task& next, bool from_dies) {
  Task* from = current_;
  Task* target = &next;
  // Putting `next`'s stack in place would overwrite the one this code runs on: the root does it.
  // Not by calling switch_to again: a recursive switch_to is no longer inlined, and the call and
  // its mispredicted return cost the switch half as much again as the jump.
  if (shared_stacks_ && from != &root_ && target != &root_ &&
      pool_.same_slot(from->index, target->index)) [[unlikely]] {
    detour_ = target;
    target = &root_;
  }
  Task& to = *target;
  // With a guard page per stack the first access past a stack faults; only a guard per block
  // of stacks lets an overflow run on unnoticed, into the stacks below.
  if (check_canary_ && from != &root_ &&
      (!StackPool::canary_intact(from->stack) ||
       static_cast<std::byte*>(__builtin_frame_address(0)) < from->stack.bottom))
    report_stack_overflow(from->index);
  current_ = &to;
  to.state = TaskState::Running;
  switch_segment(to.data_base);
  save_libc(from->libc.regs, errno_);
  if (switch_runtime_) save_runtime(*from);
  ++switches_;
  if (copy_stacks_ && &to != &root_) {
    pool_.unpark(to.index);
    if (!to.ctx) to.ctx = first_context(to);
  }
#if defined(MPISIM_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(from_dies ? nullptr : &fake, to.stack.bottom, to.stack.size);
#else
  (void)from_dies;
#endif
  const boost::context::detail::transfer_t t = boost::context::detail::jump_fcontext(to.ctx, from);
#if defined(MPISIM_ASAN)
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(fake, &old_bottom, &old_size);
#endif
  load_libc(from->libc.regs, errno_); // back in `from`: its errno, optind, ...
  if (switch_runtime_) load_runtime(*from);
  after_switch(*static_cast<Task*>(t.data), t.fctx);
}

} // namespace mpilite
