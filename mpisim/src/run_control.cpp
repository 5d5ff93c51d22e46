#include "run_control.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "host_clock.hpp"
#include "memory_fit.hpp"
#include "process_exit.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

// The host's clock: this code also runs in ranks' fibers, where the program's clock reads are
// simulated.
using Clock = mpilite::HostSteadyClock;

/// The progress line appears once a run has taken this long, then every second on a terminal
/// (rewritten in place) or every ten seconds elsewhere (one line each).
constexpr std::chrono::seconds kProgressAfter{3};
constexpr std::chrono::seconds kProgressEveryOnTerminal{1};
constexpr std::chrono::seconds kProgressEvery{10};
/// How long a stop request may wait for the running rank to enter MPI.
constexpr std::chrono::seconds kGrace{2};
constexpr std::chrono::milliseconds kTick{100};
// /proc/meminfo is read at most this often.
constexpr std::chrono::milliseconds kMemoryCheckEvery{500};
/// Ranks the emergency report lists one by one.
constexpr std::size_t kListedRanks = 16;

// Written by the SIGINT/SIGTERM handler (lock-free atomics are async-signal-safe), read by the
// watchdog.
std::atomic<int> g_signal{0};
std::atomic<int> g_signals{0};
struct sigaction g_old_int, g_old_term;

extern "C" void on_stop_signal(int sig) {
  g_signal.store(sig);
  g_signals.fetch_add(1);
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

} // namespace

RunControl::RunControl(const Config& config, bool reporting)
    : config_(config), reporting_(reporting && config.progress),
      terminal_(isatty(STDERR_FILENO) == 1),
      time_limit_(config.time_limit.value_or(mpilite::kTimeInfinity)), started_(Clock::now()) {
  g_signal.store(0);
  g_signals.store(0);
  struct sigaction sa {};
  sa.sa_handler = &on_stop_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
  watchdog_ = std::thread([this] { watch(); });
}

RunControl::~RunControl() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  watchdog_.join();
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  if (progress_shown_ && terminal_) std::fputs("\n", stderr);
}

void RunControl::watch() {
  std::unique_lock lock(mutex_);
  Clock::time_point stop_asked{};
  bool stopping = false;
  Clock::time_point next_progress = started_ + kProgressAfter;
  Clock::time_point next_memory_check = started_;
  Clock::time_point alive_asked{};
  bool own_code_noted = false;
  while (!wake_.wait_for(lock, kTick, [this] { return quit_; })) {
    const auto now = Clock::now();
    if (config_.own_code_note && !own_code_noted && !stopping) {
      if (!(due_.load(std::memory_order_acquire) & kAlive)) {
        alive_asked = now;
        due_.fetch_or(kAlive, std::memory_order_release);
      } else {
        own_code_noted = note_own_code(alive_asked);
      }
    }
    if (!stopping) {
      const int sig = g_signal.load();
      const bool wall = config_.wall_limit &&
                        now - started_ >= std::chrono::duration<double>(
                                              mpilite::time_to_seconds(*config_.wall_limit));
      if (config_.memory_reserve && now >= next_memory_check) {
        next_memory_check = now + kMemoryCheckEvery;
        if (const auto left = available_memory(); left && *left < config_.memory_reserve)
          memory_left_.store(std::max<std::uint64_t>(*left, 1));
      }
      if (sig || wall || memory_left_.load()) {
        stop_signal_.store(sig);
        stopping = true;
        stop_asked = now;
        due_.fetch_or(kStop, std::memory_order_release);
      }
    } else if (!acknowledged_.load() && (now - stop_asked >= kGrace || g_signals.load() > 1)) {
      end_without_rank_returning();
    }
    if (reporting_ && now >= next_progress) {
      if (const std::string line = setup_line(); !line.empty()) {
        show_progress(line);
      } else {
        due_.fetch_or(kProgress, std::memory_order_release);
      }
      next_progress = now + (terminal_ ? kProgressEveryOnTerminal : kProgressEvery);
    }
  }
}

