// Fiber stacks and the scheduler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scheduler.hpp"
#include "stack_pool.hpp"

namespace {

using mpilite::OverflowCheck;
using mpilite::StackPool;

TEST(StackPool, FewStacksGetGuardPages) {
  StackPool pool(4, 64 * 1024);
  ASSERT_EQ(pool.check(), OverflowCheck::GuardPage);
  for (std::size_t i = 0; i < 4; ++i) {
    const mpilite::Stack s = pool.stack(i);
    EXPECT_EQ(s.size, 64u * 1024);
    EXPECT_EQ(pool.stack_of_guard_address(s.bottom - 1), static_cast<long>(i));
    EXPECT_EQ(pool.stack_of_guard_address(s.bottom), -1);
    s.bottom[0] = std::byte{1}; // the whole stack is writable
    s.bottom[s.size - 1] = std::byte{1};
  }
}

TEST(StackPool, PastTheMappingBudgetAGuardPageCoversABlockOfStacks) {
  // Without kernel guard regions each guard page costs two mappings; 1000 mappings give 500
  // guards, one per 80 of 40 000 stacks.
  StackPool pool(40000, 16 * 1024, {.kernel_guard_regions = false, .mapping_budget = 1000});
  ASSERT_EQ(pool.check(), OverflowCheck::GuardPerBlock);
  EXPECT_EQ(pool.stacks_per_guard(), 80u);
  EXPECT_EQ(pool.describe(), "a guard page per 80 stacks + canary + stack pointer");
  EXPECT_EQ(pool.stack_of_guard_address(pool.stack(160).bottom - 1), 160);
  EXPECT_EQ(pool.stack_of_guard_address(pool.stack(161).bottom - 1), -1);
  EXPECT_TRUE(pool.below_stack(161, pool.stack(161).bottom - 1));
  EXPECT_FALSE(pool.below_stack(161, pool.stack(161).bottom));
  EXPECT_TRUE(pool.canary_intact(12345));
  pool.stack(12345).bottom[8] = std::byte{0x5a}; // a stack used to its very bottom
  EXPECT_FALSE(pool.canary_intact(12345));
  EXPECT_TRUE(pool.canary_intact(12346));
}

std::size_t mappings() {
  std::ifstream maps("/proc/self/maps");
  std::size_t n = 0;
  for (std::string line; std::getline(maps, line);)
    ++n;
  return n;
}

TEST(StackPool, KernelGuardRegionsGuardEveryStackWithoutMappings) {
  const std::size_t before = mappings();
  StackPool pool(40000, 16 * 1024);
  if (pool.describe() != "kernel guard pages")
    GTEST_SKIP() << "the kernel has no guard regions (Linux 6.13)";
  EXPECT_EQ(pool.check(), OverflowCheck::GuardPage);
  EXPECT_LT(mappings(), before + 10); // 40 000 guarded stacks in a handful of 1 GiB chunks
  EXPECT_EQ(pool.stack_of_guard_address(pool.stack(39999).bottom - 1), 39999);
}

TEST(StackPool, SizesAreRoundedUpToPages) {
  StackPool pool(1, 20000);
  EXPECT_EQ(pool.stack_size() % 4096, 0u);
  EXPECT_GE(pool.stack_size(), 20000u);
}

TEST(StackPool, TheTopReserveLiesAboveTheStackAndOutlivesItsRelease) {
  // Enough stacks that their releases fill a batch and are given back at once.
  constexpr std::size_t kStacks = 1100;
  constexpr std::size_t kPage = 4096;
  StackPool pool(kStacks, 16 * 1024, {.top_reserve = 900});
  EXPECT_EQ(pool.stack_size(), 16u * 1024);
  for (std::size_t i = 0; i < kStacks; ++i) {
    const mpilite::Stack s = pool.stack(i);
    auto* reserve = static_cast<std::byte*>(pool.reserved(i));
    ASSERT_GE(s.size, 16u * 1024); // the size asked for, below a page more for the reserve
    ASSERT_EQ(s.bottom + s.size, reserve);
    ASSERT_EQ((s.size + 960) % kPage, 0u); // 900 bytes, rounded up to 64
    // With its guard page, a slot spans an odd number of pages (page colours).
    ASSERT_EQ(((s.size + 960) / kPage + 1) % 2, 1u);
    std::memset(reserve, 0x5a, 900);
    std::memset(s.bottom, 0x33, s.size);
  }
  for (std::size_t i = 0; i < kStacks; ++i)
    pool.release(i);
  // The first 1 024 were given back: their stacks read as zero again, all but the top page,
  // which their reserves share.
  for (std::size_t i : {std::size_t{0}, std::size_t{1023}}) {
    const mpilite::Stack s = pool.stack(i);
    const auto* reserve = static_cast<const std::byte*>(pool.reserved(i));
    const std::byte* top_page = reserve + 960 - kPage;
    EXPECT_EQ(s.bottom[0], std::byte{0});
    EXPECT_EQ(top_page[-1], std::byte{0});
    EXPECT_EQ(top_page[0], std::byte{0x33});
    EXPECT_EQ(reserve[0], std::byte{0x5a});
    EXPECT_EQ(reserve[899], std::byte{0x5a});
  }
}

TEST(StackPool, CopiedStacksKeepNoTopReserve) {
  EXPECT_THROW(StackPool(2, 64 * 1024, {.copy_stacks = true, .top_reserve = 900}),
               std::logic_error);
  EXPECT_THROW(StackPool(2, 64 * 1024, {.top_reserve = 8192}), std::logic_error);
}

struct PingPong {
  mpilite::Scheduler* sched;
  mpilite::Task* other;
  std::vector<int>* trace;
  int id;
  int rounds;
};

void ping_pong_entry(void* arg) {
  auto& p = *static_cast<PingPong*>(arg);
  for (int i = 0; i < p.rounds; ++i) {
    p.trace->push_back(p.id);
    p.sched->wake(*p.other);
    p.sched->block();
  }
  p.sched->wake(*p.other);
}

TEST(Scheduler, TasksAlternateWhenTheyWakeEachOther) {
  mpilite::Scheduler sched(2, 32 * 1024);
  mpilite::Task a, b;
  std::vector<int> trace;
  PingPong pa{&sched, &b, &trace, 0, 3}, pb{&sched, &a, &trace, 1, 3};
  sched.spawn(a, 0, &ping_pong_entry, &pa);
  sched.spawn(b, 1, &ping_pong_entry, &pb);
  EXPECT_EQ(sched.run([] { return false; }), mpilite::RunEnd::Finished);
  EXPECT_EQ(trace, (std::vector<int>{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(sched.done_count(), 2u);
}

void block_forever(void* arg) {
  static_cast<mpilite::Scheduler*>(arg)->block();
}

TEST(Scheduler, NothingReadyAndIdleCannotHelpIsStuck) {
  mpilite::Scheduler sched(1, 32 * 1024);
  mpilite::Task t;
  sched.spawn(t, 0, &block_forever, &sched);
  int idle_calls = 0;
  EXPECT_EQ(sched.run([&] {
    ++idle_calls;
    return false;
  }),
            mpilite::RunEnd::Blocked);
  EXPECT_EQ(idle_calls, 1);
}

// Stack copying: each fiber keeps data on its stack, and while the other fiber is switched out
// (its stack copied out) writes into that fiber's stack through a pointer, as a sender fills a
// blocked receiver's buffer: the write lands, and each fiber finds its own data as it left it.
struct Copier {
  mpilite::Scheduler* sched;
  mpilite::Task* other;
  Copier* peer;
  int id;
  int* inbox = nullptr; ///< an array on this fiber's stack
  std::size_t parked_bytes = 0;
  int wrong = 0;
};

void copier_entry(void* arg) {
  auto& c = *static_cast<Copier*>(arg);
  int mine[1000]; // 4 000 bytes
  for (int i = 0; i < 1000; ++i)
    mine[i] = c.id * 1000 + i;
  int inbox[3] = {};
  c.inbox = inbox;
  for (int round = 0; round < 3; ++round) {
    c.sched->wake(*c.other);
    c.sched->block();
    c.parked_bytes = std::max(c.parked_bytes, c.sched->stacks().parked_bytes());
    if (c.peer->inbox) c.peer->inbox[round] = 10 * c.id + round + 1;
  }
  c.sched->wake(*c.other);
  c.sched->block(); // the peer's last write into our inbox
  for (int i = 0; i < 1000; ++i)
    c.wrong += mine[i] != c.id * 1000 + i;
  for (int round = 0; round < 3; ++round)
    c.wrong += inbox[round] != 10 * c.peer->id + round + 1;
  c.inbox = nullptr;
  c.sched->wake(*c.other);
}

TEST(Scheduler, CopiedStacksKeepTheirDataAndTakeWritesFromOtherFibers) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  // Each stack parked as soon as it is switched out.
  mpilite::Scheduler sched(2, 64 * 1024, {.copy_stacks = true, .park_batch = 1});
  ASSERT_TRUE(sched.stacks().copies_stacks());
  mpilite::Task a, b;
  Copier ca{&sched, &b, nullptr, 0}, cb{&sched, &a, nullptr, 1};
  ca.peer = &cb;
  cb.peer = &ca;
  sched.spawn(a, 0, &copier_entry, &ca);
  sched.spawn(b, 1, &copier_entry, &cb);
  EXPECT_EQ(sched.run([] { return false; }), mpilite::RunEnd::Finished);
  EXPECT_EQ(ca.wrong, 0);
  EXPECT_EQ(cb.wrong, 0);
  // While one ran, the other's stack, its 4 000-byte array included, was on the heap.
  EXPECT_GT(ca.parked_bytes, 4000u);
  EXPECT_GT(cb.parked_bytes, 4000u);
#endif
}

// Stacks parked in batches: a token goes round a ring of fibers, and each writes into the next
// one's stack before waking it, while that stack waits for its batch, is parked, or is in place.
struct RingCopier {
  mpilite::Scheduler* sched;
  std::vector<mpilite::Task>* tasks;
  std::vector<RingCopier>* ring;
  std::size_t id;
  static constexpr int kRounds = 5;
  int* inbox = nullptr; ///< kRounds ints on this fiber's stack
  std::size_t parked_bytes = 0;
  int wrong = 0;
};

void ring_copier_entry(void* arg) {
  auto& c = *static_cast<RingCopier*>(arg);
  const std::size_t n = c.ring->size();
  RingCopier& next = (*c.ring)[(c.id + 1) % n];
  int mine[300];
  for (int i = 0; i < 300; ++i)
    mine[i] = static_cast<int>(c.id) * 1000 + i;
  int inbox[RingCopier::kRounds] = {};
  c.inbox = inbox;
  c.sched->block(); // every fiber has its inbox before the token starts
  for (int round = 0; round < RingCopier::kRounds; ++round) {
    c.sched->block(); // the token
    c.parked_bytes = std::max(c.parked_bytes, c.sched->stacks().parked_bytes());
    next.inbox[round] = static_cast<int>(c.id) * 100 + round;
    c.sched->wake((*c.tasks)[next.id]);
  }
  if (c.id == 0) c.sched->block(); // the last token
  for (int i = 0; i < 300; ++i)
    c.wrong += mine[i] != static_cast<int>(c.id) * 1000 + i;
  const int from = static_cast<int>((c.id + n - 1) % n);
  for (int round = 0; round < RingCopier::kRounds; ++round)
    c.wrong += inbox[round] != from * 100 + round;
}

// Runs the ring with `batch` stacks parked at a time; returns the most bytes ever parked.
std::size_t run_copier_ring(std::size_t fibers, std::size_t batch) {
  mpilite::Scheduler sched(fibers, 64 * 1024, {.copy_stacks = true, .park_batch = batch});
  std::vector<mpilite::Task> tasks(fibers);
  std::vector<RingCopier> ring;
  for (std::size_t i = 0; i < fibers; ++i)
    ring.push_back({&sched, &tasks, &ring, i});
  for (std::size_t i = 0; i < fibers; ++i)
    sched.spawn(tasks[i], i, &ring_copier_entry, &ring[i]);
  // Each fiber has run to its first block() when the root first idles, and waits for the token
  // the second time.
  int idles = 0;
  EXPECT_EQ(sched.run([&] {
    if (++idles == 1)
      for (auto& t : tasks)
        sched.wake(t);
    else if (idles == 2)
      sched.wake(tasks[0]);
    return idles <= 2;
  }),
            mpilite::RunEnd::Finished);
  std::size_t parked = 0;
  for (const RingCopier& c : ring) {
    EXPECT_EQ(c.wrong, 0) << "fiber " << c.id << ", batches of " << batch;
    parked = std::max(parked, c.parked_bytes);
  }
  return parked;
}

TEST(Scheduler, StacksParkedInBatchesKeepTheirDataAndTakeWritesInEveryState) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  for (std::size_t batch : {1, 3, 4, 7}) {
    SCOPED_TRACE(batch);
    // With 12 fibers every stack but the few last switched out is parked at any time: each
    // holds over 1 200 bytes.
    EXPECT_GT(run_copier_ring(12, batch), 6 * 1200u);
  }
  // A batch that never fills parks nothing: the fibers run again before it goes.
  EXPECT_EQ(run_copier_ring(12, 1024), 0u);
#endif
}

// A blocked rank's buffer reached by another fiber's code (a message delivered, a collective's
// reduction) is read and written in its stack's copy: the stack stays parked, and its fiber finds
// the data in place when it runs again.
struct Reach {
  mpilite::Scheduler* sched;
  mpilite::Task* owner;
  mpilite::Task* other;
  int* inbox = nullptr; ///< four ints on the owner's stack
  bool in_copy = false;
  bool deep_is_own = false;
  bool shared = false; ///< shared stacks: no range below the used part is reached
  std::size_t faults = 0;
  int seen[4] = {};
};

[[maybe_unused]] void reach_owner(void* arg) {
  auto& c = *static_cast<Reach*>(arg);
  int inbox[4] = {1, 2, 3, 4};
  c.inbox = inbox;
  c.sched->wake(*c.other);
  c.sched->block(); // parked while the other fiber reaches the inbox
  for (int i = 0; i < 4; ++i)
    c.seen[i] = inbox[i];
  c.sched->wake(*c.other);
  c.sched->block(); // parked again; the other fiber reaches below the stack's used part
  c.inbox = nullptr;
}

[[maybe_unused]] void reach_other(void* arg) {
  auto& c = *static_cast<Reach*>(arg);
  if (!c.inbox) c.sched->block(); // until the owner has its inbox
  auto* at = static_cast<int*>(c.sched->reach(*c.owner, c.inbox, 0, 4 * sizeof(int)));
  c.in_copy = at != c.inbox;
  for (int i = 0; i < 4; ++i)
    at[i] *= 10; // read and written in the copy
  c.faults = c.sched->stacks().faults();
  c.sched->wake(*c.owner);
  c.sched->block();
  if (c.shared) {
    c.sched->wake(*c.owner);
    return;
  }
  // A range reaching below what the stack uses is not in its copy: the stack comes back, and
  // the address is the buffer's own.
  c.deep_is_own = c.sched->reach(*c.owner, c.inbox, -(32 * 1024), 4 * sizeof(int)) == c.inbox;
  c.sched->wake(*c.owner);
}

/// Runs the owner and the other fiber of Reach on stacks copied as `stacks` says.
[[maybe_unused]] Reach run_reach(const mpilite::StackPoolOptions& stacks) {
  mpilite::Scheduler sched(2, 64 * 1024, stacks);
  mpilite::Task a, b;
  Reach c{&sched, &a, &b};
  c.shared = stacks.shared_slots > 0;
  sched.spawn(a, 0, &reach_owner, &c);
  sched.spawn(b, 1, &reach_other, &c);
  EXPECT_EQ(sched.run([] { return false; }), mpilite::RunEnd::Finished);
  return c;
}

TEST(Scheduler, AParkedStacksBuffersAreReachedInItsCopy) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  const Reach c = run_reach({.copy_stacks = true, .park_batch = 1});
  EXPECT_TRUE(c.in_copy);
  EXPECT_EQ(c.faults, 0u); // no access went through the fault handler
  EXPECT_EQ(std::vector<int>(c.seen, c.seen + 4), (std::vector<int>{10, 20, 30, 40}));
  EXPECT_TRUE(c.deep_is_own);
#endif
}

TEST(Scheduler, ASharedStacksBlockedFiberIsReachedInItsCopy) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  // One stack for both fibers: while the other runs, the owner's inbox exists only in its copy.
  const Reach c = run_reach({.copy_stacks = true, .shared_slots = 1});
  EXPECT_TRUE(c.in_copy);
  EXPECT_EQ(std::vector<int>(c.seen, c.seen + 4), (std::vector<int>{10, 20, 30, 40}));
#endif
}

