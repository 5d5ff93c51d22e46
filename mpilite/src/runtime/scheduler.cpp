#include "scheduler.hpp"

#include <boost/context/detail/fcontext.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cxx_streams.hpp"
#include "overflow_guard.hpp"
#include "privatization.hpp"

#if defined(MPISIM_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace bctx = boost::context::detail;

namespace mpilite {
namespace {
Scheduler* g_active = nullptr;
std::uint64_t g_fibers_spawned = 0; // serials of LibcState
StandardStreams g_streams;          // set by run(), once the streams exist
bool g_switch_streams = false;

void fiber_entry(bctx::transfer_t t) {
  g_active->begin_fiber(t.fctx, t.data);
}
} // namespace

Scheduler* Scheduler::active() {
  return g_active;
}

Scheduler::Scheduler(std::size_t count, std::size_t stack_size, const StackPoolOptions& stacks)
    : pool_(count, stack_size, stacks), ready_(std::bit_ceil(count + 1), nullptr),
      ready_mask_(ready_.size() - 1) {
  root_.state = TaskState::Running;
}

Scheduler::~Scheduler() {
  forget_overflow_guard(pool_);
  if (g_active == this) g_active = nullptr;
}

void Scheduler::spawn(Task& task, std::size_t index, void (*entry)(void*), void* arg) {
  task.index = index;
  task.stack = pool_.stack(index);
  task.entry = entry;
  task.arg = arg;
  task.data_base = nullptr;
  task.libc = LibcState{};
  task.libc.serial = ++g_fibers_spawned;
#if defined(MPISIM_ASAN)
  // The memory may have held the stack of a fiber of an earlier run that never returned (the
  // run ended in a deadlock or an abort): its frames' redzones are still poisoned.
  __asan_unpoison_memory_region(task.stack.bottom, task.stack.size);
#endif
  task.ctx =
      bctx::make_fcontext(task.stack.bottom + task.stack.size, task.stack.size, &fiber_entry);
  task.state = TaskState::Blocked;
  ++spawned_;
  wake(task);
}

void Scheduler::wake(Task& task) {
  if (task.state != TaskState::Blocked) return;
  task.state = TaskState::Ready;
  ready_[(ready_head_ + ready_count_) & ready_mask_] = &task;
  ++ready_count_;
}

Task& Scheduler::next_or_root() {
  if (ready_count_ == 0) return root_;
  Task* t = ready_[ready_head_];
  ready_head_ = (ready_head_ + 1) & ready_mask_;
  --ready_count_;
  return *t;
}

RunEnd Scheduler::run(const std::function<bool()>& idle, const std::function<void()>& poll,
                      std::size_t poll_every) {
  g_active = this;
  errno_ = &errno; // fibers run on the thread that runs them
  g_streams = StandardStreams::find();
  g_switch_streams = standard_streams_named();
  install_overflow_guard(pool_);
  poll_every_ = poll ? poll_every : 0;
  for (;;) {
    if (stopping_) return RunEnd::Stopped;
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

void Scheduler::block() {
  current_->state = TaskState::Blocked;
  // Every so often the root runs between two fibers, to poll for work from outside.
  Task& next = poll_every_ && ++since_root_ >= poll_every_ ? root_ : next_or_root();
  if (&next == current_) { // woken again before we left: just go on
    current_->state = TaskState::Running;
    return;
  }
  switch_to(next, false);
}

void Scheduler::stop() {
  stopping_ = true;
  current_->state = TaskState::Blocked;
  switch_to(root_, false);
  std::abort(); // a stopped fiber is never resumed
}

void Scheduler::switch_to(Task& to, bool from_dies) {
  Task* from = current_;
  if (from != &root_ && (!pool_.canary_intact(from->index) ||
                         pool_.below_stack(from->index, __builtin_frame_address(0))))
    report_stack_overflow(from->index);
  current_ = &to;
  to.state = TaskState::Running;
  switch_segment(to.data_base);
  save_libc(from->libc.regs, errno_);
  if (g_switch_streams) save_streams(from->libc.streams, g_streams);
  ++switches_;
#if defined(MPISIM_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(from_dies ? nullptr : &fake, to.stack.bottom, to.stack.size);
#else
  (void)from_dies;
#endif
  bctx::transfer_t t = bctx::jump_fcontext(to.ctx, from);
#if defined(MPISIM_ASAN)
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(fake, &old_bottom, &old_size);
#endif
  static_cast<Task*>(t.data)->ctx = t.fctx;
  load_libc(from->libc.regs, errno_); // back in `from`: its errno, optind, ...
  if (g_switch_streams) load_streams(from->libc.streams, g_streams);
  after_switch();
}

void Scheduler::after_switch() {
  if (finished_slot_ >= 0) {
    pool_.release(static_cast<std::size_t>(finished_slot_));
    finished_slot_ = -1;
  }
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
  from->ctx = from_ctx;
  load_libc(current_->libc.regs, errno_);
  if (g_switch_streams) load_streams(current_->libc.streams, g_streams);
  after_switch();
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