std::string RunControl::stop_reason() const {
  const int sig = stop_signal_.load();
  if (sig) return fmt::format("interrupted by {}", signal_name(sig));
  if (const std::uint64_t left = memory_left_.load())
    return fmt::format("the machine has only {} of memory left (MPISIM_MEMORY_RESERVE is {}): "
                       "the ranks need more than it has; run fewer ranks per host process (more "
                       "host processes, on other machines), a smaller MPISIM_STACK or a smaller "
                       "problem",
                       format_size(left), format_size(config_.memory_reserve));
  return fmt::format("MPISIM_WALL_LIMIT reached: the run took more than {} of wall time",
                     format_time(*config_.wall_limit));
}

bool RunControl::handle(mpilite::Rank* rank) {
  const int due = due_.fetch_and(~(kProgress | kAlive), std::memory_order_acquire);
  if ((due & kProgress) && !acknowledged_.load()) {
    show_progress(progress_line());
  }
  std::string why;
  int code = kLimitExitCode;
  if (due & kStop) {
    why = stop_reason();
    if (const int sig = stop_signal_.load())
      code = 128 + sig;
    else if (memory_left_.load())
      code = 1; // not a limit the user set: the run failed
  } else if (rank && rank->clock > time_limit_) {
    why = fmt::format("MPISIM_TIME_LIMIT reached: rank {} passed {} of simulated time", rank->id,
                      format_time(time_limit_));
  } else {
    return true;
  }
  acknowledged_.store(true);
  if (progress_shown_ && terminal_) std::fputs("\n", stderr);
  progress_shown_ = false;
  if (rank) {
    std::string message =
        fmt::format("{}; rank {} was entering {} at simulated time {:.9f} s", why, rank->id,
                    rank->call.name ? rank->call.name : "the end of its main",
                    mpilite::time_to_seconds(rank->clock));
    // stop() leaves this fiber for good: nothing of its frame is destroyed.
    std::string().swap(why);
    world_.load()->stop(mpilite::RunEnd::Limit, code, std::move(message));
  }
  world_.load()->stop_when_idle(mpilite::RunEnd::Limit, code,
                                why + "; every rank of this host process was waiting" +
                                    waiting_calls());
  return false;
}

std::string RunControl::waiting_calls() const {
  // A rank that polls (MPI_Test in a loop) waits in the idle loop too: say where each one is, so
  // the message names the same call whichever side of a poll the limit fell on.
  constexpr int kNamed = 4;
  std::string list;
  int named = 0;
  for (const auto& r : world_.load()->ranks()) {
    if (r->task.state == mpilite::TaskState::Done || !r->call.name) continue;
    if (named++ == kNamed) {
      list += ", ...";
      break;
    }
    list += fmt::format("{}rank {} in {}", list.empty() ? "" : ", ", r->id, r->call.name);
  }
  return list.empty() ? list : " (" + list + ")";
}

void RunControl::show_progress(const std::string& line) {
  std::fprintf(stderr, terminal_ ? "\r%s   " : "%s\n", line.c_str());
  progress_shown_ = true;
}

std::string RunControl::setup_line() const {
  const mpilite::World* world = world_.load();
  if (!world)
    return fmt::format("mpisim: {:.0f} s: setting up {} ranks: mapping their stacks and building "
                       "their state",
                       seconds_since(started_), config_.ranks);
  const std::size_t spawned = world->spawned(), local = world->ranks().size();
  if (spawned >= local) return "";
  return fmt::format("mpisim: {:.0f} s: setting up {} ranks: {} of {} spawned{}",
                     seconds_since(started_), config_.ranks, spawned, local,
                     world->size() != static_cast<int>(local) ? " on host 0" : "");
}

std::string RunControl::progress_line() const {
  const mpilite::World& world = *world_.load();
  std::size_t finished = 0;
  SimTime reached = 0;
  for (const auto& r : world.ranks()) {
    if (r->task.state == mpilite::TaskState::Done) ++finished;
    reached = std::max(reached, r->clock);
  }
  return fmt::format("mpisim: {:.0f} s: {} of {} ranks finished{}, simulated time {}, {} messages",
                     seconds_since(started_), finished, world.ranks().size(),
                     !world.whole_world_here() ? " on host 0" : "", format_time(reached),
                     world.local_messages + world.remote_messages);
}