// Fibers that share stacks keep their own frames: each fills a local array with its own values,
// and after every switch (through the root when the next fiber shares its stack) finds them.
struct Sharing {
  mpilite::Scheduler* sched;
  std::vector<mpilite::Task>* tasks;
  int rounds;
  std::vector<int> wrong;
};

[[maybe_unused]] void sharing_fiber(void* arg) {
  auto& c = *static_cast<Sharing*>(arg);
  const std::size_t me = static_cast<std::size_t>(c.sched->current() - c.tasks->data());
  const std::size_t n = c.tasks->size();
  volatile long frame[600]; // more than a page of the stack, copied in and out every time
  for (std::size_t k = 0; k < 600; ++k)
    frame[k] = static_cast<long>(me * 1000 + k);
  for (int round = 0; round < c.rounds; ++round) {
    c.sched->wake((*c.tasks)[(me + 1) % n]);
    c.sched->block();
    for (std::size_t k = 0; k < 600; ++k)
      c.wrong[me] += frame[k] != static_cast<long>(me * 1000 + k);
  }
  c.sched->wake((*c.tasks)[(me + 1) % n]);
}

TEST(Scheduler, FibersSharingStacksKeepTheirFrames) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  for (std::size_t slots : {1, 2, 3}) {
    mpilite::Scheduler sched(6, 64 * 1024, {.copy_stacks = true, .shared_slots = slots});
    std::vector<mpilite::Task> tasks(6);
    Sharing c{&sched, &tasks, 5, std::vector<int>(6)};
    for (std::size_t i = 0; i < tasks.size(); ++i)
      sched.spawn(tasks[i], i, &sharing_fiber, &c);
    EXPECT_EQ(sched.run([] { return false; }), mpilite::RunEnd::Finished) << slots << " stacks";
    EXPECT_EQ(c.wrong, std::vector<int>(6)) << slots << " stacks";
    // Every fiber ran on the stack of its slot.
    EXPECT_EQ(tasks[slots].stack.bottom, tasks[0].stack.bottom) << slots << " stacks";
  }
