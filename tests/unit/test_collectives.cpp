// Collectives (Bcast, Reduce, Allreduce, Barrier) give MPI's results on 1, 2, 3, 7, 16, 33 and 257
// ranks, for every predefined op on int, long, float and double, and MINLOC/MAXLOC on the pair
// types. Every expected value is a serial fold of the per-rank inputs computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;

// ---- pair types of MINLOC / MAXLOC -------------------------------------------------------------

/// struct { V value; int index; }: the C layout the standard gives MPI_2INT, MPI_FLOAT_INT, ...
template <class V> struct ValueIndex {
  V value;
  int index;
  bool operator==(const ValueIndex&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const ValueIndex& p) {
    return os << "(" << p.value << ", " << p.index << ")";
  }
};
using TwoInt = ValueIndex<int>;
using FloatInt = ValueIndex<float>;
using DoubleInt = ValueIndex<double>;
using LongInt = ValueIndex<long>;

template <class T> constexpr bool kIsPair = false;
template <class V> constexpr bool kIsPair<ValueIndex<V>> = true;

// ---- the MPI datatype and the name of each C type ---------------------------------------------

template <class T> constexpr MPI_Datatype kType = MPI_DATATYPE_NULL;
template <> constexpr MPI_Datatype kType<int> = MPI_INT;
template <> constexpr MPI_Datatype kType<long> = MPI_LONG;
template <> constexpr MPI_Datatype kType<float> = MPI_FLOAT;
template <> constexpr MPI_Datatype kType<double> = MPI_DOUBLE;
template <> constexpr MPI_Datatype kType<TwoInt> = MPI_2INT;
template <> constexpr MPI_Datatype kType<FloatInt> = MPI_FLOAT_INT;
template <> constexpr MPI_Datatype kType<DoubleInt> = MPI_DOUBLE_INT;
template <> constexpr MPI_Datatype kType<LongInt> = MPI_LONG_INT;

template <class T> constexpr const char* kTypeName = "?";
template <> constexpr const char* kTypeName<int> = "MPI_INT";
template <> constexpr const char* kTypeName<long> = "MPI_LONG";
template <> constexpr const char* kTypeName<float> = "MPI_FLOAT";
template <> constexpr const char* kTypeName<double> = "MPI_DOUBLE";
template <> constexpr const char* kTypeName<TwoInt> = "MPI_2INT";
template <> constexpr const char* kTypeName<FloatInt> = "MPI_FLOAT_INT";
template <> constexpr const char* kTypeName<DoubleInt> = "MPI_DOUBLE_INT";
template <> constexpr const char* kTypeName<LongInt> = "MPI_LONG_INT";

std::string op_name(MPI_Op op) {
  switch (op) {
  case MPI_SUM:
    return "MPI_SUM";
  case MPI_PROD:
    return "MPI_PROD";
  case MPI_MAX:
    return "MPI_MAX";
  case MPI_MIN:
    return "MPI_MIN";
  case MPI_LAND:
    return "MPI_LAND";
  case MPI_LOR:
    return "MPI_LOR";
  case MPI_LXOR:
    return "MPI_LXOR";
  case MPI_BAND:
    return "MPI_BAND";
  case MPI_BOR:
    return "MPI_BOR";
  case MPI_BXOR:
    return "MPI_BXOR";
  case MPI_MINLOC:
    return "MPI_MINLOC";
  case MPI_MAXLOC:
    return "MPI_MAXLOC";
  default:
    return "op " + std::to_string(op);
  }
}

