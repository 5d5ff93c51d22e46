#include "scheduler.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cxx_streams.hpp"

#if defined(MPISIM_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace bctx = boost::context::detail;

namespace mpilite {
namespace {
Scheduler* g_active = nullptr;
std::uint64_t g_fibers_spawned = 0; // serials of LibcState
StandardStreams g_streams;          // set by run(), once the streams exist

void fiber_entry(bctx::transfer_t t) {
  g_active->begin_fiber(t.fctx, t.data);
}
} // namespace

Scheduler* Scheduler::active() {
  return g_active;
}

Scheduler::Scheduler(std::size_t count, std::size_t stack_size, const StackPoolOptions& stacks)
    : ready_mask_(std::bit_ceil(count + 1) - 1), ready_storage_(new Task*[ready_mask_ + 1]()),
      pool_(count, stack_size, stacks) {
  ready_ = ready_storage_.get();
  check_canary_ = pool_.check() == OverflowCheck::GuardPerBlock;
  copy_stacks_ = pool_.copies_stacks();
  shared_stacks_ = pool_.shares_stacks();
  warm_ = count >= kWarmFrom;
  root_.state = TaskState::Running;
}

Scheduler::~Scheduler() {
  if (service_stack_) munmap(service_stack_, kServiceStack);
  if (host_dir_ >= 0) close(host_dir_);
  forget_overflow_guard(pool_);
  if (g_active == this) g_active = nullptr;
}

void* Scheduler::first_context(Task& task) {
  return bctx::make_fcontext(task.stack.bottom + task.stack.size, task.stack.size, &fiber_entry);
}

void Scheduler::spawn(Task& task, std::size_t index, void (*entry)(void*), void* arg) {
  task.index = index;
  task.stack = pool_.stack(index);
  task.entry = entry;
  task.arg = arg;
  task.data_base = nullptr;
  task.libc = LibcState{};
  if (standard_streams_named()) task.libc.streams = std::make_unique<StreamFormats>();
  task.libc.serial = ++g_fibers_spawned;
#if defined(MPISIM_ASAN)
  // The memory may have held the stack of a fiber of an earlier run that never returned (the
  // run ended in a deadlock or an abort): its frames' redzones are still poisoned.
  __asan_unpoison_memory_region(task.stack.bottom, task.stack.size);
#endif
  // With stacks copied, the first context is made when the fiber first runs: until
  // then its stack holds nothing, so ranks waiting to start hold no page and no copy.
  task.ctx = copy_stacks_ ? nullptr : first_context(task);
  task.state = TaskState::Blocked;
  ++spawned_;
  wake(task);
}

RunEnd Scheduler::run(const std::function<bool()>& idle, const std::function<void()>& poll,
                      std::size_t poll_every) {
  g_active = this;
  errno_ = &errno; // fibers run on the thread that runs them
  exceptions_ = exceptions_caught() ? this_threads_exceptions() : nullptr;
  g_streams = StandardStreams::find();
  switch_streams_ = standard_streams_named();
  if (switch_streams_ && !root_.libc.streams)
    root_.libc.streams = std::make_unique<StreamFormats>();
  switch_runtime_ =
      switch_streams_ || exceptions_ || switch_dirs_ || switch_random_ || switch_environment_;
  install_overflow_guard(pool_);
  poll_every_ = poll ? poll_every : 0;
  for (;;) {
    if (stopping_) return RunEnd::Stopped;
    if (detour_) {
      switch_to(*std::exchange(detour_, nullptr), false);
      continue;
    }
    if (ready_count_ > 0) {
      if (poll && since_root_ >= poll_every_) poll();
      since_root_ = 0;
      switch_to(next_or_root(), false);
      continue;
    }
    if (done_ == spawned_) return RunEnd::Finished;
    if (!idle() && ready_count_ == 0) return RunEnd::Blocked;
  }
}

void Scheduler::stop(bool keep_segment) {
  stopping_ = true;
  current_->state = TaskState::Blocked;
  if (keep_segment) root_.data_base = current_->data_base;
  switch_to(root_, false);
  std::abort(); // a stopped fiber is never resumed
}

namespace {

/// What run_for hands the service stack; copied there at once, since it lies on the stack of
/// the fiber that is about to be copied out.
struct ServiceCall {
  Scheduler* sched;
  const Task* owner;
  void (*fn)(void*);
  void* arg;
};

} // namespace

void Scheduler::run_in_place(const Task& owner, void (*fn)(void*), void* arg) {
  if (in_service_ || current_ == &root_ || !pool_.same_slot(current_->index, owner.index)) {
    // No running code is on the owner's stack: the fiber it shares with is switched out.
    pool_.unpark(owner.index);
    fn(arg);
    return;
  }
  if (!service_ctx_) {
    void* p = mmap(nullptr, kServiceStack, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      std::perror("mpisim: cannot map the scheduler's service stack");
      std::abort();
    }
    mprotect(p, 4096, PROT_NONE); // a guard page below it
    service_stack_ = p;
    service_ctx_ = bctx::make_fcontext(static_cast<char*>(p) + kServiceStack, kServiceStack - 4096,
                                       &service_entry);
  }
  ServiceCall call{this, &owner, fn, arg};
  service_ctx_ = bctx::jump_fcontext(service_ctx_, &call).fctx;
}

void Scheduler::service_entry(bctx::transfer_t t) {
  for (;;) {
    const ServiceCall call = *static_cast<const ServiceCall*>(t.data);
    call.sched->serve_in_place(*call.owner, call.fn, call.arg, t.fctx);
    t = bctx::jump_fcontext(t.fctx, nullptr);
  }
}

void Scheduler::serve_in_place(const Task& owner, void (*fn)(void*), void* arg, void* caller_ctx) {
  Task& caller = *current_;
  pool_.park(caller.index, caller_ctx); // its used part, up to the context just saved
  in_service_ = true;
  pool_.unpark(owner.index); // the caller's stack out, the owner's in
  fn(arg);
  in_service_ = false;
  pool_.unpark(caller.index);
}

void Scheduler::save_runtime(Task& task) {
  if (switch_streams_) mpilite::save_streams(*task.libc.streams, g_streams);
  if (exceptions_) task.libc.regs.exceptions = *exceptions_;
  if (switch_environment_ && &task == &root_) host_environment_ = environ;
}

void Scheduler::load_runtime(Task& task) {
  if (switch_streams_) mpilite::load_streams(*task.libc.streams, g_streams);
  if (exceptions_) *exceptions_ = task.libc.regs.exceptions;
  if (switch_dirs_) enter_directory(task);
  if (switch_random_) enter_random_state(task);
  if (switch_environment_) enter_environment(task);
}

void Scheduler::enter_environment(const Task& task) {
  char** own = task.libc.hidden ? task.libc.hidden->environment : nullptr;
  environ = own ? own : host_environment_;
}

bool Scheduler::own_environment() {
  if (!switch_environment_) {
    host_environment_ = environ;
    switch_environment_ = true;
    switch_runtime_ = true;
  }
  LibcHidden& h = hidden_of(*current_);
  if (h.environment) return true;
  // The strings stay shared: no one writes them.
  std::size_t n = 0;
  while (environ && environ[n])
    ++n;
  auto** copy = static_cast<char**>(std::malloc((n + 1) * sizeof(char*)));
  if (!copy) return false;
  for (std::size_t i = 0; i < n; ++i)
    copy[i] = environ[i];
  copy[n] = nullptr;
  h.environment = environ = copy;
  return true;
}

void Scheduler::environment_changed() {
  hidden_of(*current_).environment = environ;
}

LibcHidden& Scheduler::hidden_of(Task& task) {
  if (!task.libc.hidden) task.libc.hidden = std::make_unique<LibcHidden>();
  return *task.libc.hidden;
}

namespace {

// The system call itself: fchdir() is the ranks' (cwd_interpose.cpp), which calls back here.
void set_directory(int fd) {
  (void)syscall(SYS_fchdir, fd);
}

} // namespace

void Scheduler::enter_directory(const Task& task) {
  const int dir = task.libc.hidden ? task.libc.hidden->dir : -1;
  if (dir == dir_now_) return;
  // It cannot fail: the descriptor is of a directory, kept open (even if it was removed since).
  set_directory(dir >= 0 ? dir : host_dir_);
  dir_now_ = dir;
}

void Scheduler::enter_random_state(const Task& task) {
  void* state = task.libc.hidden ? task.libc.hidden->fortran_random : nullptr;
  if (state == random_now_) return;
  pthread_setspecific(random_key_, state);
  random_now_ = state;
}

void Scheduler::keep_random_states(pthread_key_t key) {
  random_key_ = key;
  std::free(pthread_getspecific(key)); // made to find the key, and used by no one
  pthread_setspecific(key, nullptr);
  random_now_ = nullptr;
  switch_random_ = true;
  switch_runtime_ = true;
}

void Scheduler::random_state_used() {
  LibcHidden& h = hidden_of(*current_);
  if (h.fortran_random) return;
  h.fortran_random = random_now_ = pthread_getspecific(random_key_);
}

bool Scheduler::keep_directories() {
  if (switch_dirs_) return true;
  host_dir_ = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (host_dir_ < 0) return false;
  switch_dirs_ = true;
  switch_runtime_ = true;
  return true;
}

bool Scheduler::directory_changed() {
  LibcHidden& h = hidden_of(*current_);
  const int dir = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) {
    const int err = errno;
    set_directory(h.dir >= 0 ? h.dir : host_dir_); // dir_now_ still names h.dir
    errno = err;
    return false;
  }
  if (h.dir >= 0) close(h.dir);
  h.dir = dir;
  dir_now_ = dir;
  return true;
}

void Scheduler::release_finished() {
  pool_.release(static_cast<std::size_t>(finished_slot_));
  finished_slot_ = -1;
}

void Scheduler::begin_fiber(void* from_ctx, void* from_task) {
  auto* from = static_cast<Task*>(from_task);
#if defined(MPISIM_ASAN)
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(nullptr, &old_bottom, &old_size);
  if (from == &root_)
    root_.stack = {static_cast<std::byte*>(const_cast<void*>(old_bottom)), old_size};
#endif
  load_libc(current_->libc.regs, errno_);
  if (switch_runtime_) load_runtime(*current_);
  after_switch(*from, from_ctx);
  current_->entry(current_->arg);
  finish_current();
}

void Scheduler::finish_current() {
  current_->state = TaskState::Done;
  ++done_;
  finished_slot_ = static_cast<long>(current_->index);
  switch_to(next_or_root(), true);
  std::abort(); // a finished fiber is never resumed
}

} // namespace mpilite
