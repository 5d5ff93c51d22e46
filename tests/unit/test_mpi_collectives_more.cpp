// Gather(v), Scatter(v), Allgather(v), Alltoall(v, w), Reduce_scatter(_block), Scan, Exscan, and
// Bcast/Reduce/Allreduce at the sizes where MPICH picks its other algorithms, blocking and
// non-blocking, on 1, 2, 3, 7, 16 and 33 ranks. Every rank compares what it got with a serial
// computation made here; sizes are chosen on both sides of each algorithm threshold of
// docs/model.md, with MPI_IN_PLACE, uneven counts (zeros included), gaps in displacements,
// derived datatypes and user-defined (non-commutative) operations.
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "collective_test_support.hpp"

namespace {

using colltest::Collectives;
using colltest::Ints;
using colltest::Results;

int val(int rank, int i) {
  return rank * 1000003 + i;
}
Ints block(int rank, int n, int plus = 0) {
  Ints v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = val(rank, i) + plus;
  return v;
}
std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

std::vector<int> roots_of(int p) {
  std::vector<int> roots{0};
  if (p > 1) roots.push_back(p - 1);
  if (p > 2) roots.push_back(p / 2);
  return roots;
}

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

/// Per-rank counts with zeros (every rank j with j % 3 == 1), laid out in reverse rank order
/// with a gap of two elements after each block.
struct Layout {
  Ints counts, displs;
  int extent = 0;
  Layout(int p, int m) : counts(at(p)), displs(at(p)) {
    for (int j = p - 1; j >= 0; --j) {
      counts[at(j)] = j % 3 == 1 ? 0 : (j % 4 + 1) * m;
      displs[at(j)] = extent;
      extent += counts[at(j)] + 2;
    }
  }
  /// The buffer a v-collective fills: block j = `fill(j)` at displs[j], -1 elsewhere.
  template <class Fill> Ints expected(Fill fill) const {
    Ints v(at(extent), -1);
    for (std::size_t j = 0; j < counts.size(); ++j) {
      const Ints b = fill(static_cast<int>(j), counts[j]);
      std::copy(b.begin(), b.end(), v.begin() + displs[j]);
    }
    return v;
  }
};

/// The concatenation of block(j, n, plus) over ranks j.
Ints blocks(int p, int n, int plus = 0) {
  Ints v;
  for (int j = 0; j < p; ++j) {
    const Ints b = block(j, n, plus);
    v.insert(v.end(), b.begin(), b.end());
  }
  return v;
}

std::string named(const std::string& what, int root, int n) {
  return what + " root " + std::to_string(root) + " n " + std::to_string(n);
}

// ---- a non-commutative operation: 2x2 matrix product modulo 2^32 ---------------------------

using Mat = std::array<std::uint32_t, 4>; // row-major

Mat mul(const Mat& a, const Mat& b) {
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
          a[2] * b[1] + a[3] * b[3]};
}

/// MPI's contract: inout = in op inout, with `in` from the lower ranks.
void mat_product(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<Mat*>(in);
  auto* b = static_cast<Mat*>(inout);
  for (int i = 0; i < *len; ++i)
    b[i] = mul(a[i], b[i]);
}

/// A commutative user op (integer sum), to see that user ops avoid the predefined-only paths.
void int_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i)
    static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

/// Element e of rank r's input matrices: different enough that any reordering shows.
Mat mat_of(int r, int e) {
  const auto u = [](int x) { return static_cast<std::uint32_t>(x); };
  return {u(1 + (r + e) % 3), u(r + 1 + e % 5), u((r * (e + 1)) % 4), u(1 + r % 2)};
}
std::vector<Mat> mats_of(int r, int n, int first = 0) {
  std::vector<Mat> v(at(n));
  for (int e = 0; e < n; ++e)
    v[at(e)] = mat_of(r, first + e);
  return v;
}
/// Product over ranks [from, to) in rank order, per element.
std::vector<Mat> fold(int from, int to, int n, int first = 0) {
  std::vector<Mat> acc = mats_of(from, n, first);
  for (int r = from + 1; r < to; ++r)
    for (int e = 0; e < n; ++e)
      acc[at(e)] = mul(acc[at(e)], mat_of(r, first + e));
  return acc;
}

