#include "world.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

#include "idle_hooks.hpp"
#include "overflow_guard.hpp"

#if defined(MPISIM_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#endif

namespace mpilite {

World* World::current_ = nullptr;

namespace {
constexpr MPI_Datatype kDerivedTypeBase = static_cast<MPI_Datatype>(0x8c000000);
constexpr MPI_Request kRequestBase = static_cast<MPI_Request>(0xac000000);
constexpr std::uint32_t kIndexMask = 0x00ffffff;

// A rank's state shares the top page of its stack with its fiber's first frames (a rank blocked
// in MPI_Recv uses about 1 KiB of that page), so that neither costs a page of its own.
static_assert(sizeof(Rank) <= 2048, "a rank's state must leave its stack's top page to frames");

/// A rank's state at `at` (the top reserve of its stack), or on the heap when `at` is null.
RankPtr make_rank(void* at) {
  if (!at) return RankPtr(new Rank());
#if defined(MPISIM_ASAN)
  // The memory may have held the frames of a fiber of an earlier run, still poisoned; and what
  // the rank's state points to must stay reachable for LeakSanitizer, which scans no stacks.
  __asan_unpoison_memory_region(at, sizeof(Rank));
  __lsan_register_root_region(at, sizeof(Rank));
#endif
  return RankPtr(new (at) Rank(), RankDeleter{true});
}

/// Stack copying: how many switched-out stacks wait to be parked together. A batch of 1 024
/// makes the system calls cheap at scale; an eighth of the ranks below 8 192 keeps a smaller
/// run's stacks parked too, rather than never (its batch would not fill), as the tests need.
std::size_t park_batch(std::size_t ranks) {
  return std::clamp<std::size_t>(ranks / 8, 1, 1024);
}

} // namespace

void RankDeleter::operator()(Rank* r) const {
  if (!in_place) {
    delete r;
    return;
  }
  r->~Rank();
#if defined(MPISIM_ASAN)
  __lsan_unregister_root_region(r, sizeof(Rank));
#endif
}

void World::refuse_on_shared_stack(const void* addr, std::string_view what) {
  if (!sched_.stacks().on_shared_stack(addr)) return;
  stop(RunEnd::FatalError, 1,
       fmt::format("rank {}: {} lies on a rank's stack, which ranks share while stacks are "
                   "copied into shared stacks (MPISIM_STACK_COPY=shared, the default from "
                   "1 000 000 ranks per host process), and other ranks' code could not reach it "
                   "there; allocate it with malloc or MPI_Alloc_mem, or set MPISIM_STACK_COPY=on",
                   self().id, what));
}

World::World(const Kernel& kernel, int world_size, std::vector<int> local_ranks,
             std::size_t stack_size, bool copy_stacks, bool state_in_stack,
             std::size_t shared_slots)
    : kernel_(kernel), world_size_(world_size),
      sched_(local_ranks.size(), stack_size,
             StackPoolOptions{.copy_stacks = copy_stacks,
                              .top_reserve = state_in_stack ? sizeof(Rank) : 0,
                              .park_batch = park_batch(local_ranks.size()),
                              .shared_slots = shared_slots}),
      comms_(world_size, static_cast<int>(local_ranks.size())), keyvals_(world_size),
      decisions_(local_ranks.size()) {
  if (current_) throw std::logic_error("only one simulation may run at a time in a process");
  current_ = this;
  first_local_ = local_ranks.empty() ? 0 : local_ranks.front();
  for (std::size_t i = 0; i < local_ranks.size(); ++i)
    if (local_ranks[i] != first_local_ + static_cast<int>(i)) dense_ = false;
  ranks_.reserve(local_ranks.size());
  // With a guard page per block of stacks (older kernels, many ranks), an overflow may run
  // through its neighbours' stacks before it is caught: it must not reach their ranks' states.
  states_in_stacks_ = state_in_stack && sched_.stacks().check() == OverflowCheck::GuardPage;
  for (int id : local_ranks) {
    RankPtr r = make_rank(states_in_stacks_ ? sched_.stacks().reserved(ranks_.size()) : nullptr);
    r->id = id;
    r->task.index = ranks_.size(); // its stack slot, and its slot of decisions_
    ranks_.push_back(std::move(r));
  }
  rank_of_slot_ = std::move(local_ranks);
  set_overflow_rank_names(rank_of_slot_.data(), sched_.stacks().stack_size());
}

void World::end(std::unique_ptr<World> world) {
  const bool teams_left = std::any_of(world->ranks_.begin(), world->ranks_.end(),
                                      [](const auto& r) { return team_in_region(*r); });
  if (!teams_left) return; // destroyed here
  world->keep_abandoned_stacks();
  world->detach();
  // Reachable from here to the end: kept on purpose, and not a leak to LeakSanitizer.
  static auto* const kept = new std::vector<std::unique_ptr<World>>;
  kept->push_back(std::move(world));
}

void World::detach() {
  clear_idle_hooks();
  set_overflow_rank_names(nullptr, 0);
  current_ = nullptr;
}

void World::keep_abandoned_stacks() {
  std::vector<std::size_t> abandoned;
  for (const auto& r : ranks_)
    if (r->task.state != TaskState::Done && r->task.stack.bottom)
      abandoned.push_back(r->task.index);
  sched_.keep_for_leak_check(abandoned);
}

World::~World() {
  keep_abandoned_stacks();
  for (Message* m : free_messages_)
    delete m;
  for (auto& r : ranks_)
    while (Message* m = r->unexpected.front()) {
      r->unexpected.erase(m);
      delete m;
    }
  detach();
}

Rank* World::find_sparse(int world_rank) {
  auto it = std::lower_bound(rank_of_slot_.begin(), rank_of_slot_.end(), world_rank);
  if (it == rank_of_slot_.end() || *it != world_rank) return nullptr;
  return ranks_[static_cast<std::size_t>(it - rank_of_slot_.begin())].get();
}

void World::end_of_rank(Rank& r, int status) {
  // As exit() does in a process: the atexit() and on_exit() handlers, newest first (one may
  // register another, which runs next), then the destructors of static objects.
  while (r.rare_state && !r.rare_state->at_exit.empty()) {
    const ExitHandler handler = r.rare_state->at_exit.back();
    r.rare_state->at_exit.pop_back();
    if (handler.with_status)
      handler.with_status(status, handler.arg);
    else
      handler.plain();
  }
  r.globals.finish();
}

void World::rank_entry(void* arg) {
  Rank& r = *static_cast<Rank*>(arg);
  World& w = World::get();
  // Its start and its end are functions of their own: inlined, their locals would take room in
  // this frame, which every blocked rank keeps on its stack (and, copied out, on the heap).
  start_rank(w, r);
  r.exit_code = (*w.main_)(w.argc_, r.argv.get());
  finish_rank(w, r);
}

void World::start_rank(World& w, Rank& r) {
  // Each rank gets its own argv: programs (and getopt) may permute it, and write into its
  // strings. The Rank owns them so that a rank that never returns (exit(), abort, deadlock)
  // leaks nothing; one allocation, since a million ranks pay for each.
  const auto argc = static_cast<std::size_t>(w.argc_);
  std::size_t chars = 0;
  for (std::size_t i = 0; i < argc; ++i)
    chars += std::strlen(w.argv_[i]) + 1;
  const std::size_t slots = argc + 1 + (chars + sizeof(char*) - 1) / sizeof(char*);
  r.argv = std::make_unique_for_overwrite<char*[]>(slots);
  char* text = reinterpret_cast<char*>(r.argv.get() + argc + 1);
  for (std::size_t i = 0; i < argc; ++i) {
    r.argv[i] = text;
    text = ::stpcpy(text, w.argv_[i]) + 1;
  }
  r.argv[argc] = nullptr;
  // Copying the globals' images is the simulator's work; their initializers (C++
  // constructors) run in the rank, before its main, and are charged like its own code.
  r.globals.create(r.task.data_base);
  w.kernel_.hooks.leave_mpi(r); // compute is charged from here
  r.globals.initialize();
}

void World::finish_rank(World& w, Rank& r) {
  end_of_rank(r, r.exit_code);
  w.kernel_.hooks.enter_mpi(r); // charge the compute after the last MPI call
  w.retire(r);
}

RunEnd World::run(const Main& main, int argc, char** argv) {
  main_ = &main;
  argc_ = argc;
  argv_ = argv;
  // Lay the privatized variables out before any rank starts: a conflict between two units
  // then ends the process here, not one rank.
  private_segment_size();
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    Rank& r = *ranks_[i];
    sched_.spawn(r.task, i, &World::rank_entry, &r);
    spawned_.store(i + 1, std::memory_order_relaxed);
  }
  spawned_at_ = HostSteadyClock::now();
  // The idle round's first step from the blocking rank's fiber, when the round would begin with
  // it: with an idle hook registered the hooks act first.
  sched_.set_before_idle(
      [](void* k) {
        return no_idle_hooks() && static_cast<Kernel*>(k)->bounds.settle_before_block();
      },
      &kernel_);
  const auto poll = kernel_.delivery.polls()
                        ? std::function<void()>([this] { kernel_.delivery.poll(); })
                        : std::function<void()>();
  const RunEnd e = sched_.run([this] { return run_idle_hooks() || kernel_.bounds.idle(); }, poll);
  if (e == RunEnd::Finished) end_ = RunEnd::Finished;
  if (e == RunEnd::Blocked && !stopped_when_idle_) end_ = RunEnd::Deadlock;
  // RunEnd::Stopped: stop() set end_.
  return end_;
}

