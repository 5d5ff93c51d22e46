// Virtual topologies: MPI_Dims_create against MPI's examples and hand-balanced grids; Cartesian
// grids in 2-D and 3-D with periodic and non-periodic dimensions (coordinates, shifts and halo
// exchanges through them, subgrids); graphs; and the error classes of bad arguments.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

struct DimsCase {
  int nnodes;
  std::vector<int> dims;     ///< input
  std::vector<int> expected; ///< output, or empty for MPI_ERR_DIMS
};

TEST(Topology, DimsCreateGivesBalancedNonIncreasingGrids) {
  const std::vector<DimsCase> cases = {
      // MPI-3.1 section 7.5.2, example 7.1.
      {6, {0, 0}, {3, 2}},
      {7, {0, 0}, {7, 1}},
      {6, {0, 3, 0}, {2, 3, 1}},
      {7, {0, 3, 0}, {}},
      // Balanced by hand: the free extents differ as little as any factorization allows.
      {16, {0, 0}, {4, 4}},
      {12, {0, 0, 0}, {3, 2, 2}},
      {100, {0, 0, 0}, {5, 5, 4}},
      {90, {0, 0, 0}, {6, 5, 3}},
      {24, {0, 0, 0}, {4, 3, 2}},
      {64, {0, 0, 0}, {4, 4, 4}},
      {30, {0, 0}, {6, 5}},
      {1, {0, 0, 0}, {1, 1, 1}},
      {33, {0, 0, 0}, {11, 3, 1}},
      {12, {0, 2}, {6, 2}},
      // As balanced as 9 x 8 x 5: MPICH's choice (the last it tries).
      {360, {0, 0, 0}, {10, 6, 6}},
      {6, {3, 2}, {3, 2}},
      {6, {3, 3}, {}},
  };
  std::vector<std::vector<int>> got(cases.size());
  std::vector<int> codes(cases.size());
  auto summary = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      got[i] = cases[i].dims;
      codes[i] = MPI_Dims_create(cases[i].nnodes, static_cast<int>(got[i].size()), got[i].data());
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("MPI_Dims_create(" + std::to_string(cases[i].nnodes) + ") case " +
                 std::to_string(i));
    if (cases[i].expected.empty()) {
      EXPECT_EQ(codes[i], MPI_ERR_DIMS);
    } else {
      EXPECT_EQ(codes[i], MPI_SUCCESS);
      EXPECT_EQ(got[i], cases[i].expected);
    }
  }
}

/// Rank of `coords` in a row-major grid, or MPI_PROC_NULL outside a non-periodic dimension.
int grid_rank(std::vector<int> coords, const std::vector<int>& dims,
              const std::vector<int>& periods) {
  int rank = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    int c = coords[i];
    if (periods[i])
      c = ((c % dims[i]) + dims[i]) % dims[i];
    else if (c < 0 || c >= dims[i])
      return MPI_PROC_NULL;
    rank = rank * dims[i] + c;
  }
  return rank;
}

std::vector<int> grid_coords(int rank, const std::vector<int>& dims) {
  std::vector<int> c(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    c[i] = rank % dims[i];
    rank /= dims[i];
  }
  return c;
}

/// What one rank saw on its grid.
struct GridLog {
  int failed = 0;
  std::vector<int> dims, coords, back;
  std::vector<int> source, dest;    ///< MPI_Cart_shift per dimension (disp of the test)
  std::vector<int> got, got_source; ///< halo exchange through the shift, per dimension
  int topo = -1, cartdim = -1, rank_of_coords = -1;
};