/// Every rank's process-local handles for the tests' types and ops.
struct Handles {
  MPI_Datatype mat = MPI_DATATYPE_NULL; ///< contiguous(4, MPI_UNSIGNED)
  MPI_Op product = MPI_OP_NULL, sum = MPI_OP_NULL;
  Handles() {
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(&mat_product, 0, &product);
    MPI_Op_create(&int_sum, 1, &sum);
  }
  ~Handles() {
    MPI_Op_free(&product);
    MPI_Op_free(&sum);
    MPI_Type_free(&mat);
  }
};

class MoreCollectives : public testing::TestWithParam<std::tuple<int, bool>> {
protected:
  int size() const { return std::get<0>(GetParam()); }
  Collectives coll() const {
    Collectives c;
    c.nonblocking = std::get<1>(GetParam());
    return c;
  }
};

TEST_P(MoreCollectives, GatherAndScatterAtSeveralRootsAndInPlace) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  colltest::run(p, [&](int r) {
    for (int root : roots_of(p))
      for (int n : {1, 3000}) {
        const Ints mine = block(r, n);
        const Ints nothing(at(p * n), -1);
        const Ints everything = blocks(p, n);
        Ints all(at(p * n), -1);
        res.call(r, k.gather(mine.data(), n, MPI_INT, all.data(), n, MPI_INT, root));
        res.check(named("gather", root, n), r, all, r == root ? everything : nothing);

        Ints in_place(at(p * n), -1);
        if (r == root) {
          std::copy(mine.begin(), mine.end(), in_place.begin() + root * n);
          res.call(r,
                   k.gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in_place.data(), n, MPI_INT, root));
        } else {
          res.call(r, k.gather(mine.data(), n, MPI_INT, nullptr, 0, MPI_DATATYPE_NULL, root));
        }
        res.check(named("gather in place", root, n), r, in_place, r == root ? everything : nothing);

        const Ints source = r == root ? blocks(p, n, root) : nothing;
        Ints got(at(n), -1);
        res.call(r, k.scatter(source.data(), n, MPI_INT, got.data(), n, MPI_INT, root));
        res.check(named("scatter", root, n), r, got, block(r, n, root));

        Ints kept = source;
        got.assign(at(n), -1);
        if (r == root)
          res.call(r, k.scatter(kept.data(), n, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root));
        else
          res.call(r, k.scatter(nullptr, 0, MPI_DATATYPE_NULL, got.data(), n, MPI_INT, root));
        res.check(named("scatter in place", root, n), r, r == root ? kept : got,
                  r == root ? source : block(r, n, root));
      }
  });
  res.verify();
}

TEST_P(MoreCollectives, GathervAndScattervWithUnevenCountsZerosAndGaps) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  colltest::run(p, [&](int r) {
    for (int root : roots_of(p))
      for (int m : {1, 700}) {
        const Layout l(p, m);
        const int n = l.counts[at(r)];
        const Ints mine = block(r, n);
        const Ints untouched(at(l.extent), -1);
        const Ints gathered = l.expected([](int j, int c) { return block(j, c); });
        Ints all(at(l.extent), -1);
        res.call(r, k.gatherv(mine.data(), n, MPI_INT, all.data(), l.counts.data(), l.displs.data(),
                              MPI_INT, root));
        res.check(named("gatherv", root, m), r, all, r == root ? gathered : untouched);

        Ints in_place(at(l.extent), -1);
        if (r == root) {
          std::copy(mine.begin(), mine.end(), in_place.begin() + l.displs[at(r)]);
          res.call(r, k.gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in_place.data(),
                                l.counts.data(), l.displs.data(), MPI_INT, root));
        } else {
          res.call(r, k.gatherv(mine.data(), n, MPI_INT, nullptr, nullptr, nullptr,
                                MPI_DATATYPE_NULL, root));
        }
        res.check(named("gatherv in place", root, m), r, in_place,
                  r == root ? gathered : untouched);

        const Ints source =
            r == root ? l.expected([&](int j, int c) { return block(j, c, root); }) : untouched;
        Ints got(at(n + 1), -1); // one more: nothing may be written past the count
        Ints want = block(r, n, root);
        want.push_back(-1);
        res.call(r, k.scatterv(source.data(), l.counts.data(), l.displs.data(), MPI_INT, got.data(),
                               n, MPI_INT, root));
        res.check(named("scatterv", root, m), r, got, want);

        Ints kept = source;
        got.assign(at(n + 1), -1);
        if (r == root)
          res.call(r, k.scatterv(kept.data(), l.counts.data(), l.displs.data(), MPI_INT,
                                 MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root));
        else
          res.call(r, k.scatterv(nullptr, nullptr, nullptr, MPI_DATATYPE_NULL, got.data(), n,
                                 MPI_INT, root));
        res.check(named("scatterv in place", root, m), r, r == root ? kept : got,
                  r == root ? source : want);
      }
  });
  res.verify();
}