const std::vector<MPI_Op> kArithmeticOps = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
const std::vector<MPI_Op> kIntegerOps = {MPI_SUM, MPI_PROD, MPI_MAX,  MPI_MIN, MPI_LAND,
                                         MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
const std::vector<MPI_Op> kLocOps = {MPI_MINLOC, MPI_MAXLOC};

// ---- per-rank inputs and the serial fold -----------------------------------------------------

constexpr int kCount = 3; // elements per reduction
template <class T> using Elems = std::array<T, kCount>;

/// Scattered bits for the bitwise ops, different per rank and element.
std::uint64_t mix(int r, int e) {
  std::uint64_t h = static_cast<std::uint64_t>(r + 1) * 0x9E3779B97F4A7C15ull ^
                    static_cast<std::uint64_t>(e + 1) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  return h * 0xBF58476D1CE4E5B9ull;
}

/// Element `e` of rank `r`'s input to `op`. Small integers, so that float sums and products are
/// exact in any order; PROD has at most 20 factors of magnitude 2 per element on 257 ranks.
template <class T> T input(MPI_Op op, int r, int e, int size) {
  if constexpr (kIsPair<T>) {
    using V = decltype(T::value);
    switch (e) {
    case 0: // many ties; index = rank
      return T{static_cast<V>(r % 3), r};
    case 1: // ties whose lowest index lives on the highest rank
      return T{static_cast<V>((r / 4) % 3 - 1), size - r};
    default: // ties with scrambled (distinct) indices
      return T{static_cast<V>((r * r) % 7), (r * 7919) % 1009};
    }
  } else {
    switch (op) {
    case MPI_SUM:
      return static_cast<T>((r * 7 + e * 3) % 11 - 5);
    case MPI_PROD:
      if (e == 0) return static_cast<T>(r % 13 == 1 ? 2 : 1);
      if (e == 1) return static_cast<T>(r % 3 == 2 ? -1 : 1);
      return static_cast<T>(r == size - 1 ? -2 : (r % 17 == 3 ? 2 : 1));
    case MPI_MAX:
    case MPI_MIN:
      return static_cast<T>((r * 37 + e * 11 + size) % 101 - 50);
    case MPI_LAND:
    case MPI_LOR:
    case MPI_LXOR:
      if (e == 0) return static_cast<T>(r % 4 != 3);
      if (e == 1) return static_cast<T>(1);
      return static_cast<T>(size % 2 == 0 && r == size - 1);
    default: // MPI_BAND, MPI_BOR, MPI_BXOR
      if (e == 0) return static_cast<T>(mix(r, e) | 0x0f0f00f0f0f000f0ull); // some bits survive AND
      if (e == 1) return static_cast<T>(~(std::uint64_t{1} << (r % (8 * sizeof(T)))));
      return static_cast<T>(mix(r, e));
    }
  }
}

template <class T> T combine(MPI_Op op, T a, T b) {
  if constexpr (kIsPair<T>) {
    if (a.value == b.value) return a.index < b.index ? a : b;
    if (op == MPI_MINLOC) return a.value < b.value ? a : b;
    return a.value > b.value ? a : b;
  } else {
    switch (op) {
    case MPI_SUM:
      return static_cast<T>(a + b);
    case MPI_PROD:
      return static_cast<T>(a * b);
    case MPI_MAX:
      return std::max(a, b);
    case MPI_MIN:
      return std::min(a, b);
    default:
      break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
      case MPI_LAND:
        return static_cast<T>(a != 0 && b != 0);
      case MPI_LOR:
        return static_cast<T>(a != 0 || b != 0);
      case MPI_LXOR:
        return static_cast<T>((a != 0) != (b != 0));
      case MPI_BAND:
        return static_cast<T>(a & b);
      case MPI_BOR:
        return static_cast<T>(a | b);
      case MPI_BXOR:
        return static_cast<T>(a ^ b);
      default:
        break;
      }
    }
    ADD_FAILURE() << "no serial fold for " << op_name(op) << " on " << kTypeName<T>;
    return a;
  }
}

template <class T> Elems<T> inputs_of(MPI_Op op, int r, int size) {
  Elems<T> v;
  for (int e = 0; e < kCount; ++e)
    v[static_cast<std::size_t>(e)] = input<T>(op, r, e, size);
  return v;
}

/// The reduction of all ranks' inputs in rank order: what MPI_Reduce must produce.
template <class T> Elems<T> serial_fold(MPI_Op op, int size) {
  Elems<T> acc = inputs_of<T>(op, 0, size);
  for (int r = 1; r < size; ++r) {
    const Elems<T> in = inputs_of<T>(op, r, size);
    for (std::size_t e = 0; e < acc.size(); ++e)
      acc[e] = combine(op, acc[e], in[e]);
  }
  return acc;
}

/// A value no correct reduction leaves in a non-root receive buffer.
template <class T> T sentinel(int r) {
  if constexpr (kIsPair<T>)
    return T{static_cast<decltype(T::value)>(12345), -1 - r};
  else
    return static_cast<T>(-12345 - r);
}
template <class T> Elems<T> sentinels(int r) {
  Elems<T> v;
  v.fill(sentinel<T>(r));
  return v;
}

// ---- recording inside the simulation, checking after it ---------------------------------------

