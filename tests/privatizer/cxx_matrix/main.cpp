// The C++ privatization matrix: every rank writes its rank into each kind of variable,
// waits at a barrier for the others, and reads its own values back.
#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <map>

#include "shared.hpp"

namespace matrix {

int counter = -1;
int constructions = 0;
int destructions = 0;
Tracked::Tracked() : value(-7) {
  ++constructions;
}
Tracked::~Tracked() {
  ++destructions;
  // The destructor runs when the rank ends; its output shows it ran once per rank.
  std::printf("cxx_matrix: destroyed tracked of rank %d\n", value);
}
Tracked tracked;

int Registry::instances = 0;
std::vector<int> Registry::history{1, 2, 3};

namespace {
int hidden = 10;
std::map<int, std::string> names = {{0, "zero"}}; // non-trivial, in an anonymous namespace
} // namespace

const int shared_constant = 42;
constexpr double shared_constexpr = 2.5;

} // namespace matrix

using namespace matrix;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    ++checks;                                                                                      \
    if (!(cond)) {                                                                                 \
      ++failures;                                                                                  \
      std::printf("rank %d: check failed: %s (line %d)\n", rank, #cond, __LINE__);                 \
    }                                                                                              \
  } while (0)

int main(int argc, char** argv) {
  int rank, size, checks = 0, failures = 0, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Constructed once per rank, before its main.
  CHECK(constructions == 1 && destructions == 0 && tracked.value == -7);
  CHECK(counter == -1 && Registry::history.size() == 3 && hidden == 10);
  CHECK(Registry::inline_member == 9 && inline_variable == 3 && Box<int>::value == 1);
  CHECK(names.size() == 1 && names[0] == "zero");

  other_file_writes(rank);
  tracked.value = rank;
  Registry::instances = rank;
  Registry::history.push_back(rank);
  Registry::inline_member += rank;
  hidden += rank;
  names[rank + 1] = std::to_string(rank);
  Box<int>::value += rank;
  Box<double>::value = rank / 2.0;
  for (int i = 0; i < rank; ++i)
    calls<int>();
  label(rank);
  MPI_Barrier(MPI_COMM_WORLD);

  CHECK(other_file_reads(rank) == 0);
  CHECK(tracked.value == rank && constructions == 1);
  CHECK(Registry::instances == rank && Registry::history.size() == 4 &&
        Registry::history.back() == rank);
  CHECK(Registry::inline_member == 9 + rank && hidden == 10 + rank);
  CHECK(names.size() == 2 && names[rank + 1] == std::to_string(rank));
  CHECK(Box<int>::value == 1 + rank && Box<double>::value == rank / 2.0);
  CHECK(calls<int>() == rank + 1 && calls<short>() == 1);
  CHECK(label(-1) == "rank-" + std::to_string(rank));

  // Privatized variables have one address per rank; constants and the library's globals
  // (std::cout, stdout, errno) one per host process.
  const void* mine[5] = {&counter, &shared_constant, &std::cout, stdout, &errno};
  const void* all[5 * 64];
  MPI_Allgather(mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
  bool addresses_ok = size <= 64;
  for (int r = 0; r < size && size <= 64; ++r)
    if (r != rank) {
      addresses_ok &= all[5 * r] != mine[0];
      for (int k = 1; k < 5; ++k)
        addresses_ok &= all[5 * r + k] == mine[k];
    }
  CHECK(addresses_ok);
  CHECK(shared_constexpr == 2.5);

  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("cxx_matrix: %d ranks, %d checks per rank, %d failures\n", size, checks, total);
  MPI_Finalize();
  return total != 0;
}