void run_grid(int size, int ndims, const std::vector<int>& periods, int disp) {
  std::vector<GridLog> logs(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    GridLog& log = logs[static_cast<std::size_t>(me)];
    auto call = [&log](int code) { log.failed += code != MPI_SUCCESS; };
    std::vector<int> dims(static_cast<std::size_t>(ndims), 0);
    call(MPI_Dims_create(size, ndims, dims.data()));
    MPI_Comm grid;
    call(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims.data(), periods.data(), 0, &grid));
    int rank;
    call(MPI_Comm_rank(grid, &rank));
    call(MPI_Topo_test(grid, &log.topo));
    call(MPI_Cartdim_get(grid, &log.cartdim));
    log.dims.assign(dims.size(), -1);
    std::vector<int> got_periods(dims.size(), -1);
    log.coords.assign(dims.size(), -1);
    call(MPI_Cart_get(grid, ndims, log.dims.data(), got_periods.data(), log.coords.data()));
    log.back.assign(dims.size(), -1);
    call(MPI_Cart_coords(grid, rank, ndims, log.back.data()));
    call(MPI_Cart_rank(grid, log.coords.data(), &log.rank_of_coords));
    if (got_periods != periods) ++log.failed;
    for (int d = 0; d < ndims; ++d) {
      int src, dst, value = -1;
      call(MPI_Cart_shift(grid, d, disp, &src, &dst));
      log.source.push_back(src);
      log.dest.push_back(dst);
      MPI_Status st;
      call(MPI_Sendrecv(&me, 1, MPI_INT, dst, d, &value, 1, MPI_INT, src, d, grid, &st));
      log.got.push_back(value);
      log.got_source.push_back(st.MPI_SOURCE);
    }
    call(MPI_Comm_free(&grid));
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  const std::vector<int> dims = logs[0].dims;
  ASSERT_EQ(std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>()), size);
  for (int r = 0; r < size; ++r) {
    const GridLog& log = logs[static_cast<std::size_t>(r)];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(log.failed, 0);
    EXPECT_EQ(log.topo, MPI_CART);
    EXPECT_EQ(log.cartdim, ndims);
    EXPECT_EQ(log.dims, dims);
    const std::vector<int> coords = grid_coords(r, dims); // the grid keeps world order
    EXPECT_EQ(log.coords, coords);
    EXPECT_EQ(log.back, coords);
    EXPECT_EQ(log.rank_of_coords, r);
    for (int d = 0; d < ndims; ++d) {
      std::vector<int> up = coords, down = coords;
      up[static_cast<std::size_t>(d)] += disp;
      down[static_cast<std::size_t>(d)] -= disp;
      const int dst = grid_rank(up, dims, periods), src = grid_rank(down, dims, periods);
      EXPECT_EQ(log.dest[static_cast<std::size_t>(d)], dst) << "dimension " << d;
      EXPECT_EQ(log.source[static_cast<std::size_t>(d)], src) << "dimension " << d;
      // The grid's ranks are world ranks, so the value received is the source's rank.
      EXPECT_EQ(log.got[static_cast<std::size_t>(d)], src == MPI_PROC_NULL ? -1 : src);
      EXPECT_EQ(log.got_source[static_cast<std::size_t>(d)], src);
    }
  }
}

class TopologyTest : public testing::TestWithParam<int> {};

TEST_P(TopologyTest, TwoDimensionalGridPeriodicInTheFirstDimension) {
  run_grid(GetParam(), 2, {1, 0}, 1);
}

TEST_P(TopologyTest, TwoDimensionalGridNonPeriodicShiftByTwo) {
  run_grid(GetParam(), 2, {0, 0}, 2);
}

TEST_P(TopologyTest, ThreeDimensionalGridMixedPeriodsShiftBack) {
  run_grid(GetParam(), 3, {0, 1, 1}, -1);
}

TEST_P(TopologyTest, ThreeDimensionalFullyPeriodicGrid) {
  run_grid(GetParam(), 3, {1, 1, 1}, 1);
}