TEST_P(MoreCollectives, AllgatherAndAllgathervOnBothSidesOfEachThreshold) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  // Totals of about 12 B, 160 KB and 600 KB: Bruck or recursive doubling, then recursive
  // doubling or ring, then ring (docs/model.md).
  const int counts[] = {3, ceil_div(40000, p), ceil_div(150000, p)};
  // Allgatherv totals of a few bytes, ~140 KB and ~700 KB; on 2 ranks blocks of 200 KB go in
  // pieces.
  const int multiples[] = {1, ceil_div(20000, p), ceil_div(100000, p)};
  colltest::run(p, [&](int r) {
    for (int n : counts) {
      const Ints mine = block(r, n);
      const Ints everything = blocks(p, n);
      Ints all(at(p * n), -1);
      res.call(r, k.allgather(mine.data(), n, MPI_INT, all.data(), n, MPI_INT));
      res.check(named("allgather", 0, n), r, all, everything);

      Ints in_place(at(p * n), -1);
      std::copy(mine.begin(), mine.end(), in_place.begin() + r * n);
      res.call(r, k.allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in_place.data(), n, MPI_INT));
      res.check(named("allgather in place", 0, n), r, in_place, everything);
    }
    for (int m : multiples) {
      const Layout l(p, m);
      const int n = l.counts[at(r)];
      const Ints mine = block(r, n);
      const Ints everything = l.expected([](int j, int c) { return block(j, c); });
      Ints all(at(l.extent), -1);
      res.call(r, k.allgatherv(mine.data(), n, MPI_INT, all.data(), l.counts.data(),
                               l.displs.data(), MPI_INT));
      res.check(named("allgatherv", 0, m), r, all, everything);

      Ints in_place(at(l.extent), -1);
      std::copy(mine.begin(), mine.end(), in_place.begin() + l.displs[at(r)]);
      res.call(r, k.allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in_place.data(), l.counts.data(),
                               l.displs.data(), MPI_INT));
      res.check(named("allgatherv in place", 0, m), r, in_place, everything);
    }
  });
  res.verify();
}

/// What rank `from` sends rank `to`, element i.
int pair_val(int from, int to, int i) {
  return from * 1000003 + to * 10007 + i;
}

TEST_P(MoreCollectives, AlltoallOnBothSidesOfEachThresholdAndInPlace) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  // Blocks of 8 B (Bruck from 8 ranks), 400 B (batches) and 32800 B (pairwise).
  colltest::run(p, [&](int r) {
    for (int n : {2, 100, 8200}) {
      Ints send(at(p * n)), want(at(p * n));
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < n; ++i) {
          send[at(j * n + i)] = pair_val(r, j, i);
          want[at(j * n + i)] = pair_val(j, r, i);
        }
      Ints got(at(p * n), -1);
      res.call(r, k.alltoall(send.data(), n, MPI_INT, got.data(), n, MPI_INT));
      res.check(named("alltoall", 0, n), r, got, want);

      got = send;
      res.call(r, k.alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got.data(), n, MPI_INT));
      res.check(named("alltoall in place", 0, n), r, got, want);
    }
  });
  res.verify();
}

