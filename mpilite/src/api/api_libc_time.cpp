// The C library's sleeps and clocks, as a rank's program sees them (MPISIM_LIBC_TIME=simulated,
// docs/model.md, Time): sleep, usleep, nanosleep and clock_nanosleep advance the calling rank's
// clock without blocking the host process (19 ranks that sleep 10 s take 10 s of simulated time,
// not 190 s of wall time), and clock_gettime, gettimeofday, time and timespec_get read the
// rank's clock, so that a program timing itself with them measures what MPI_Wtime measures; so
// do the process CPU-time clocks (clock, getrusage, times, CLOCK_PROCESS_CPUTIME_ID).
//
// Monotonic clocks read the rank's clock (MPI_Wtime's value); real-time clocks read it past the
// run's calendar epoch (World::calendar_epoch_s, MPISIM_EPOCH): one instant for every host
// process, so that the output of a program that prints the time, or seeds random numbers with
// it, is the same on every host count (the central invariant), and with a fixed epoch the same
// for every run. Process CPU-time clocks read it as monotonic ones do.
//
// Only the program's own calls are simulated: those from a rank's fiber, outside MPI calls (user
// callbacks that MPI runs see the host's clocks), on the simulation thread. The simulator reads
// the host's clocks through host_clock.hpp.
#include <errno.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "api_call.hpp"
#include "api_compute.hpp"
#include "host_clock.hpp"
#include "interposed.hpp"

using namespace mpilite;

namespace {

constexpr SimTime kPicosPerNano = 1000;

/// Whether the calling code is the program's, in a rank, with simulated C library time.
bool simulated() {
  World* w = programs_world();
  return w && w->simulated_libc_time;
}

/// What a real-time clock reads at simulated time zero (called when simulated() holds).
std::int64_t epoch_seconds() {
  return World::get().calendar_epoch_s;
}

bool realtime_clock(clockid_t id) {
  return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI;
}
// A rank's process CPU time reads its clock too: an MPI process busy-polls while it waits
// (MPICH's default), so its CPU time is its elapsed time; the host process's is every rank's. A
// thread's CPU time stays the host's: OpenMP codes time each thread's share of a region with it,
// between MPI calls, where it is the thread's own.
bool monotonic_clock(clockid_t id) {
  return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW || id == CLOCK_MONOTONIC_COARSE ||
         id == CLOCK_BOOTTIME || id == CLOCK_PROCESS_CPUTIME_ID;
}

/// `ps` in units of which a second has `per_second`.
std::int64_t in_units(SimTime ps, std::int64_t per_second) {
  return static_cast<std::int64_t>(ps / (kPicosPerSecond / per_second));
}

/// The rank's clock (its compute so far charged first, as MPI_Wtime charges it), read by `call`,
/// as a real-time clock or a monotonic one.
timespec simulated_now(bool realtime, const char* call) {
  const SimTime t = read_clock(call);
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(t / kPicosPerSecond + (realtime ? epoch_seconds() : 0));
  ts.tv_nsec = static_cast<long>(t % kPicosPerSecond / kPicosPerNano);
  return ts;
}

timeval to_timeval(const timespec& ts) {
  return {ts.tv_sec, static_cast<suseconds_t>(ts.tv_nsec / 1000)};
}

/// Advances the rank's clock by a sleep of `ps`, charged as declared compute (MPISIM_Compute):
/// the rank is busy for the simulation, and a recording replays it.
void sleep_for(SimTime ps, const char* call) {
  if (ps > 0) charge_compute(ps, call);
}

SimTime to_ps(const timespec& ts) {
  const SimTime max_seconds = kTimeLimit / kPicosPerSecond;
  // Past the limit of simulated time: charged as the limit, which charge_compute reports.
  if (ts.tv_sec >= max_seconds) return kTimeLimit + 1;
  return static_cast<SimTime>(ts.tv_sec) * kPicosPerSecond +
         static_cast<SimTime>(ts.tv_nsec) * kPicosPerNano;
}

bool valid(const timespec* ts) {
  return ts && ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < 1'000'000'000;
}

} // namespace