void World::exit_rank(int code, RankExit how) {
  Rank& r = self();
  if (how == RankExit::WithHandlers) end_of_rank(r, code);
  if (r.call_depth == 0) kernel_.hooks.enter_mpi(r); // charge the compute before exit()
  r.exit_code = code;
  r.exited = true;
  // Under mpiexec a process that exits non-zero before MPI_Finalize ends the whole job with its
  // code; after MPI_Finalize (or with code 0) the others go on, as they would in a real job.
  if (code != 0 && r.initialized && !r.finalized) {
    // stop() leaves this fiber for good: no temporary may outlive the message built here.
    std::string message = fmt::format("rank {} called exit({}) before MPI_Finalize", r.id, code);
    if (r.last_call) message += fmt::format(" (its last MPI call: {})", r.last_call);
    message += "; as under mpiexec, the run ends with its code";
    stop(RunEnd::Abort, code, std::move(message));
  }
  retire(r);
  sched_.finish_current();
}

void World::stop(RunEnd why, int exit_code, std::string message) {
  end_ = why;
  exit_code_ = exit_code;
  stop_message_ = std::move(message);
  sched_.stop(in_rank() && team_in_region(self()));
}

void World::stop_when_idle(RunEnd why, int exit_code, std::string message) {
  end_ = why;
  exit_code_ = exit_code;
  stop_message_ = std::move(message);
  stopped_when_idle_ = true;
}