#endif
}

// Work for a blocked fiber (a step of its collective) reaches its buffers at their addresses,
// run by another fiber: on a stack of the scheduler's own when both share one stack.
struct RunFor {
  mpilite::Scheduler* sched;
  mpilite::Task* owner;
  mpilite::Task* other;
  mpilite::Task* filler; ///< runs on the owner's stack after it, so that it is copied out
  int* inbox = nullptr;  ///< on the owner's stack
  int seen = 0;
  long other_sum = 0;
  long filler_sum = 0;
};

[[maybe_unused]] void run_for_owner(void* arg) {
  auto& c = *static_cast<RunFor*>(arg);
  volatile int inbox = 1;
  c.inbox = const_cast<int*>(&inbox);
  c.sched->wake(*c.filler);
  c.sched->block(); // the other fiber works on the inbox meanwhile
  c.seen = inbox;
}

[[maybe_unused]] void run_for_filler(void* arg) {
  auto& c = *static_cast<RunFor*>(arg);
  volatile long mine[64];
  for (int k = 0; k < 64; ++k)
    mine[k] = 2 * k;
  c.sched->wake(*c.other);
  c.sched->block();
  for (int k = 0; k < 64; ++k)
    c.filler_sum += mine[k];
}

[[maybe_unused]] void run_for_other(void* arg) {
  auto& c = *static_cast<RunFor*>(arg);
  while (!c.inbox || c.filler->state != mpilite::TaskState::Blocked)
    c.sched->block();
  volatile long mine[64];
  for (int k = 0; k < 64; ++k)
    mine[k] = k;
  c.sched->run_for(
      *c.owner, [](void* a) { *static_cast<RunFor*>(a)->inbox *= 42; }, &c);
  for (int k = 0; k < 64; ++k)
    c.other_sum += mine[k]; // its own frames, back in place
  c.sched->wake(*c.owner);
  c.sched->wake(*c.filler);
}

