// Per-host scheduler: one fiber per LP, switched LP to LP on one OS thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "libc_state.hpp"
#include "run_end.hpp"
#include "stack_pool.hpp"

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

  /// From a fiber: suspend the current task (Blocked) and run the next ready one.
  void block();
  /// The next block() goes through `poll` (when run() was given one): work for the outside
  /// (frames to other host processes) waits no longer than the current fiber's burst.
  void poll_soon() {
    if (poll_every_) since_root_ = poll_every_;
  }
  /// Queues a blocked task to run again; no effect on tasks that are ready, running or done.
  void wake(Task& task);
  /// From a fiber: ends the current task as if its entry function had returned.
  [[noreturn]] void finish_current();
  /// From a fiber: end the simulation run; control returns from run() with Stopped.
  [[noreturn]] void stop();

  Task* current() const { return current_; }
  bool in_fiber() const { return current_ != &root_; }
  bool has_ready() const { return ready_count_ > 0; }
  std::size_t done_count() const { return done_; }
  std::size_t context_switches() const { return switches_; }
  const StackPool& stacks() const { return pool_; }
  /// See StackPool::keep_for_leak_check: for the fibers a run abandoned.
  void keep_for_leak_check(const std::vector<std::size_t>& slots) {
    pool_.keep_for_leak_check(slots);
  }

  /// The scheduler of the running simulation (signal handlers and trampolines need it).
  static Scheduler* active();

  /// First code of every fiber (called from the Boost.Context entry point only); never returns.
  /// Not declared [[noreturn]]: AddressSanitizer would then run its no-return hook before this
  /// function has told it that the stack changed.
  void begin_fiber(void* from_ctx, void* from_task);

private:
  void switch_to(Task& to, bool from_dies);
  Task& next_or_root();
  void after_switch();

  StackPool pool_;
  Task root_;
  Task* current_ = &root_;
  std::vector<Task*> ready_; ///< ring buffer of ready tasks; its size is a power of two
  std::size_t ready_mask_ = 0;
  std::size_t ready_head_ = 0;
  std::size_t ready_count_ = 0;
  std::size_t spawned_ = 0;
  std::size_t done_ = 0;
  std::size_t switches_ = 0;
  long finished_slot_ = -1;    ///< stack to give back once we are off it
  std::size_t poll_every_ = 0; ///< 0: never return to the root just to poll
  std::size_t since_root_ = 0; ///< switches since the root last ran
  bool stopping_ = false;
  int* errno_ = &errno; ///< this thread's errno
};

} // namespace mpilite