TEST_P(TopologyTest, SubgridsKeepTheRemainingDimensions) {
  const int size = GetParam();
  struct Log {
    int failed = 0;
    std::vector<int> dims, periods, coords;
    int rank = -1, size = -1, sum = -1, line_size = -1, point_dims = -1, point_size = -1;
  };
  std::vector<Log> logs(static_cast<std::size_t>(size));
  std::vector<int> dims(3, 0);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    Log& log = logs[static_cast<std::size_t>(me)];
    auto call = [&log](int code) { log.failed += code != MPI_SUCCESS; };
    std::vector<int> d(3, 0);
    call(MPI_Dims_create(size, 3, d.data()));
    if (me == 0) dims = d;
    const int periods[3] = {0, 1, 1};
    MPI_Comm grid, plane, line, point;
    call(MPI_Cart_create(MPI_COMM_WORLD, 3, d.data(), periods, 1, &grid));
    const int keep_02[3] = {1, 0, 1}, keep_1[3] = {0, 1, 0}, keep_none[3] = {0, 0, 0};
    call(MPI_Cart_sub(grid, keep_02, &plane));
    call(MPI_Comm_rank(plane, &log.rank));
    call(MPI_Comm_size(plane, &log.size));
    log.dims.assign(2, -1);
    log.periods.assign(2, -1);
    log.coords.assign(2, -1);
    call(MPI_Cart_get(plane, 2, log.dims.data(), log.periods.data(), log.coords.data()));
    call(MPI_Allreduce(&me, &log.sum, 1, MPI_INT, MPI_SUM, plane));
    call(MPI_Cart_sub(grid, keep_1, &line));
    call(MPI_Comm_size(line, &log.line_size));
    // No dimension kept: as in MPICH, rank 0 of the grid gets a 0-dimensional grid of one
    // point, the others MPI_COMM_NULL.
    call(MPI_Cart_sub(grid, keep_none, &point));
    if (point != MPI_COMM_NULL) {
      call(MPI_Cartdim_get(point, &log.point_dims));
      call(MPI_Comm_size(point, &log.point_size));
      call(MPI_Comm_free(&point));
    }
    for (MPI_Comm* c : {&grid, &plane, &line})
      call(MPI_Comm_free(c));
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const Log& log = logs[static_cast<std::size_t>(r)];
    const std::vector<int> c = grid_coords(r, dims);
    int sum = 0; // world ranks with the same coordinate in dimension 1
    for (int q = 0; q < size; ++q)
      if (grid_coords(q, dims)[1] == c[1]) sum += q;
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(log.failed, 0);
    EXPECT_EQ(log.dims, (std::vector<int>{dims[0], dims[2]}));
    EXPECT_EQ(log.periods, (std::vector<int>{0, 1}));
    EXPECT_EQ(log.coords, (std::vector<int>{c[0], c[2]}));
    EXPECT_EQ(log.rank, c[0] * dims[2] + c[2]);
    EXPECT_EQ(log.size, dims[0] * dims[2]);
    EXPECT_EQ(log.sum, sum);
    EXPECT_EQ(log.line_size, dims[1]);
    EXPECT_EQ(log.point_dims, r == 0 ? 0 : -1);
    EXPECT_EQ(log.point_size, r == 0 ? 1 : -1);
  }
}

TEST_P(TopologyTest, SmallerGridLeavesTheRestOutAndDupKeepsTheTopology) {
  const int size = GetParam();
  std::vector<MPI_Comm> grids(static_cast<std::size_t>(size));
  std::vector<int> dup_topo(static_cast<std::size_t>(size), -1), dup_dim(dup_topo),
      world_topo(dup_topo), mapped(dup_topo);
  const int n = size > 1 ? size - 1 : 1;
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const std::size_t i = static_cast<std::size_t>(me);
    const int periods[1] = {0};
    MPI_Topo_test(MPI_COMM_WORLD, &world_topo[i]);
    MPI_Cart_map(MPI_COMM_WORLD, 1, &n, periods, &mapped[i]);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &n, periods, 0, &grids[i]);
    if (grids[i] != MPI_COMM_NULL) {
      MPI_Comm dup;
      MPI_Comm_dup(grids[i], &dup);
      MPI_Topo_test(dup, &dup_topo[i]);
      int d = -1, p = -1, c = -1;
      MPI_Cart_get(dup, 1, &d, &p, &c);
      dup_dim[i] = d;
      MPI_Comm_free(&dup);
      MPI_Comm_free(&grids[i]);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    EXPECT_EQ(world_topo[i], MPI_UNDEFINED);
    if (r < n) {
      EXPECT_EQ(mapped[i], r);
      EXPECT_EQ(dup_topo[i], MPI_CART) << "rank " << r;
      EXPECT_EQ(dup_dim[i], n) << "rank " << r;
    } else {
      EXPECT_EQ(mapped[i], MPI_UNDEFINED);
      EXPECT_EQ(grids[i], MPI_COMM_NULL) << "rank " << r;
    }
  }
}

