// Argument errors of the collectives, blocking and non-blocking, and of the user-op calls: with
// MPI_ERRORS_RETURN each bad call returns its error class at once (before any message, so one
// rank may make it alone); by default the error is fatal and names the call and the reason.
#include <string>
#include <vector>

#include "collective_test_support.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

void user_op(void*, void*, int*, MPI_Datatype*) {}

/// Error classes rank 0 of 3 gets from a list of bad calls, made alone with MPI_ERRORS_RETURN.
template <class Calls> std::vector<int> codes_of(Calls calls) {
  std::vector<int> codes;
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) calls(codes);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  return codes;
}

constexpr MPI_Datatype kBadType = static_cast<MPI_Datatype>(0x4c0000ff);
constexpr MPI_Op kBadOp = static_cast<MPI_Op>(0x12345);

TEST(CollectiveErrors, InvalidRootInEveryRootedCollective) {
  const auto codes = codes_of([](std::vector<int>& c) {
    int v[8] = {0}, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    MPI_Request q;
    c.push_back(MPI_Bcast(v, 1, MPI_INT, 3, MPI_COMM_WORLD));
    c.push_back(MPI_Ibcast(v, 1, MPI_INT, -1, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Reduce(v, v + 4, 1, MPI_INT, MPI_SUM, 3, MPI_COMM_WORLD));
    c.push_back(MPI_Ireduce(v, v + 4, 1, MPI_INT, MPI_SUM, 7, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Gather(v, 1, MPI_INT, v + 4, 1, MPI_INT, 3, MPI_COMM_WORLD));
    c.push_back(MPI_Igather(v, 1, MPI_INT, v + 4, 1, MPI_INT, -2, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Gatherv(v, 1, MPI_INT, v + 4, counts, displs, MPI_INT, 3, MPI_COMM_WORLD));
    c.push_back(MPI_Scatter(v, 1, MPI_INT, v + 4, 1, MPI_INT, 3, MPI_COMM_WORLD));
    c.push_back(MPI_Iscatter(v, 1, MPI_INT, v + 4, 1, MPI_INT, 3, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Scatterv(v, counts, displs, MPI_INT, v + 4, 1, MPI_INT, 3, MPI_COMM_WORLD));
  });
  EXPECT_EQ(codes, std::vector<int>(10, MPI_ERR_ROOT));
}

TEST(CollectiveErrors, NegativeCountsInEveryFamily) {
  const auto codes = codes_of([](std::vector<int>& c) {
    int v[8] = {0}, bad[3] = {1, -1, 1}, displs[3] = {0, 1, 2};
    MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_INT};
    MPI_Request q;
    c.push_back(MPI_Bcast(v, -1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Iallreduce(v, v + 4, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Gather(v, -1, MPI_INT, v + 4, 1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Gatherv(v, 1, MPI_INT, v + 4, bad, displs, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Scatterv(v, bad, displs, MPI_INT, v + 4, 1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Allgather(v, 1, MPI_INT, v + 4, -1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Iallgatherv(v, 1, MPI_INT, v + 4, bad, displs, MPI_INT, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Alltoall(v, -3, MPI_INT, v + 4, 1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(
        MPI_Alltoallv(v, bad, displs, MPI_INT, v + 4, displs, displs, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Alltoallw(v, displs, displs, types, v + 4, bad, displs, types, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce_scatter(v, v + 4, bad, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce_scatter_block(v, v + 4, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Scan(v, v + 4, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Iexscan(v, v + 4, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q));
  });
  EXPECT_EQ(codes, std::vector<int>(14, MPI_ERR_COUNT));
}

TEST(CollectiveErrors, InvalidOrUncommittedTypesInEveryFamily) {
  const auto codes = codes_of([](std::vector<int>& c) {
    int v[8] = {0}, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    MPI_Datatype types[3] = {MPI_INT, kBadType, MPI_INT};
    MPI_Datatype ints[3] = {MPI_INT, MPI_INT, MPI_INT};
    MPI_Request q;
    c.push_back(MPI_Bcast(v, 1, uncommitted, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce(v, v + 4, 1, kBadType, MPI_SUM, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Gather(v, 1, kBadType, v + 4, 1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(
        MPI_Igatherv(v, 1, MPI_INT, v + 4, counts, displs, uncommitted, 0, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Scatter(v, 1, MPI_INT, v + 4, 1, kBadType, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Allgather(v, 1, MPI_INT, v + 4, 1, uncommitted, MPI_COMM_WORLD));
    c.push_back(MPI_Alltoall(v, 1, kBadType, v + 4, 1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Ialltoallv(v, counts, displs, MPI_INT, v + 4, counts, displs, kBadType,
                               MPI_COMM_WORLD, &q));
    c.push_back(
        MPI_Alltoallw(v, counts, displs, types, v + 4, counts, displs, ints, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce_scatter_block(v, v + 4, 1, kBadType, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Exscan(v, v + 4, 1, uncommitted, MPI_SUM, MPI_COMM_WORLD));
    MPI_Type_free(&uncommitted);
  });
  EXPECT_EQ(codes, std::vector<int>(11, MPI_ERR_TYPE));
}

TEST(CollectiveErrors, InvalidOpsAndOpsUndefinedForTheType) {
  bool freed_handle_nulled = false;
  const auto codes = codes_of([&](std::vector<int>& c) {
    float f[8] = {0};
    int v[8] = {0}, counts[3] = {1, 1, 1};
    MPI_Request q;
    MPI_Op freed;
    MPI_Op_create(&user_op, 1, &freed);
    const MPI_Op stale = freed;
    MPI_Op_free(&freed);
    freed_handle_nulled = freed == MPI_OP_NULL;
    c.push_back(MPI_Reduce(f, f + 4, 1, MPI_FLOAT, MPI_BAND, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Ireduce(v, v + 4, 1, MPI_INT, kBadOp, 0, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Allreduce(v, v + 4, 1, MPI_INT, stale, MPI_COMM_WORLD));
    c.push_back(MPI_Scan(f, f + 4, 1, MPI_FLOAT, MPI_BXOR, MPI_COMM_WORLD));
    c.push_back(MPI_Iexscan(v, v + 4, 1, MPI_INT, MPI_MINLOC, MPI_COMM_WORLD, &q));
    // (Logical operations accept floating types, as in MPICH; not complex ones.)
    c.push_back(MPI_Reduce_scatter(f, f + 4, counts, MPI_C_FLOAT_COMPLEX, MPI_LOR, MPI_COMM_WORLD));
    c.push_back(MPI_Ireduce_scatter_block(v, v + 4, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Reduce_local(f, f + 4, 1, MPI_FLOAT, MPI_BOR));
    MPI_Op sum = MPI_SUM;
    c.push_back(MPI_Op_free(&sum));
    int commutative;
    c.push_back(MPI_Op_commutative(kBadOp, &commutative));
  });
  EXPECT_EQ(codes, std::vector<int>(10, MPI_ERR_OP));
  EXPECT_TRUE(freed_handle_nulled) << "MPI_Op_free must set the handle to MPI_OP_NULL";
}

TEST(CollectiveErrors, InPlaceWhereMpiDoesNotAllowItAndAliasedBuffers) {
  const auto codes = codes_of([](std::vector<int>& c) {
    int v[8] = {0}, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    MPI_Request q;
    // Rank 0 is not the root (1) of the rooted ones.
    c.push_back(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce(v, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Iallreduce(v, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, v, 1, MPI_INT, 1, MPI_COMM_WORLD));
    c.push_back(
        MPI_Gatherv(MPI_IN_PLACE, 1, MPI_INT, v, counts, displs, MPI_INT, 1, MPI_COMM_WORLD));
    c.push_back(MPI_Gather(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Scatter(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 1, MPI_COMM_WORLD));
    c.push_back(
        MPI_Iscatterv(v, counts, displs, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 1, MPI_COMM_WORLD, &q));
    c.push_back(MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, v, 1, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Allgather(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(
        MPI_Allgatherv(v, 1, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Alltoall(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Alltoallv(v, counts, displs, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT,
                              MPI_COMM_WORLD));
    c.push_back(MPI_Reduce_scatter(v, MPI_IN_PLACE, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Scan(v, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Exscan(v, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    // The same buffer for input and output, and no buffer at all.
    c.push_back(MPI_Allreduce(v, v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Allgather(v, 1, MPI_INT, v, 1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Alltoall(nullptr, 1, MPI_INT, v, 1, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Reduce_local(MPI_IN_PLACE, v, 1, MPI_INT, MPI_SUM));
  });
  EXPECT_EQ(codes, std::vector<int>(21, MPI_ERR_BUFFER));
}

TEST(CollectiveErrors, MissingRequestPointerAndArrays) {
  const auto codes = codes_of([](std::vector<int>& c) {
    int v[8] = {0}, counts[3] = {1, 1, 1};
    c.push_back(MPI_Ibarrier(MPI_COMM_WORLD, nullptr));
    c.push_back(MPI_Ibcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD, nullptr));
    c.push_back(MPI_Gatherv(v, 1, MPI_INT, v + 4, nullptr, counts, MPI_INT, 0, MPI_COMM_WORLD));
    c.push_back(MPI_Allgatherv(v, 1, MPI_INT, v + 4, counts, nullptr, MPI_INT, MPI_COMM_WORLD));
    c.push_back(MPI_Op_create(nullptr, 1, nullptr));
    // Not a block of zero counts: MPI_Reduce_scatter_block is the call for that.
    MPI_Request q;
    c.push_back(MPI_Reduce_scatter(v, v + 4, nullptr, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    c.push_back(MPI_Ireduce_scatter(v, v + 4, nullptr, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q));
  });
  EXPECT_EQ(codes, std::vector<int>(7, MPI_ERR_ARG));
}

TEST(CollectiveErrors, CountsThatDisagreeBetweenRanksAreTruncation) {
  // The root expects one int per rank; the others send two.
  std::vector<int> blocking(3, -1), nonblocking(3, -1);
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int me = test::world_rank();
    int mine[2] = {me, me}, all[6] = {0};
    const int n = me == 0 ? 1 : 2;
    blocking[static_cast<std::size_t>(me)] =
        MPI_Gather(mine, n, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Request q;
    MPI_Igather(mine, n, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
    nonblocking[static_cast<std::size_t>(me)] = MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(blocking, (std::vector<int>{MPI_ERR_TRUNCATE, MPI_SUCCESS, MPI_SUCCESS}));
  EXPECT_EQ(nonblocking, (std::vector<int>{MPI_ERR_TRUNCATE, MPI_SUCCESS, MPI_SUCCESS}));
}

TEST(CollectiveErrors, AFailedCallLeavesLaterCollectivesMatched) {
  // Rank 0's bad calls fail after some of their checks passed; the collectives every rank then
  // makes must still match up.
  std::vector<int> sums(3, -1), broadcast(3, -1), failed(3, 0);
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int me = test::world_rank();
    const auto i = static_cast<std::size_t>(me);
    int v = me + 1, out = -1;
    if (me == 0) {
      failed[i] += MPI_Reduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD) != 0;
      failed[i] += MPI_Allreduce(&v, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != 0;
      MPI_Request q;
      failed[i] +=
          MPI_Iallgather(&v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD, &q) != 0;
    }
    MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    sums[i] = out;
    int b = me == 2 ? 99 : 0;
    MPI_Request q;
    MPI_Ibcast(&b, 1, MPI_INT, 2, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    broadcast[i] = b;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(failed, (std::vector<int>{3, 0, 0}));
  EXPECT_EQ(sums, (std::vector<int>{6, 6, 6}));
  EXPECT_EQ(broadcast, (std::vector<int>{99, 99, 99}));
}

TEST(CollectiveErrors, FatalByDefaultNamingTheCallAndTheReason) {
  auto r = test::simulate(test::config(3), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v[4] = {0};
    if (test::world_rank() == 2) MPI_Gather(v, 1, MPI_INT, v, 1, MPI_INT, 5, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_TRUE(contains(r.message, "rank 2: MPI_Gather: MPI_ERR_ROOT: invalid root 5")) << r.message;

  auto in_place = test::simulate(test::config(3), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v[4] = {0};
    MPI_Request q;
    if (test::world_rank() == 1)
      MPI_Iallgather(v, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD, &q);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(in_place.reason, mpilite::RunEnd::FatalError);
  EXPECT_TRUE(contains(in_place.message,
                       "rank 1: MPI_Iallgather: MPI_ERR_BUFFER: MPI_IN_PLACE is not allowed as "
                       "the receive buffer"))
      << in_place.message;
}

} // namespace
