#include "overflow_guard.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scheduler.hpp"

namespace mpilite {
namespace {

const StackPool* g_pool = nullptr;
const int* g_rank_of_slot = nullptr;
std::size_t g_stack_size = 0;
alignas(16) char g_alt_stack[64 * 1024];
bool g_installed = false;

const void* stack_pointer(void* ucontext) {
  const auto* uc = static_cast<const ucontext_t*>(ucontext);
#if defined(__x86_64__)
  return reinterpret_cast<const void*>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return reinterpret_cast<const void*>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return nullptr;
#endif
}

void on_segv(int sig, siginfo_t* info, void* ucontext) {
  const Scheduler* sched = Scheduler::active();
  const Task* running = sched && sched->in_fiber() ? sched->current() : nullptr;
  if (g_pool && running) {
    // The fiber that faults is the one that overflowed, whichever stack's guard it reached
    // (with a guard per block of stacks it may have run through its neighbours first).
    if (g_pool->stack_of_guard_address(info->si_addr) >= 0 ||
        g_pool->below_stack(running->index, stack_pointer(ucontext)))
      report_stack_overflow(running->index);
  } else if (g_pool) {
    const long slot = g_pool->stack_of_guard_address(info->si_addr);
    if (slot >= 0) report_stack_overflow(static_cast<std::size_t>(slot));
  }
  // Not an overflow: let the default action produce the usual crash.
  signal(sig, SIG_DFL);
  raise(sig);
}

} // namespace

void install_overflow_guard(const StackPool& pool) {
  g_pool = &pool;
  if (g_installed) return;
  g_installed = true;
  stack_t ss{};
  ss.ss_sp = g_alt_stack;
  ss.ss_size = sizeof g_alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = &on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, nullptr);
}

void forget_overflow_guard(const StackPool& pool) {
  if (g_pool == &pool) g_pool = nullptr;
}

void set_overflow_rank_names(const int* rank_of_slot, std::size_t stack_size) {
  g_rank_of_slot = rank_of_slot;
  g_stack_size = stack_size;
}

void report_stack_overflow(std::size_t slot) {
  // Only async-signal-safe calls: this runs inside the SIGSEGV handler.
  char msg[256];
  const int rank = g_rank_of_slot ? g_rank_of_slot[slot] : static_cast<int>(slot);
  const int n = std::snprintf(msg, sizeof msg,
                              "mpisim: rank %d overflowed its stack (%zu KiB); set MPISIM_STACK "
                              "to a larger size, e.g. MPISIM_STACK=%zuKiB\n",
                              rank, g_stack_size / 1024, g_stack_size / 1024 * 4);
  if (n > 0) (void)!write(2, msg, static_cast<std::size_t>(n));
  _exit(3);
}

} // namespace mpilite