TEST_P(MoreCollectives, AlltoallvWithUnevenCountsZerosGapsAndInPlace) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  // What `from` sends `to`: zero for some pairs; symmetric, as the in-place form needs.
  auto amount = [](int from, int to, int m) { return (from + to) % 4 * m; };
  colltest::run(p, [&](int r) {
    for (int m : {1, 300}) {
      Ints scounts(at(p)), sdispls(at(p)), rcounts(at(p)), rdispls(at(p));
      int send_extent = 0, recv_extent = 0;
      for (int j = p - 1; j >= 0; --j) { // sent blocks in reverse order, gap 1
        scounts[at(j)] = amount(r, j, m);
        sdispls[at(j)] = send_extent;
        send_extent += scounts[at(j)] + 1;
      }
      for (int j = 0; j < p; ++j) { // received blocks in order, gap 3
        rcounts[at(j)] = amount(j, r, m);
        rdispls[at(j)] = recv_extent;
        recv_extent += rcounts[at(j)] + 3;
      }
      Ints send(at(send_extent), -2), want(at(recv_extent), -1);
      for (int j = 0; j < p; ++j) {
        for (int i = 0; i < scounts[at(j)]; ++i)
          send[at(sdispls[at(j)] + i)] = pair_val(r, j, i);
        for (int i = 0; i < rcounts[at(j)]; ++i)
          want[at(rdispls[at(j)] + i)] = pair_val(j, r, i);
      }
      Ints got(at(recv_extent), -1);
      res.call(r, k.alltoallv(send.data(), scounts.data(), sdispls.data(), MPI_INT, got.data(),
                              rcounts.data(), rdispls.data(), MPI_INT));
      res.check(named("alltoallv", 0, m), r, got, want);

      // In place: what goes to j starts where j's block is received.
      Ints in_place(at(recv_extent), -1);
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < rcounts[at(j)]; ++i)
          in_place[at(rdispls[at(j)] + i)] = pair_val(r, j, i);
      res.call(r, k.alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, in_place.data(),
                              rcounts.data(), rdispls.data(), MPI_INT));
      res.check(named("alltoallv in place", 0, m), r, in_place, want);
    }
  });
  res.verify();
}