/// Per rank: MPI calls that did not return MPI_SUCCESS, and send buffers a collective changed.
struct RankLog {
  int bad_returns = 0;
  int send_buffer_changed = 0;
  void call(int rc) { bad_returns += rc != MPI_SUCCESS; }
};

/// Every rank's receive buffer after each flavour of reduction with one op.
template <class T> struct OpRun {
  MPI_Op op;
  std::vector<Elems<T>> reduce_first, reduce_last, reduce_in_place, allreduce, allreduce_in_place;
  OpRun(MPI_Op o, int size)
      : op(o), reduce_first(static_cast<std::size_t>(size)),
        reduce_last(static_cast<std::size_t>(size)),
        reduce_in_place(static_cast<std::size_t>(size)), allreduce(static_cast<std::size_t>(size)),
        allreduce_in_place(static_cast<std::size_t>(size)) {}
};

template <class T> std::vector<OpRun<T>> op_runs(const std::vector<MPI_Op>& ops, int size) {
  std::vector<OpRun<T>> runs;
  for (MPI_Op op : ops)
    runs.emplace_back(op, size);
  return runs;
}

/// Runs Reduce to root 0, to root size-1, in place at root size/2, Allreduce and Allreduce in
/// place, for every op of `runs`, as rank `r` of `size`.
template <class T>
void reduce_everything(std::vector<OpRun<T>>& runs, int r, int size, RankLog& log) {
  const MPI_Datatype type = kType<T>;
  const auto i = static_cast<std::size_t>(r);
  for (OpRun<T>& run : runs) {
    const Elems<T> original = inputs_of<T>(run.op, r, size);
    Elems<T> in = original;
    Elems<T> out = sentinels<T>(r);
    log.call(MPI_Reduce(in.data(), out.data(), kCount, type, run.op, 0, MPI_COMM_WORLD));
    run.reduce_first[i] = out;

    out = sentinels<T>(r);
    log.call(MPI_Reduce(in.data(), out.data(), kCount, type, run.op, size - 1, MPI_COMM_WORLD));
    run.reduce_last[i] = out;

    const int middle = size / 2;
    out = sentinels<T>(r);
    if (r == middle) {
      out = original;
      log.call(MPI_Reduce(MPI_IN_PLACE, out.data(), kCount, type, run.op, middle, MPI_COMM_WORLD));
    } else {
      log.call(MPI_Reduce(in.data(), out.data(), kCount, type, run.op, middle, MPI_COMM_WORLD));
    }
    run.reduce_in_place[i] = out;

    out = sentinels<T>(r);
    log.call(MPI_Allreduce(in.data(), out.data(), kCount, type, run.op, MPI_COMM_WORLD));
    run.allreduce[i] = out;

    out = original;
    log.call(MPI_Allreduce(MPI_IN_PLACE, out.data(), kCount, type, run.op, MPI_COMM_WORLD));
    run.allreduce_in_place[i] = out;

    log.send_buffer_changed += !(in == original);
  }
}

/// Expects got[r] == expected(r) for every rank; reports the first mismatch and how many ranks
/// differ, so that a wrong result on 257 ranks gives one readable failure.
template <class E, class Expected>
void expect_every_rank(const std::vector<E>& got, Expected expected, const std::string& what) {
  int wrong = 0, first = -1;
  for (std::size_t r = 0; r < got.size(); ++r)
    if (!(got[r] == expected(static_cast<int>(r)))) {
      if (first < 0) first = static_cast<int>(r);
      ++wrong;
    }
  if (wrong == 0) return;
  ADD_FAILURE() << what << ": " << wrong << " of " << got.size() << " ranks wrong; rank " << first
                << " has " << testing::PrintToString(got[static_cast<std::size_t>(first)])
                << ", expected " << testing::PrintToString(expected(first));
}

template <class T> void check_runs(const std::vector<OpRun<T>>& runs, int size) {
  for (const OpRun<T>& run : runs) {
    const Elems<T> result = serial_fold<T>(run.op, size);
    const std::string what = op_name(run.op) + " on " + kTypeName<T>;
    auto at_root = [&](int root) {
      return [&, root](int r) { return r == root ? result : sentinels<T>(r); };
    };
    expect_every_rank(run.reduce_first, at_root(0), "MPI_Reduce to root 0 of " + what);
    expect_every_rank(run.reduce_last, at_root(size - 1), "MPI_Reduce to the last rank of " + what);
    expect_every_rank(run.reduce_in_place, at_root(size / 2),
                      "MPI_Reduce with MPI_IN_PLACE at root size/2 of " + what);
    auto everywhere = [&](int) { return result; };
    expect_every_rank(run.allreduce, everywhere, "MPI_Allreduce of " + what);
    expect_every_rank(run.allreduce_in_place, everywhere, "MPI_Allreduce in place of " + what);
  }
}