TEST_P(TopologyTest, RingGraphNeighbours) {
  const int size = GetParam();
  struct Log {
    int failed = 0, topo = -1, count = -1, nnodes = -1, nedges = -1, mapped = -1;
    std::vector<int> neighbors, index, edges;
  };
  std::vector<Log> logs(static_cast<std::size_t>(size));
  std::vector<int> index, edges; // node i: i-1 and i+1 around the ring
  for (int i = 0; i < size; ++i) {
    edges.push_back((i - 1 + size) % size);
    edges.push_back((i + 1) % size);
    index.push_back(2 * (i + 1));
  }
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    Log& log = logs[static_cast<std::size_t>(me)];
    auto call = [&log](int code) { log.failed += code != MPI_SUCCESS; };
    MPI_Comm ring;
    call(MPI_Graph_create(MPI_COMM_WORLD, size, index.data(), edges.data(), 0, &ring));
    call(MPI_Topo_test(ring, &log.topo));
    call(MPI_Graph_neighbors_count(ring, me, &log.count));
    log.neighbors.assign(2, -1);
    call(MPI_Graph_neighbors(ring, me, 2, log.neighbors.data()));
    call(MPI_Graphdims_get(ring, &log.nnodes, &log.nedges));
    log.index.assign(static_cast<std::size_t>(size), -1);
    log.edges.assign(static_cast<std::size_t>(2 * size), -1);
    call(MPI_Graph_get(ring, size, 2 * size, log.index.data(), log.edges.data()));
    call(MPI_Graph_map(MPI_COMM_WORLD, size, index.data(), edges.data(), &log.mapped));
    call(MPI_Comm_free(&ring));
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const Log& log = logs[static_cast<std::size_t>(r)];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(log.failed, 0);
    EXPECT_EQ(log.topo, MPI_GRAPH);
    EXPECT_EQ(log.count, 2);
    EXPECT_EQ(log.neighbors, (std::vector<int>{(r - 1 + size) % size, (r + 1) % size}));
    EXPECT_EQ(log.nnodes, size);
    EXPECT_EQ(log.nedges, 2 * size);
    EXPECT_EQ(log.index, index);
    EXPECT_EQ(log.edges, edges);
    EXPECT_EQ(log.mapped, r);
  }
}

INSTANTIATE_TEST_SUITE_P(Topology, TopologyTest, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST(Topology, ErrorClassesOfBadArguments) {
  std::vector<int> codes;
  auto summary = test::simulate(test::config(4), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int dims[2] = {2, 2}, periods[2] = {0, 0};
    MPI_Comm grid, out;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    const int index[1] = {0};
    MPI_Comm graph;
    MPI_Graph_create(MPI_COMM_WORLD, 1, index, nullptr, 0, &graph);
    if (test::world_rank() == 0) {
      int a, b;
      codes.push_back(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &a, &b));
      const int too_big[2] = {3, 2};
      codes.push_back(MPI_Cart_create(MPI_COMM_WORLD, 2, too_big, periods, 0, &out));
      const int zero[2] = {0, 2};
      codes.push_back(MPI_Cart_create(MPI_COMM_WORLD, 2, zero, periods, 0, &out));
      int free_dims[3] = {0, 3, 0};
      codes.push_back(MPI_Dims_create(7, 3, free_dims));
      codes.push_back(MPI_Dims_create(4, -1, free_dims));
      codes.push_back(MPI_Cart_shift(grid, 2, 1, &a, &b));
      const int outside[2] = {2, 0};
      codes.push_back(MPI_Cart_rank(grid, outside, &a));
      int coords[2];
      codes.push_back(MPI_Cart_coords(grid, 4, 2, coords));
      codes.push_back(MPI_Cart_coords(grid, 1, 1, coords));
      codes.push_back(MPI_Cartdim_get(graph, &a));
      codes.push_back(MPI_Graph_neighbors_count(graph, 1, &a));
      const int bad_edges[1] = {5}, one_edge[1] = {1};
      codes.push_back(MPI_Graph_create(MPI_COMM_WORLD, 1, one_edge, bad_edges, 0, &out));
      codes.push_back(MPI_Graphdims_get(grid, &a, &b));
    }
    if (graph != MPI_COMM_NULL) MPI_Comm_free(&graph);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(codes,
            (std::vector<int>{MPI_ERR_TOPOLOGY, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_DIMS,
                              MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_RANK, MPI_ERR_ARG,
                              MPI_ERR_TOPOLOGY, MPI_ERR_RANK, MPI_ERR_ARG, MPI_ERR_TOPOLOGY}));
}

} // namespace