TEST_P(MoreCollectives, AlltoallwWithADifferentTypePerPeer) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  // Rank a and rank b exchange 2 * units(a, b) ints each way, each side describing them its own
  // way: as MPI_INT, as pairs (contiguous(2, MPI_INT)) or as one contiguous(2 * units) element.
  auto units = [](int a, int b) { return (a + b) % 3 + 1; };
  colltest::run(p, [&](int r) {
    MPI_Datatype pair, whole[4];
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int u = 1; u <= 3; ++u) {
      MPI_Type_contiguous(2 * u, MPI_INT, &whole[u]);
      MPI_Type_commit(&whole[u]);
    }
    auto describe = [&](int way, int u, int& count, MPI_Datatype& type) {
      if (way == 0) {
        count = 2 * u;
        type = MPI_INT;
      } else if (way == 1) {
        count = u;
        type = pair;
      } else {
        count = 1;
        type = whole[u];
      }
    };
    Ints scounts(at(p)), sdispls(at(p)), rcounts(at(p)), rdispls(at(p));
    std::vector<MPI_Datatype> stypes(at(p)), rtypes(at(p));
    int send_bytes = 0, recv_bytes = 0;
    for (int j = 0; j < p; ++j) { // displacements in bytes, with a 4-byte gap after each block
      describe((r + 2 * j) % 3, units(r, j), scounts[at(j)], stypes[at(j)]);
      sdispls[at(j)] = send_bytes;
      send_bytes += 8 * units(r, j) + 4;
    }
    for (int j = p - 1; j >= 0; --j) {
      describe((2 * j + r) % 3, units(j, r), rcounts[at(j)], rtypes[at(j)]);
      rdispls[at(j)] = recv_bytes;
      recv_bytes += 8 * units(j, r) + 4;
    }
    Ints send(at(send_bytes / 4), -2), want(at(recv_bytes / 4), -1);
    for (int j = 0; j < p; ++j) {
      for (int i = 0; i < 2 * units(r, j); ++i)
        send[at(sdispls[at(j)] / 4 + i)] = pair_val(r, j, i);
      for (int i = 0; i < 2 * units(j, r); ++i)
        want[at(rdispls[at(j)] / 4 + i)] = pair_val(j, r, i);
    }
    Ints got(at(recv_bytes / 4), -1);
    res.call(r, k.alltoallw(send.data(), scounts.data(), sdispls.data(), stypes.data(), got.data(),
                            rcounts.data(), rdispls.data(), rtypes.data()));
    res.check("alltoallw", r, got, want);

    // In place: the receive layout and types describe both directions; each pair agrees on
    // the way (symmetric in a and b).
    Ints in_place(at(recv_bytes / 4), -1);
    for (int j = 0; j < p; ++j) {
      describe((r + j) % 3, units(j, r), rcounts[at(j)], rtypes[at(j)]);
      for (int i = 0; i < 2 * units(j, r); ++i)
        in_place[at(rdispls[at(j)] / 4 + i)] = pair_val(r, j, i);
    }
    res.call(r, k.alltoallw(MPI_IN_PLACE, nullptr, nullptr, nullptr, in_place.data(),
                            rcounts.data(), rdispls.data(), rtypes.data()));
    res.check("alltoallw in place", r, in_place, want);

    MPI_Type_free(&pair);
    for (int u = 1; u <= 3; ++u)
      MPI_Type_free(&whole[u]);
  });
  res.verify();
}

TEST_P(MoreCollectives, LongBcastReduceAndAllreduceOfEveryRootAndOddCounts) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  // Bcast: 20 KB (scatter + allgather from 8 ranks) and 600 KB (ring); Reduce and Allreduce of
  // 1003 ints (Rabenseifner, with blocks of unequal size) and of 3 ints.
  colltest::run(p, [&](int r) {
    for (int root = 0; root < p; ++root) {
      for (int n : {5000, 150001}) {
        if (n > 5000 && root % 5 != 0) continue; // the long one from fewer roots
        Ints buf = r == root ? block(root, n) : Ints(at(n), -1);
        res.call(r, k.bcast(buf.data(), n, MPI_INT, root));
        res.check(named("bcast", root, n), r, buf, block(root, n));
      }
      for (int n : {3, 1003}) {
        Ints sum(at(n), 0);
        for (int j = 0; j < p; ++j)
          for (int i = 0; i < n; ++i)
            sum[at(i)] += (j + 1) * (i % 7 - 3);
        Ints mine(at(n));
        for (int i = 0; i < n; ++i)
          mine[at(i)] = (r + 1) * (i % 7 - 3);
        Ints got(at(n), -1);
        res.call(r, k.reduce(mine.data(), got.data(), n, MPI_INT, MPI_SUM, root));
        res.check(named("reduce", root, n), r, got, r == root ? sum : Ints(at(n), -1));

        Ints in_place = r == root ? mine : Ints(at(n), -1);
        res.call(r, k.reduce(r == root ? MPI_IN_PLACE : mine.data(), in_place.data(), n, MPI_INT,
                             MPI_SUM, root));
        res.check(named("reduce in place", root, n), r, in_place,
                  r == root ? sum : Ints(at(n), -1));
        if (root != 0) continue;
        got.assign(at(n), -1);
        res.call(r, k.allreduce(mine.data(), got.data(), n, MPI_INT, MPI_SUM));
        res.check(named("allreduce", root, n), r, got, sum);
        in_place = mine;
        res.call(r, k.allreduce(MPI_IN_PLACE, in_place.data(), n, MPI_INT, MPI_SUM));
        res.check(named("allreduce in place", root, n), r, in_place, sum);
      }
    }
  });
  res.verify();
}