extern "C" {

int clock_gettime(clockid_t id, timespec* ts) noexcept {
  if (!(realtime_clock(id) || monotonic_clock(id)) || !simulated())
    return host_clock_gettime(id, ts);
  *ts = simulated_now(realtime_clock(id), "clock_gettime");
  return 0;
}

int gettimeofday(timeval* tv, void* tz) noexcept {
  static const auto host = mpilite::next_symbol<int (*)(timeval*, void*)>("gettimeofday");
  if (!simulated()) return host(tv, tz);
  *tv = to_timeval(simulated_now(true, "gettimeofday"));
  if (tz) *static_cast<struct timezone*>(tz) = {0, 0}; // obsolete: UTC, no DST
  return 0;
}

clock_t clock() noexcept {
  static const auto host = mpilite::next_symbol<clock_t (*)()>("clock");
  if (!simulated()) return host();
  return static_cast<clock_t>(in_units(read_clock("clock"), CLOCKS_PER_SEC));
}

int getrusage(int who, rusage* usage) noexcept {
  static const auto host = mpilite::next_symbol<int (*)(int, rusage*)>("getrusage");
  const int done = host(who, usage);
  if (done != 0 || who != RUSAGE_SELF || !simulated()) return done;
  // The times are the rank's (user time: its clock); the counters (memory, faults) the host's.
  usage->ru_utime = to_timeval(simulated_now(false, "getrusage"));
  usage->ru_stime = {0, 0};
  return done;
}

clock_t times(tms* out) noexcept {
  static const auto host = mpilite::next_symbol<clock_t (*)(tms*)>("times");
  const clock_t done = host(out);
  if (done == static_cast<clock_t>(-1) || !simulated()) return done;
  const auto ticks = static_cast<clock_t>(in_units(read_clock("times"), sysconf(_SC_CLK_TCK)));
  out->tms_utime = ticks;
  out->tms_stime = 0;
  return ticks;
}

time_t time(time_t* out) noexcept {
  static const auto host = mpilite::next_symbol<time_t (*)(time_t*)>("time");
  if (!simulated()) return host(out);
  const time_t now = simulated_now(true, "time").tv_sec;
  if (out) *out = now;
  return now;
}

int timespec_get(timespec* ts, int base) noexcept {
  static const auto host = mpilite::next_symbol<int (*)(timespec*, int)>("timespec_get");
  if (base != TIME_UTC || !simulated()) return host(ts, base);
  *ts = simulated_now(true, "timespec_get");
  return base;
}

int nanosleep(const timespec* req, timespec* rem) {
  static const auto host = mpilite::next_symbol<int (*)(const timespec*, timespec*)>("nanosleep");
  if (!simulated()) return host(req, rem);
  if (!valid(req)) {
    errno = EINVAL;
    return -1;
  }
  sleep_for(to_ps(*req), "nanosleep");
  return 0;
}

int clock_nanosleep(clockid_t id, int flags, const timespec* req, timespec* rem) {
  static const auto host =
      mpilite::next_symbol<int (*)(clockid_t, int, const timespec*, timespec*)>("clock_nanosleep");
  if (!(realtime_clock(id) || monotonic_clock(id)) || !simulated())
    return host(id, flags, req, rem);
  if (!valid(req)) return EINVAL;
  SimTime ps = to_ps(*req);
  if (flags & TIMER_ABSTIME) { // until the clock reads *req
    timespec until = *req;
    if (realtime_clock(id)) until.tv_sec -= epoch_seconds();
    const SimTime now = read_clock("clock_nanosleep");
    ps = until.tv_sec < 0 ? 0 : std::max<SimTime>(to_ps(until) - now, 0);
  }
  sleep_for(ps, "clock_nanosleep");
  return 0;
}

int usleep(useconds_t usec) {
  static const auto host = mpilite::next_symbol<int (*)(useconds_t)>("usleep");
  if (!simulated()) return host(usec);
  sleep_for(static_cast<SimTime>(usec) * 1'000'000, "usleep");
  return 0;
}

unsigned sleep(unsigned seconds) {
  static const auto host = mpilite::next_symbol<unsigned (*)(unsigned)>("sleep");
  if (!simulated()) return host(seconds);
  sleep_for(static_cast<SimTime>(seconds) * kPicosPerSecond, "sleep");
  return 0;
}

} // extern "C"
