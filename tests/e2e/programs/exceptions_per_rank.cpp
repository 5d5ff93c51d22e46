// A C++ code's error path: each rank catches its own exception and calls MPI inside the catch
// block (to agree on the failure, as codes do before rethrowing or aborting), then rethrows it,
// keeps it as an exception_ptr, or reads it after the call. In a real run every rank is a
// process with its own record of the exceptions it handles; the ranks of a host process share
// one thread, and with it the C++ runtime's per-thread record.
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace {

int g_rank = 0;

int agree(int failed) {
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return any;
}

// Counts, while unwinding, the exceptions in flight; MPI is called in between.
struct Guard {
  int* seen;
  ~Guard() {
    MPI_Barrier(MPI_COMM_WORLD);
    *seen = std::uncaught_exceptions();
  }
};

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);

  try {
    try {
      throw std::runtime_error("error of rank " + std::to_string(g_rank));
    } catch (...) {
      const int failed = agree(1);
      std::printf("rank %d: %d ranks failed\n", g_rank, failed);
      throw;
    }
  } catch (const std::exception& e) {
    std::printf("rank %d rethrown: %s\n", g_rank, e.what());
  }

  std::exception_ptr kept;
  try {
    throw std::out_of_range("index " + std::to_string(100 + g_rank));
  } catch (const std::exception& e) {
    agree(0);
    std::printf("rank %d read after MPI: %s\n", g_rank, e.what());
    kept = std::current_exception();
  }
  try {
    std::rethrow_exception(kept);
  } catch (const std::out_of_range& e) {
    std::printf("rank %d kept: %s\n", g_rank, e.what());
  }

  int in_flight = -1;
  try {
    Guard g{&in_flight};
    if (g_rank % 2 == 0) throw std::logic_error("even");
  } catch (const std::logic_error&) {
  }
  std::printf("rank %d exceptions in flight in a destructor: %d\n", g_rank, in_flight);

  MPI_Finalize();
  return 0;
}