TEST_P(MoreCollectives, NonCommutativeUserOpFollowsRankOrderEverywhere) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  colltest::run(p, [&](int r) {
    const Handles h;
    int commutative = -1;
    MPI_Op_commutative(h.product, &commutative);
    res.check("product is not commutative", r, Ints{commutative}, Ints{0});
    MPI_Op_commutative(h.sum, &commutative);
    res.check("user sum is commutative", r, Ints{commutative}, Ints{1});

    for (int n : {1, 700}) { // 700 matrices: 11 KB, still the short algorithms for user ops
      const std::vector<Mat> mine = mats_of(r, n);
      const std::vector<Mat> all = fold(0, p, n);
      const std::vector<Mat> junk(at(n), Mat{7, 7, 7, 7});
      for (int root : roots_of(p)) {
        std::vector<Mat> got = junk;
        res.call(r, k.reduce(mine.data(), got.data(), n, h.mat, h.product, root));
        res.check(named("reduce product", root, n), r, got, r == root ? all : junk);
        got = r == root ? mine : junk;
        res.call(r, k.reduce(r == root ? MPI_IN_PLACE : mine.data(), got.data(), n, h.mat,
                             h.product, root));
        res.check(named("reduce product in place", root, n), r, got, r == root ? all : junk);
      }
      std::vector<Mat> got = junk;
      res.call(r, k.allreduce(mine.data(), got.data(), n, h.mat, h.product));
      res.check(named("allreduce product", 0, n), r, got, all);
      got = mine;
      res.call(r, k.allreduce(MPI_IN_PLACE, got.data(), n, h.mat, h.product));
      res.check(named("allreduce product in place", 0, n), r, got, all);

      got = junk;
      res.call(r, k.scan(mine.data(), got.data(), n, h.mat, h.product));
      res.check(named("scan product", 0, n), r, got, fold(0, r + 1, n));
      got = mine;
      res.call(r, k.scan(MPI_IN_PLACE, got.data(), n, h.mat, h.product));
      res.check(named("scan product in place", 0, n), r, got, fold(0, r + 1, n));

      got = junk;
      res.call(r, k.exscan(mine.data(), got.data(), n, h.mat, h.product));
      res.check(named("exscan product", 0, n), r, got, r == 0 ? junk : fold(0, r, n));
      got = mine;
      res.call(r, k.exscan(MPI_IN_PLACE, got.data(), n, h.mat, h.product));
      res.check(named("exscan product in place", 0, n), r, got, r == 0 ? mine : fold(0, r, n));
    }

    // Reduce_scatter: equal blocks (Traff's butterfly on powers of two) and uneven ones with
    // zeros (recursive doubling); element e of the whole vector is the product of mat_of(., e).
    for (int m : {1, 40}) {
      const Layout uneven(p, m);
      for (bool equal : {true, false}) {
        Ints counts = equal ? Ints(at(p), 2 * m) : uneven.counts;
        const int total = std::accumulate(counts.begin(), counts.end(), 0);
        int first = 0;
        for (int j = 0; j < r; ++j)
          first += counts[at(j)];
        const int n = counts[at(r)];
        const std::vector<Mat> mine = mats_of(r, total);
        const std::string what = equal ? "reduce_scatter_block product" : "reduce_scatter product";
        std::vector<Mat> got(at(n + 1), Mat{7, 7, 7, 7});
        std::vector<Mat> want = fold(0, p, n, first);
        want.push_back(Mat{7, 7, 7, 7});
        if (equal)
          res.call(r, k.reduce_scatter_block(mine.data(), got.data(), n, h.mat, h.product));
        else
          res.call(r, k.reduce_scatter(mine.data(), got.data(), counts.data(), h.mat, h.product));
        res.check(named(what, 0, m), r, got, want);

        std::vector<Mat> in_place = mine;
        if (equal)
          res.call(r, k.reduce_scatter_block(MPI_IN_PLACE, in_place.data(), n, h.mat, h.product));
        else
          res.call(
              r, k.reduce_scatter(MPI_IN_PLACE, in_place.data(), counts.data(), h.mat, h.product));
        in_place.resize(at(n));
        want.pop_back();
        res.check(named(what + " in place", 0, m), r, in_place, want);
      }
    }

    // A commutative user op on a long vector: the same sums as MPI_SUM.
    const int n = 3000;
    Ints mine(at(n)), sum(at(n), 0), got(at(n), -1);
    for (int i = 0; i < n; ++i) {
      mine[at(i)] = r * 3 + i;
      for (int j = 0; j < p; ++j)
        sum[at(i)] += j * 3 + i;
    }
    res.call(r, k.allreduce(mine.data(), got.data(), n, MPI_INT, h.sum));
    res.check("allreduce user sum", r, got, sum);
    got.assign(at(n), -1);
    res.call(r, k.reduce(mine.data(), got.data(), n, MPI_INT, h.sum, p - 1));
    res.check("reduce user sum", r, got, r == p - 1 ? sum : Ints(at(n), -1));
  });
  res.verify();
}

