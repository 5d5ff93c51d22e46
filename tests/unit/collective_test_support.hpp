// Support for the collective tests: per-rank results recorded inside a simulation and checked
// after it, and the blocking or non-blocking form of each collective behind one call.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace colltest {

using Ints = std::vector<int>;

/// Checks made inside a simulation (each rank compares what it got with what the test computed
/// for it), summarized so that a wrong result on 33 ranks gives one readable failure.
class Results {
public:
  explicit Results(int size) : size_(size) {}

  template <class T>
  void check(const std::string& name, int rank, const std::vector<T>& got,
             const std::vector<T>& want) {
    Entry& e = entries_[name];
    ++e.seen;
    if (got == want) return;
    if (e.wrong++ == 0) e.first = "rank " + std::to_string(rank) + ": " + describe(got, want);
  }
  /// Records a failed MPI call of `rank`.
  void call(int rank, int rc) {
    if (rc != MPI_SUCCESS) failed_calls_.push_back({rank, rc});
  }
  /// Expects that every check was made by every rank and passed, and that no call failed.
  void verify() const {
    EXPECT_FALSE(entries_.empty()) << "no checks were made";
    for (const auto& [name, e] : entries_) {
      EXPECT_EQ(e.seen, size_) << name << ": checked by " << e.seen << " of " << size_ << " ranks";
      if (e.wrong)
        ADD_FAILURE() << name << ": " << e.wrong << " of " << size_ << " ranks wrong; " << e.first;
    }
    expect_calls_succeeded();
  }
  void expect_calls_succeeded() const {
    for (auto [rank, rc] : failed_calls_)
      ADD_FAILURE() << "rank " << rank << ": an MPI call returned " << rc;
  }

private:
  struct Entry {
    int seen = 0, wrong = 0;
    std::string first;
  };
  template <class T>
  static std::string describe(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size())
      return "size " + std::to_string(got.size()) + ", expected " + std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(got[i] == want[i]))
        return "element " + std::to_string(i) + " is " + testing::PrintToString(got[i]) +
               ", expected " + testing::PrintToString(want[i]);
    return "?";
  }

  int size_;
  std::map<std::string, Entry> entries_;
  std::vector<std::pair<int, int>> failed_calls_;
};

/// Runs `body` on `size` ranks and expects the run to finish cleanly.
inline mpisim::RunSummary run(int size, const std::function<void(int rank)>& body,
                              mpisim::Config config = test::config(1)) {
  config.ranks = size;
  auto summary = test::simulate(config, [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    body(test::world_rank());
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(summary.exit_code, 0) << summary.message;
  return summary;
}

/// The collectives, each either blocking or started and then waited for at once.
struct Collectives {
  bool nonblocking = false;
  MPI_Comm comm = MPI_COMM_WORLD;

  int wait(int rc, MPI_Request& q) const {
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  int barrier() const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ibarrier(comm, &q), q) : MPI_Barrier(comm);
  }
  int bcast(void* b, int n, MPI_Datatype t, int root) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ibcast(b, n, t, root, comm, &q), q)
                       : MPI_Bcast(b, n, t, root, comm);
  }
  int reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ireduce(s, r, n, t, op, root, comm, &q), q)
                       : MPI_Reduce(s, r, n, t, op, root, comm);
  }
  int allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iallreduce(s, r, n, t, op, comm, &q), q)
                       : MPI_Allreduce(s, r, n, t, op, comm);
  }
  int scan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iscan(s, r, n, t, op, comm, &q), q)
                       : MPI_Scan(s, r, n, t, op, comm);
  }
  int exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iexscan(s, r, n, t, op, comm, &q), q)
                       : MPI_Exscan(s, r, n, t, op, comm);
  }
  int reduce_scatter(const void* s, void* r, const int* counts, MPI_Datatype t, MPI_Op op) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ireduce_scatter(s, r, counts, t, op, comm, &q), q)
                       : MPI_Reduce_scatter(s, r, counts, t, op, comm);
  }
  int reduce_scatter_block(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ireduce_scatter_block(s, r, n, t, op, comm, &q), q)
                       : MPI_Reduce_scatter_block(s, r, n, t, op, comm);
  }
  int gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
             int root) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Igather(s, sn, st, r, rn, rt, root, comm, &q), q)
                       : MPI_Gather(s, sn, st, r, rn, rt, root, comm);
  }
  int gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* d,
              MPI_Datatype rt, int root) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Igatherv(s, sn, st, r, rn, d, rt, root, comm, &q), q)
                       : MPI_Gatherv(s, sn, st, r, rn, d, rt, root, comm);
  }
  int scatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
              int root) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iscatter(s, sn, st, r, rn, rt, root, comm, &q), q)
                       : MPI_Scatter(s, sn, st, r, rn, rt, root, comm);
  }
  int scatterv(const void* s, const int* sn, const int* d, MPI_Datatype st, void* r, int rn,
               MPI_Datatype rt, int root) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iscatterv(s, sn, d, st, r, rn, rt, root, comm, &q), q)
                       : MPI_Scatterv(s, sn, d, st, r, rn, rt, root, comm);
  }
  int allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iallgather(s, sn, st, r, rn, rt, comm, &q), q)
                       : MPI_Allgather(s, sn, st, r, rn, rt, comm);
  }
  int allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* d,
                 MPI_Datatype rt) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Iallgatherv(s, sn, st, r, rn, d, rt, comm, &q), q)
                       : MPI_Allgatherv(s, sn, st, r, rn, d, rt, comm);
  }
  int alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ialltoall(s, sn, st, r, rn, rt, comm, &q), q)
                       : MPI_Alltoall(s, sn, st, r, rn, rt, comm);
  }
  int alltoallv(const void* s, const int* sn, const int* sd, MPI_Datatype st, void* r,
                const int* rn, const int* rd, MPI_Datatype rt) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ialltoallv(s, sn, sd, st, r, rn, rd, rt, comm, &q), q)
                       : MPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, comm);
  }
  int alltoallw(const void* s, const int* sn, const int* sd, const MPI_Datatype* st, void* r,
                const int* rn, const int* rd, const MPI_Datatype* rt) const {
    MPI_Request q;
    return nonblocking ? wait(MPI_Ialltoallw(s, sn, sd, st, r, rn, rd, rt, comm, &q), q)
                       : MPI_Alltoallw(s, sn, sd, st, r, rn, rd, rt, comm);
  }
};

} // namespace colltest