const Datatype* World::datatype(MPI_Datatype h) const {
  if (const Datatype* t = builtin_datatype(h)) return t;
  if ((h & ~static_cast<int>(kIndexMask)) != kDerivedTypeBase) return nullptr;
  const std::size_t i = static_cast<std::uint32_t>(h) & kIndexMask;
  if (i >= datatypes_.size() || datatypes_[i].handle != h || datatypes_[i].freed) return nullptr;
  return &datatypes_[i];
}

MPI_Datatype World::add_datatype(Datatype&& t) {
  std::size_t i;
  if (!free_datatypes_.empty()) {
    i = free_datatypes_.back();
    free_datatypes_.pop_back();
    datatypes_[i] = std::move(t);
  } else {
    i = datatypes_.size();
    datatypes_.push_back(std::move(t));
  }
  datatypes_[i].handle = kDerivedTypeBase | static_cast<int>(i);
  datatypes_[i].users = 0;
  datatypes_[i].freed = false;
  return datatypes_[i].handle;
}

bool World::free_datatype(MPI_Datatype h) {
  const Datatype* t = datatype(h);
  if (!t || t->predefined) return false;
  const std::size_t i = static_cast<std::uint32_t>(h) & kIndexMask;
  datatypes_[i].freed = true;
  if (t->users == 0) recycle_datatype(i);
  return true;
}

void World::release_datatype(const Datatype& t) {
  if (t.predefined || --t.users > 0 || !t.freed) return;
  recycle_datatype(static_cast<std::uint32_t>(t.handle) & kIndexMask);
}

void World::recycle_datatype(std::size_t i) {
  datatypes_[i] = Datatype{};
  free_datatypes_.push_back(static_cast<std::uint32_t>(i));
}