void expect_finished(const mpisim::RunSummary& summary, int size) {
  EXPECT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(summary.exit_code, 0) << summary.message;
  EXPECT_EQ(summary.ranks.size(), static_cast<std::size_t>(size));
}

void expect_clean_calls(const std::vector<RankLog>& logs) {
  for (std::size_t r = 0; r < logs.size(); ++r) {
    EXPECT_EQ(logs[r].bad_returns, 0) << "rank " << r << ": MPI calls that failed";
    EXPECT_EQ(logs[r].send_buffer_changed, 0) << "rank " << r << ": send buffers changed";
  }
}

// ---- Bcast ------------------------------------------------------------------------------------

constexpr int kBcastCount = 5;
template <class T> using BcastElems = std::array<T, kBcastCount>;

/// What `root` broadcasts: distinct per root and element, with a fraction for floating types.
template <class T> BcastElems<T> bcast_data(int root) {
  BcastElems<T> v;
  for (int e = 0; e < kBcastCount; ++e)
    v[static_cast<std::size_t>(e)] = static_cast<T>((root % 50) * 3 + e * 2 - 7) +
                                     static_cast<T>(std::is_floating_point_v<T> ? 0.25 : 0);
  return v;
}

template <class T> struct BcastRun {
  std::vector<BcastElems<T>> from_first, from_last;
  explicit BcastRun(int size)
      : from_first(static_cast<std::size_t>(size)), from_last(static_cast<std::size_t>(size)) {}

  void run(int r, int size, RankLog& log) {
    from_first[static_cast<std::size_t>(r)] = broadcast(r, 0, log);
    from_last[static_cast<std::size_t>(r)] = broadcast(r, size - 1, log);
  }
  static BcastElems<T> broadcast(int r, int root, RankLog& log) {
    BcastElems<T> buf;
    if (r == root)
      buf = bcast_data<T>(root);
    else
      buf.fill(sentinel<T>(r));
    log.call(MPI_Bcast(buf.data(), kBcastCount, kType<T>, root, MPI_COMM_WORLD));
    return buf;
  }
  void check(int size) const {
    const std::string what = std::string("MPI_Bcast of ") + kTypeName<T>;
    auto from = [](int root) { return [root](int) { return bcast_data<T>(root); }; };
    expect_every_rank(from_first, from(0), what + " from rank 0");
    expect_every_rank(from_last, from(size - 1), what + " from the last rank");
  }
};

// ---- the tests --------------------------------------------------------------------------------

class CollectivesTest : public testing::TestWithParam<int> {};