TEST_P(MoreCollectives, ReduceScatterScanAndExscanWithSum) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  auto input = [](int r, int i) { return (r + 1) * (i % 11 - 5); };
  colltest::run(p, [&](int r) {
    // Totals of a few elements (recursive halving) and of 560 KB (pairwise).
    for (int m : {1, ceil_div(140000, p)})
      for (bool equal : {true, false}) {
        const Layout uneven(p, m);
        const Ints counts = equal ? Ints(at(p), m) : uneven.counts;
        const int total = std::accumulate(counts.begin(), counts.end(), 0);
        int first = 0;
        for (int j = 0; j < r; ++j)
          first += counts[at(j)];
        const int n = counts[at(r)];
        Ints mine(at(total)), want(at(n));
        for (int i = 0; i < total; ++i)
          mine[at(i)] = input(r, i);
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < p; ++j)
            want[at(i)] += input(j, first + i);
        const std::string what = equal ? "reduce_scatter_block sum" : "reduce_scatter sum";
        Ints got(at(n), -1);
        if (equal)
          res.call(r, k.reduce_scatter_block(mine.data(), got.data(), n, MPI_INT, MPI_SUM));
        else
          res.call(r, k.reduce_scatter(mine.data(), got.data(), counts.data(), MPI_INT, MPI_SUM));
        res.check(named(what, 0, m), r, got, want);
        Ints in_place = mine;
        if (equal)
          res.call(r, k.reduce_scatter_block(MPI_IN_PLACE, in_place.data(), n, MPI_INT, MPI_SUM));
        else
          res.call(
              r, k.reduce_scatter(MPI_IN_PLACE, in_place.data(), counts.data(), MPI_INT, MPI_SUM));
        in_place.resize(at(n));
        res.check(named(what + " in place", 0, m), r, in_place, want);
      }
    for (int n : {1, 2000}) {
      Ints mine(at(n)), prefix(at(n), 0), before(at(n), 0);
      for (int i = 0; i < n; ++i) {
        mine[at(i)] = input(r, i);
        for (int j = 0; j <= r; ++j)
          prefix[at(i)] += input(j, i);
        before[at(i)] = prefix[at(i)] - mine[at(i)];
      }
      Ints got(at(n), -1);
      res.call(r, k.scan(mine.data(), got.data(), n, MPI_INT, MPI_SUM));
      res.check(named("scan sum", 0, n), r, got, prefix);
      got.assign(at(n), -1);
      res.call(r, k.exscan(mine.data(), got.data(), n, MPI_INT, MPI_SUM));
      res.check(named("exscan sum", 0, n), r, got, r == 0 ? Ints(at(n), -1) : before);
    }
  });
  res.verify();
}

/// MPI_DOUBLE_INT: 12 bytes of data in a 16-byte struct, so arrays of it are not contiguous and
/// the collectives must pack them.
struct DoubleInt {
  double value;
  int index;
  bool operator==(const DoubleInt& o) const { return value == o.value && index == o.index; }
  friend std::ostream& operator<<(std::ostream& os, const DoubleInt& d) {
    return os << "(" << d.value << ", " << d.index << ")";
  }
};