Request* World::new_request(Rank& owner, RequestKind kind) {
  std::uint32_t i;
  if (!free_requests_.empty()) {
    i = free_requests_.back();
    free_requests_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(requests_.size());
    if (i > kIndexMask) throw std::runtime_error("more than 16 million pending MPI requests");
    requests_.emplace_back();
    request_generation_.push_back(0);
  }
  Request& r = requests_[i];
  // In place: assigning a temporary zeroed it with a slow string store and moved every member.
  // Default-initialized, not value-initialized: every member has its initializer, and value
  // initialization zeroed all 264 bytes first, with that same string store.
  std::destroy_at(&r);
  ::new (static_cast<void*>(&r)) Request;
  r.kind = kind;
  r.owner = &owner;
  r.handle = kRequestBase | static_cast<int>(i);
  r.id = (static_cast<std::uint64_t>(++request_generation_[i]) << 24) | i;
  return &r;
}

Request* World::request(MPI_Request h) {
  if ((h & ~static_cast<int>(kIndexMask)) != kRequestBase) return nullptr;
  const std::size_t i = static_cast<std::uint32_t>(h) & kIndexMask;
  if (i >= requests_.size() || !requests_[i].active) return nullptr;
  return &requests_[i];
}

Request* World::request_by_id(std::uint64_t id) {
  const std::size_t i = id & kIndexMask;
  if (i >= requests_.size() || requests_[i].id != id || !requests_[i].active) return nullptr;
  return &requests_[i];
}

void World::free_request(Request* r) {
  if (r->type) release_datatype(*r->type);
  r->type = nullptr;
  r->active = false;
  r->id = 0;
  free_requests_.push_back(static_cast<std::uint32_t>(r->handle) & kIndexMask);
  r->owned.reset();
  r->persistent.reset();
  r->path.reset();
}

std::shared_ptr<void>& World::blocking_hold(const Rank& r) {
  if (blocking_holds_.empty()) blocking_holds_.resize(ranks_.size());
  return blocking_holds_[r.task.index];
}

Message* World::new_message() {
  if (free_messages_.empty()) return new Message();
  Message* m = free_messages_.back();
  free_messages_.pop_back();
  return m;
}

void World::free_message(Message* m) {
  m->packed = nullptr;
  m->no_data = false;
  if (m->heap_capacity > kKeptPayload) {
    m->heap.reset();
    m->heap_capacity = 0;
  }
  m->user_buf = nullptr;
  if (m->user_type) release_datatype(*m->user_type);
  m->user_type = nullptr;
  m->reply_to = 0;
  m->partitions = 0;
  m->path.reset();
  free_messages_.push_back(m);
}

World::ActingFor::ActingFor(World& w, Rank& owner) : w_(w), owner_(owner), saved_(w.acting_for_) {
  w.acting_for_ = &owner;
  ++owner.call_depth; // a non-blocking collective's owner may be in its own code
}

World::ActingFor::~ActingFor() {
  --owner_.call_depth;
  w_.acting_for_ = saved_;
}

void World::defer(void (*fn)(void*), void* arg, const Rank* owner) {
  deferred_.push_back({fn, arg, owner});
  if (matching_depth_ == 0) run_deferred();
}

void World::run_deferred() {
  if (running_deferred_) return; // the running loop below picks the new work up
  running_deferred_ = true;
  // Work may queue more work; it runs in FIFO order in this one loop.
  for (std::size_t i = 0; i < deferred_.size(); ++i) {
    const Deferred d = deferred_[i];
    if (d.owner)
      sched_.run_for(d.owner->task, d.fn, d.arg);
    else
      d.fn(d.arg);
  }
  deferred_.clear();
  running_deferred_ = false;
}

void World::note_undecided(Rank& r) {
  // A finished rank's receives left posted decide nothing (World::retire).
  const SimTime t =
      r.task.state == TaskState::Done ? kTimeInfinity : std::min(r.undecided_key, r.decide_time);
  if (t < kTimeInfinity && !r.in_undecided_list) {
    r.in_undecided_list = true;
    undecided_.push_back(&r);
  }
  decisions_.set(r.task.index, t);
}

void World::note_may_wait_elsewhere(Rank& r) {
  if (r.in_elsewhere_list || whole_world_here()) return;
  r.in_elsewhere_list = true;
  elsewhere_.push_back(&r);
}

void World::await_reply_from_elsewhere(Rank& r) {
  ++r.remote_replies;
  note_may_wait_elsewhere(r);
}

SimTime World::earliest_undecided() {
  return decisions_.min();
}

} // namespace mpilite
