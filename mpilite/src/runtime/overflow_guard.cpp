#include "overflow_guard.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "process_exit.hpp"
#include "rank.hpp"
#include "scheduler.hpp"
#include "world.hpp"

namespace mpilite {
namespace {

const StackPool* g_pool = nullptr;
const int* g_rank_of_slot = nullptr;
std::size_t g_stack_size = 0;
alignas(16) char g_alt_stack[64 * 1024];
bool g_installed = false;
std::atomic<FaultExit> g_fault_exit{nullptr};
volatile sig_atomic_t g_fault_code = 1;
/// How long the fault exit may take before the alarm ends the process.
constexpr unsigned kFaultExitSeconds = 5;

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

const char* signal_text(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV (invalid memory access)";
  case SIGBUS:
    return "SIGBUS (bus error: misaligned or unmapped memory)";
  case SIGFPE:
    return "SIGFPE (arithmetic error, e.g. integer division by zero)";
  case SIGILL:
    return "SIGILL (illegal instruction)";
  case SIGABRT:
    return "SIGABRT (abort() called, e.g. by a failed assert)";
  }
  return "a signal";
}

extern "C" void on_fault_exit_alarm(int) {
  mpilite::end_process_now(g_fault_code);
}

/// Ends the process with `code`, through the fault exit if one is set. The alarm ends it should
/// the rest hang: flushing stdout is not async-signal-safe, but the ranks' lines so far wait in
/// its buffer when it goes to a pipe or a file, and each of MPICH's processes has written them.
[[noreturn]] void end_process(int code) {
  g_fault_code = code;
  struct sigaction sa {};
  sa.sa_handler = &on_fault_exit_alarm;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  alarm(kFaultExitSeconds);
  std::fflush(stdout);
  if (const FaultExit exit_fn = g_fault_exit.load()) exit_fn(code);
  mpilite::end_process_now(code);
}

/// Names the rank whose code received `sig`, then exits as mpiexec reports a killed process.
/// Only async-signal-safe calls and reads of the running rank's fields.
[[noreturn]] void report_fault(int sig, const Rank& r) {
  const bool in_mpi = r.call_depth > 0 && r.call.name;
  const char* call = in_mpi ? r.call.name : r.last_call;
  const char* where = in_mpi ? "in " : call ? "in its own code after " : "in its own code";
  char msg[512];
  const int n = std::snprintf(msg, sizeof msg,
                              "mpisim: rank %d received %s %s%s, at simulated time %.9f s; the "
                              "run ends with code %d, as under mpiexec\n",
                              r.id, signal_text(sig), where, call ? call : "",
                              time_to_seconds(r.clock), 128 + sig);
  if (n > 0) (void)!write(2, msg, std::min(static_cast<std::size_t>(n), sizeof msg - 1));
  end_process(128 + sig);
}

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

void on_fault(int sig, siginfo_t* info, void* ucontext) {
  // Code of another fiber touched a parked stack (a buffer its rank handed to MPI): with the
  // stack back in place, the access is retried and succeeds.
  // The pool is the running scheduler's own (not const): only the report paths take it as const.
  if (sig == SIGSEGV && g_pool && const_cast<StackPool*>(g_pool)->unpark_at(info->si_addr)) return;
  if (sig == SIGSEGV && g_pool) {
    const Scheduler* sched = Scheduler::active();
    const Task* running = sched && sched->in_fiber() ? sched->current() : nullptr;
    if (running) {
      // The fiber that faults is the one that overflowed, whichever stack's guard it reached
      // (with a guard per block of stacks it may have run through its neighbours first).
      if (g_pool->stack_of_guard_address(info->si_addr) >= 0 ||
          g_pool->below_stack(running->index, stack_pointer(ucontext)))
        report_stack_overflow(running->index);
    } else {
      const long slot = g_pool->stack_of_guard_address(info->si_addr);
      if (slot >= 0) report_stack_overflow(static_cast<std::size_t>(slot));
    }
  }
  World* w = World::try_get();
  if (w && w->in_rank()) report_fault(sig, w->self());
  // Not in a rank: the simulator's own fault; the default action produces the usual crash.
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
  sa.sa_sigaction = &on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : kFaultSignals)
    sigaction(sig, &sa, nullptr);
}

void set_fault_exit(FaultExit exit_fn) {
  g_fault_exit.store(exit_fn);
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
  end_process(3);
}

} // namespace mpilite