TEST_P(MoreCollectives, DerivedDatatypesInCollectives) {
  const int p = size();
  const Collectives k = coll();
  Results res(p);
  auto item = [](int r, int i) { return DoubleInt{r + i * 0.5, r * 100 + i}; };
  auto items = [&](int r, int n) {
    std::vector<DoubleInt> v(at(n));
    for (int i = 0; i < n; ++i)
      v[at(i)] = item(r, i);
    return v;
  };
  colltest::run(p, [&](int r) {
    MPI_Datatype triple, ints3;
    MPI_Type_contiguous(3, MPI_DOUBLE_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Type_contiguous(3, MPI_INT, &ints3);
    MPI_Type_commit(&ints3);

    // Bcast of 36 KB and 612 KB of packed data: binomial, scatter + allgather.
    for (int n : {1000, 17000}) {
      std::vector<DoubleInt> buf =
          r == p - 1 ? items(p - 1, 3 * n) : std::vector<DoubleInt>(at(3 * n), DoubleInt{});
      res.call(r, k.bcast(buf.data(), n, triple, p - 1));
      res.check(named("bcast of contiguous(3, MPI_DOUBLE_INT)", p - 1, n), r, buf,
                items(p - 1, 3 * n));
    }

    // Gather: 3 MPI_INTs sent, one contiguous(3, MPI_INT) received per rank.
    const Ints mine = block(r, 3);
    Ints all(at(3 * p), -1);
    res.call(r, k.gather(mine.data(), 3, MPI_INT, all.data(), 1, ints3, 0));
    res.check("gather into contiguous(3, MPI_INT)", r, all,
              r == 0 ? blocks(p, 3) : Ints(at(3 * p), -1));

    // Allgather the other way round.
    all.assign(at(3 * p), -1);
    res.call(r, k.allgather(mine.data(), 1, ints3, all.data(), 3, MPI_INT));
    res.check("allgather from contiguous(3, MPI_INT)", r, all, blocks(p, 3));

    // Alltoall of packed blocks (Bruck from 8 ranks: 36-byte blocks).
    std::vector<DoubleInt> send(at(3 * p)), got(at(3 * p)), want(at(3 * p));
    for (int j = 0; j < p; ++j)
      for (int i = 0; i < 3; ++i) {
        send[at(3 * j + i)] = item(r * p + j, i);
        want[at(3 * j + i)] = item(j * p + r, i);
      }
    res.call(r, k.alltoall(send.data(), 1, triple, got.data(), 1, triple));
    res.check("alltoall of contiguous(3, MPI_DOUBLE_INT)", r, got, want);

    // MINLOC over packed pairs.
    std::vector<DoubleInt> loc(3), minloc(3);
    for (int i = 0; i < 3; ++i)
      loc[at(i)] = DoubleInt{static_cast<double>((r * 5 + i) % 4), r};
    for (int i = 0; i < 3; ++i) {
      minloc[at(i)] = DoubleInt{1e9, -1};
      for (int j = 0; j < p; ++j) {
        const double v = (j * 5 + i) % 4;
        if (v < minloc[at(i)].value) minloc[at(i)] = DoubleInt{v, j};
      }
    }
    std::vector<DoubleInt> out(3, DoubleInt{});
    res.call(r, k.allreduce(loc.data(), out.data(), 1, triple, MPI_MINLOC));
    res.check("allreduce MINLOC of contiguous(3, MPI_DOUBLE_INT)", r, out, minloc);

    MPI_Type_free(&triple);
    MPI_Type_free(&ints3);
  });
  res.verify();
}

INSTANTIATE_TEST_SUITE_P(Collectives, MoreCollectives,
                         testing::Combine(testing::Values(1, 2, 3, 7, 16, 33), testing::Bool()),
                         [](const testing::TestParamInfo<std::tuple<int, bool>>& info) {
                           return std::to_string(std::get<0>(info.param)) + "ranks" +
                                  (std::get<1>(info.param) ? "Nonblocking" : "Blocking");
                         });

} // namespace