TEST(Scheduler, SharedStacksRunWorkForABlockedFiberWithItsStackInPlace) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  // One stack for all three: the work runs on the service stack. Two (the owner and the filler,
  // fibers 0 and 2, on one; the other on the second): the filler is copied out of the owner's
  // stack for the work, directly.
  for (std::size_t slots : {1, 2}) {
    mpilite::Scheduler sched(3, 64 * 1024, {.copy_stacks = true, .shared_slots = slots});
    mpilite::Task a, b, f;
    RunFor c{&sched, &a, &b, &f};
    sched.spawn(a, 0, &run_for_owner, &c);
    sched.spawn(b, 1, &run_for_other, &c);
    sched.spawn(f, 2, &run_for_filler, &c);
    EXPECT_EQ(sched.run([] { return false; }), mpilite::RunEnd::Finished) << slots;
    EXPECT_EQ(c.seen, 42) << slots << " stacks";
    EXPECT_EQ(c.other_sum, 64 * 63 / 2) << slots << " stacks";
    EXPECT_EQ(c.filler_sum, 64 * 63) << slots << " stacks";
  }
#endif
}

TEST(Scheduler, WithoutCopyingABufferIsReachedAtItsAddress) {
  mpilite::Scheduler sched(1, 64 * 1024, {});
  mpilite::Task owner;
  int x = 0;
  EXPECT_EQ(sched.reach(owner, &x, 0, sizeof x), &x);
}

TEST(StackPool, CopyingStacksNeedsKernelGuardRegions) {
#if defined(MPISIM_ASAN)
  GTEST_SKIP() << "the sanitized build cannot copy stacks";
#else
  try {
    StackPool pool(2, 64 * 1024, {.kernel_guard_regions = false, .copy_stacks = true});
    FAIL() << "copying stacks without guard regions was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("stack copying needs kernel guard regions"),
              std::string::npos)
        << e.what();
  }
#endif
}

} // namespace