bool RunControl::note_own_code(Clock::time_point asked) {
  const auto quiet = Clock::now() - asked;
  if (quiet < std::chrono::duration<double>(mpilite::time_to_seconds(*config_.own_code_note)))
    return false;
  // Read while the rank runs (a moment old at worst): its id and last call stay as they are
  // until it calls MPI, and a rank inside MPI (a long copy, a user's reduction) is not noted.
  mpilite::World* world = world_.load();
  if (!world || !setup_line().empty() || !world->in_rank()) return false;
  const mpilite::Rank& r = world->self();
  if (r.call_depth != 0) return false;
  const std::string text = fmt::format(
      "mpisim: note: rank {} has run its own code for {:.0f} s of host time without calling "
      "MPI{}{}. "
      "A long computation is fine. But if it waits for memory that another rank writes (a flag "
      "in a shared-memory window, a counter other ranks increment), it waits forever: under "
      "mpisim the ranks of a host process take turns, and another rank runs only when this one "
      "calls MPI. Put an MPI call in the waiting loop (MPI_Win_sync, MPI_Iprobe), or stop the "
      "run (Ctrl-C, MPISIM_WALL_LIMIT); MPISIM_OWN_CODE_NOTE=off silences this note\n",
      r.id, std::chrono::duration<double>(quiet).count(), r.last_call ? " since " : "",
      r.last_call ? r.last_call : "");
  if (progress_shown_ && terminal_) std::fputs("\n", stderr);
  (void)!write(STDERR_FILENO, text.data(), text.size());
  return true;
}

void RunControl::end_without_rank_returning() {
  // The simulation thread is stuck in a rank's own code: read what can be read (racing with it,
  // so figures may be a moment old) and end the process.
  std::fflush(stdout);
  const int sig = stop_signal_.load();
  const int code = sig ? 128 + sig : kLimitExitCode;
  mpilite::World* world = world_.load();
  if (const std::string setup = setup_line(); !setup.empty()) {
    // No rank has run: there is nothing to report but how far the set-up came.
    const std::string text =
        fmt::format("mpisim: {}; the run ends with code {} during its set-up ({})\n", stop_reason(),
                    code, setup.substr(8));
    (void)!write(STDERR_FILENO, text.data(), text.size());
    mpilite::end_process_now(code);
  }
  const mpilite::Rank* running = world->in_rank() ? &world->self() : nullptr;
  std::string text = fmt::format("mpisim: {}; ", stop_reason());
  if (running)
    text += fmt::format("rank {} is running its own code{}{} and has not returned to MPI for {} s",
                        running->id, running->last_call ? " after " : "",
                        running->last_call ? running->last_call : "", kGrace.count());
  else
    text += fmt::format("the simulator did not reach a point where it could stop for {} s",
                        kGrace.count());
  text += fmt::format("; the run ends with code {} and this partial report:\n", code);
  text += "==== mpisim report (partial) ====\n";
  std::size_t finished = 0;
  SimTime reached = 0;
  std::string listed;
  std::size_t seen = 0;
  for (const auto& r : world->ranks()) {
    const bool done = r->task.state == mpilite::TaskState::Done;
    finished += done ? 1 : 0;
    reached = std::max(reached, r->clock);
    if (seen++ < kListedRanks)
      listed += fmt::format("  rank {}: {} at simulated time {:.9f} s\n", r->id,
                            done                 ? "finished"
                            : r.get() == running ? "running"
                                                 : "waiting",
                            mpilite::time_to_seconds(r->clock));
  }
  text += fmt::format("predicted time so far: {:.12f} s (the largest clock)\n",
                      mpilite::time_to_seconds(reached));
  text += fmt::format("ranks finished: {} of {}; messages: {}\n", finished, world->ranks().size(),
                      world->local_messages + world->remote_messages);
  text += listed;
  (void)!write(STDERR_FILENO, text.data(), text.size());
  mpilite::end_process_now(code);
}

} // namespace mpisim