TEST_P(CollectivesTest, BcastFromFirstAndLastRootOfEveryType) {
  const int size = GetParam();
  std::vector<RankLog> logs(static_cast<std::size_t>(size));
  BcastRun<int> ints(size);
  BcastRun<long> longs(size);
  BcastRun<float> floats(size);
  BcastRun<double> doubles(size);
  auto summary = test::simulate(test::config(size), [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int r = test::world_rank();
    RankLog& log = logs[static_cast<std::size_t>(r)];
    ints.run(r, size, log);
    longs.run(r, size, log);
    floats.run(r, size, log);
    doubles.run(r, size, log);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary, size);
  expect_clean_calls(logs);
  ints.check(size);
  longs.check(size);
  floats.check(size);
  doubles.check(size);
}

TEST_P(CollectivesTest, ReduceAndAllreduceEveryPredefinedOpAndType) {
  const int size = GetParam();
  std::vector<RankLog> logs(static_cast<std::size_t>(size));
  auto ints = op_runs<int>(kIntegerOps, size);
  auto longs = op_runs<long>(kIntegerOps, size);
  auto floats = op_runs<float>(kArithmeticOps, size);
  auto doubles = op_runs<double>(kArithmeticOps, size);
  auto summary = test::simulate(test::config(size), [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int r = test::world_rank();
    RankLog& log = logs[static_cast<std::size_t>(r)];
    reduce_everything(ints, r, size, log);
    reduce_everything(longs, r, size, log);
    reduce_everything(floats, r, size, log);
    reduce_everything(doubles, r, size, log);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary, size);
  expect_clean_calls(logs);
  check_runs(ints, size);
  check_runs(longs, size);
  check_runs(floats, size);
  check_runs(doubles, size);
}

TEST_P(CollectivesTest, MinlocMaxlocOnPairTypesLowestIndexWinsTies) {
  const int size = GetParam();
  std::vector<RankLog> logs(static_cast<std::size_t>(size));
  auto two_ints = op_runs<TwoInt>(kLocOps, size);
  auto float_ints = op_runs<FloatInt>(kLocOps, size);
  auto double_ints = op_runs<DoubleInt>(kLocOps, size);
  auto long_ints = op_runs<LongInt>(kLocOps, size);
  auto summary = test::simulate(test::config(size), [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int r = test::world_rank();
    RankLog& log = logs[static_cast<std::size_t>(r)];
    reduce_everything(two_ints, r, size, log);
    reduce_everything(float_ints, r, size, log);
    reduce_everything(double_ints, r, size, log);
    reduce_everything(long_ints, r, size, log);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary, size);
  expect_clean_calls(logs);
  check_runs(two_ints, size);
  check_runs(float_ints, size);
  check_runs(double_ints, size);
  check_runs(long_ints, size);
}

TEST_P(CollectivesTest, BarrierReleasesNoRankBeforeTheLastEnters) {
  const int size = GetParam();
  std::vector<long long> entered(static_cast<std::size_t>(size), -1);
  std::vector<long long> left_ps(static_cast<std::size_t>(size), -1);
  std::vector<double> left_wtime(static_cast<std::size_t>(size), -1);
  std::vector<int> rc(static_cast<std::size_t>(size), -1);
  auto summary = test::simulate(test::config(size), [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int r = test::world_rank();
    const auto i = static_cast<std::size_t>(r);
    MPISIM_Compute(r * 1e-6);
    entered[i] = MPISIM_Clock_ps();
    rc[i] = MPI_Barrier(MPI_COMM_WORLD);
    left_wtime[i] = MPI_Wtime();
    left_ps[i] = MPISIM_Clock_ps();
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary, size);
  const long long last_entry = *std::max_element(entered.begin(), entered.end());
  for (int r = 0; r < size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    EXPECT_EQ(rc[i], MPI_SUCCESS) << "rank " << r;
    EXPECT_GE(left_ps[i], last_entry) << "rank " << r << " left the barrier early";
    EXPECT_GE(left_wtime[i], (size - 1) * 1e-6) << "rank " << r << " left the barrier early";
  }
}

TEST_P(CollectivesTest, ContiguousDerivedTypeInBcastReduceAndAllreduce) {
  const int size = GetParam();
  using Four = std::array<int, 4>;
  const auto n = static_cast<std::size_t>(size);
  std::vector<Four> bcast(n), reduced(n), allreduced(n);
  std::vector<RankLog> logs(n);
  auto root_data = [](int root) { return Four{root + 1, -root, 7, 100 * root + 3}; };
  auto contribution = [](int r) { return Four{r, 2 * r + 1, -r, 1}; };
  auto summary = test::simulate(test::config(size), [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int r = test::world_rank();
    const auto i = static_cast<std::size_t>(r);
    RankLog& log = logs[i];
    MPI_Datatype two;
    log.call(MPI_Type_contiguous(2, MPI_INT, &two));
    log.call(MPI_Type_commit(&two));

    const int root = size - 1;
    Four buf = r == root ? root_data(root) : Four{-1, -1, -1, -1};
    log.call(MPI_Bcast(buf.data(), 2, two, root, MPI_COMM_WORLD));
    bcast[i] = buf;

    const Four in = contribution(r);
    Four out{-9, -9, -9, -9};
    log.call(MPI_Reduce(in.data(), out.data(), 2, two, MPI_SUM, 0, MPI_COMM_WORLD));
    reduced[i] = out;
    out = Four{-9, -9, -9, -9};
    log.call(MPI_Allreduce(in.data(), out.data(), 2, two, MPI_SUM, MPI_COMM_WORLD));
    allreduced[i] = out;

    log.call(MPI_Type_free(&two));
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary, size);
  expect_clean_calls(logs);
  Four sum{0, 0, 0, 0};
  for (int r = 0; r < size; ++r)
    for (std::size_t e = 0; e < sum.size(); ++e)
      sum[e] += contribution(r)[e];
  const Four untouched{-9, -9, -9, -9};
  auto broadcast = [&](int) { return root_data(size - 1); };
  auto at_root = [&](int r) { return r == 0 ? sum : untouched; };
  auto everywhere = [&](int) { return sum; };
  expect_every_rank(bcast, broadcast, "MPI_Bcast of contiguous(2, MPI_INT)");
  expect_every_rank(reduced, at_root, "MPI_Reduce(MPI_SUM) of contiguous(2, MPI_INT)");
  expect_every_rank(allreduced, everywhere, "MPI_Allreduce(MPI_SUM) of contiguous(2, MPI_INT)");
}

/// An Allreduce followed by a Bcast, with uneven compute before each; returns every rank's final
/// clock and checks the values computed.
std::vector<SimTime> allreduce_bcast_clocks(mpisim::Config config) {
  const int size = config.ranks;
  const auto n = static_cast<std::size_t>(size);
  std::vector<double> sums(n, -1), bcasts(n, -1);
  auto summary = test::simulate(config, [&](int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int r = test::world_rank();
    const auto i = static_cast<std::size_t>(r);
    MPISIM_Compute(((r * 3) % 5) * 1e-7);
    double in[4] = {1.0 * r, 2.0, -1.0 * r, 0.5};
    double out[4];
    MPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sums[i] = out[0];
    MPISIM_Compute(((r * 7) % 3) * 2e-7);
    double data[64];
    for (int k = 0; k < 64; ++k)
      data[k] = r == size - 1 ? k + 0.5 : -1;
    MPI_Bcast(data, 64, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
    bcasts[i] = data[63];
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  expect_finished(summary, size);
  const double expected_sum = size * (size - 1) / 2.0;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(sums[i], expected_sum) << "rank " << i;
    EXPECT_EQ(bcasts[i], 63.5) << "rank " << i;
  }
  std::vector<SimTime> clocks;
  for (const mpisim::RankSummary& rank : summary.ranks)
    clocks.push_back(rank.clock);
  return clocks;
}

TEST_P(CollectivesTest, SameClocksOnRerunAndWithoutDeterministicMode) {
  const int size = GetParam();
  mpisim::Config config = test::config(size);
  config.det = true;
  const std::vector<SimTime> first = allreduce_bcast_clocks(config);
  const std::vector<SimTime> second = allreduce_bcast_clocks(config);
  config.det = false;
  const std::vector<SimTime> nondet = allreduce_bcast_clocks(config);
  ASSERT_EQ(first.size(), static_cast<std::size_t>(size));
  EXPECT_EQ(first, second) << "two runs of the same program predicted different clocks";
  EXPECT_EQ(first, nondet) << "config.det = false predicted different clocks";
  for (std::size_t i = 0; size > 1 && i < first.size(); ++i)
    EXPECT_GT(first[i], 0) << "rank " << i << " spent no time in its collectives";
}

// A step of a collective's schedule completes in whichever rank's fiber delivers its message;
// the owner waits for the whole collective and is woken once, when the schedule finishes. Woken
// at every step, each of 256 ranks switched in and out again about 18 times per allreduce.
TEST(Collectives, TheStepsOfACollectiveDoNotWakeItsOwner) {
  constexpr int kRanks = 256;
  constexpr int kCalls = 4;
  std::vector<int> sums(kRanks * kCalls, -1);
  const mpisim::RunSummary r = test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    for (int call = 0; call < kCalls; ++call) {
      int mine = me + call;
      MPI_Allreduce(&mine, &sums[static_cast<std::size_t>(me * kCalls + call)], 1, MPI_INT, MPI_SUM,
                    MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  for (int me = 0; me < kRanks; ++me)
    for (int call = 0; call < kCalls; ++call)
      EXPECT_EQ(sums[static_cast<std::size_t>(me * kCalls + call)],
                kRanks * (kRanks - 1) / 2 + kRanks * call);
  // Each rank blocks at most once per collective, and starts and ends once.
  EXPECT_LE(r.context_switches, static_cast<std::uint64_t>(kRanks) * (kCalls + 2));
}

INSTANTIATE_TEST_SUITE_P(Collectives, CollectivesTest, testing::Values(1, 2, 3, 7, 16, 33, 257),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

} // namespace
