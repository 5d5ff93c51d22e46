// The C library state each fiber (rank) has of its own: errno and the getopt globals switched
// with the fiber, rand and strtok on a state of the fiber's.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

#include "scheduler.hpp"

namespace {

struct Rank {
  mpilite::Scheduler* sched;
  mpilite::Task* other;
  int id;
  std::vector<int> draws;
  std::vector<std::string> tokens;
  int errors = 0; ///< rounds on which the fiber found another's errno or optind
};

void rank_entry(void* arg) {
  auto& r = *static_cast<Rank*>(arg);
  if (optind != 1 || opterr != 1 || optarg != nullptr) ++r.errors; // a new process's values
  char line[32];
  std::snprintf(line, sizeof line, "a%d b%d c%d", r.id, r.id, r.id);
  std::srand(static_cast<unsigned>(r.id + 1));
  r.tokens.push_back(std::strtok(line, " "));
  for (int round = 0; round < 3; ++round) {
    errno = 100 + r.id;
    optind = 10 + r.id;
    r.draws.push_back(std::rand());
    r.sched->wake(*r.other);
    r.sched->block();
    if (errno != 100 + r.id || optind != 10 + r.id) ++r.errors;
    if (const char* t = std::strtok(nullptr, " ")) r.tokens.push_back(t);
  }
  r.sched->wake(*r.other);
}

std::vector<int> native_sequence(unsigned seed, int n) {
  random_data state{};
  char table[128];
  initstate_r(seed, table, sizeof table, &state);
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    int32_t v = 0;
    random_r(&state, &v);
    out.push_back(v);
  }
  return out;
}

TEST(LibcState, EachFiberKeepsItsOwnErrnoGetoptRandAndStrtok) {
  mpilite::Scheduler sched(2, 64 * 1024);
  mpilite::Task a, b;
  Rank ra{&sched, &b, 0, {}, {}}, rb{&sched, &a, 1, {}, {}};
  sched.spawn(a, 0, &rank_entry, &ra);
  sched.spawn(b, 1, &rank_entry, &rb);
  errno = 7;
  optind = 3;
  ASSERT_EQ(sched.run([] { return false; }), mpilite::RunEnd::Finished);
  EXPECT_EQ(errno, 7); // the host's own, back after the run
  EXPECT_EQ(optind, 3);
  optind = 1;
  EXPECT_EQ(ra.errors, 0);
  EXPECT_EQ(rb.errors, 0);
  EXPECT_EQ(ra.draws, native_sequence(1, 3));
  EXPECT_EQ(rb.draws, native_sequence(2, 3));
  EXPECT_EQ(ra.draws.front(), 1804289383); // glibc's first rand() after srand(1)
  EXPECT_EQ(ra.tokens, (std::vector<std::string>{"a0", "b0", "c0"}));
  EXPECT_EQ(rb.tokens, (std::vector<std::string>{"a1", "b1", "c1"}));
}

} // namespace
