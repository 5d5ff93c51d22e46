// The Fortran datatypes from C: sizes and names as gfortran lays the types out, reductions on
// them (complex sums and products, MINLOC/MAXLOC on the Fortran pairs whose index has the
// value's type, LOGICAL with gfortran's .TRUE. = 1, INTEGER*8 beyond 32 bits) and the kinds
// mpisim rejects. Expected values are folds of the per-rank inputs computed here.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

constexpr int kRanks = 5;

struct Layout {
  MPI_Datatype type;
  const char* name;
  int size;
};

TEST(FortranDatatypes, SizesExtentsAndNamesAreGfortransDefaultKinds) {
  const std::vector<Layout> layouts = {
      {MPI_INTEGER, "MPI_INTEGER", 4},
      {MPI_REAL, "MPI_REAL", 4},
      {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8},
      {MPI_COMPLEX, "MPI_COMPLEX", 8},
      {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16},
      {MPI_LOGICAL, "MPI_LOGICAL", 4},
      {MPI_CHARACTER, "MPI_CHARACTER", 1},
      {MPI_INTEGER1, "MPI_INTEGER1", 1},
      {MPI_INTEGER2, "MPI_INTEGER2", 2},
      {MPI_INTEGER4, "MPI_INTEGER4", 4},
      {MPI_INTEGER8, "MPI_INTEGER8", 8},
      {MPI_REAL4, "MPI_REAL4", 4},
      {MPI_REAL8, "MPI_REAL8", 8},
      {MPI_COMPLEX8, "MPI_COMPLEX8", 8},
      {MPI_COMPLEX16, "MPI_COMPLEX16", 16},
      {MPI_2INTEGER, "MPI_2INTEGER", 8},
      {MPI_2REAL, "MPI_2REAL", 8},
      {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16},
  };
  test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    for (const Layout& l : layouts) {
      int size = -1;
      MPI_Aint lb = -1, extent = -1;
      char name[MPI_MAX_OBJECT_NAME];
      int len = 0;
      EXPECT_EQ(MPI_Type_size(l.type, &size), MPI_SUCCESS) << l.name;
      EXPECT_EQ(MPI_Type_get_extent(l.type, &lb, &extent), MPI_SUCCESS) << l.name;
      EXPECT_EQ(MPI_Type_get_name(l.type, name, &len), MPI_SUCCESS) << l.name;
      EXPECT_EQ(size, l.size) << l.name;
      EXPECT_EQ(lb, 0) << l.name;
      EXPECT_EQ(extent, l.size) << l.name;
      EXPECT_EQ(std::string(name, static_cast<std::size_t>(len)), l.name);
    }
    MPI_Finalize();
    return 0;
  });
}

TEST(FortranDatatypes, ComplexSumAndProduct) {
  std::vector<std::complex<double>> sums(kRanks);
  std::vector<std::complex<float>> products(kRanks);
  test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const std::complex<double> z(me, 1 - 2 * me);
    MPI_Allreduce(&z, &sums[static_cast<std::size_t>(me)], 1, MPI_DOUBLE_COMPLEX, MPI_SUM,
                  MPI_COMM_WORLD);
    const std::complex<float> i(0, 1);
    MPI_Allreduce(&i, &products[static_cast<std::size_t>(me)], 1, MPI_COMPLEX, MPI_PROD,
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  std::complex<double> sum = 0;
  for (int r = 0; r < kRanks; ++r)
    sum += std::complex<double>(r, 1 - 2 * r);
  // i^5 = i: a product that ignored the imaginary parts would give 0 or 1.
  const std::complex<float> i5(0, 1);
  for (int r = 0; r < kRanks; ++r) {
    EXPECT_EQ(sums[static_cast<std::size_t>(r)], sum) << "rank " << r;
    EXPECT_EQ(products[static_cast<std::size_t>(r)], i5) << "rank " << r;
  }
}

/// A Fortran pair: the index has the value's type (MPI-3.1 5.9.4).
template <class T> struct FortranPair {
  T value;
  T index;
};

TEST(FortranDatatypes, MinlocMaxlocOnFortranPairsPreferTheSmallerIndexOnTies) {
  // Values (r + 1) mod 3 = 1 2 0 1 2, indexes 10 + r: the minimum 0 is at rank 2; the maximum 2
  // at ranks 1 and 4, and the smaller index (11) wins.
  std::vector<FortranPair<int32_t>> imin(kRanks), imax(kRanks);
  std::vector<FortranPair<double>> dmax(kRanks);
  std::vector<FortranPair<float>> rmin(kRanks);
  test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const auto at = static_cast<std::size_t>(me);
    const FortranPair<int32_t> ip{(me + 1) % 3, 10 + me};
    MPI_Allreduce(&ip, &imin[at], 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD);
    MPI_Allreduce(&ip, &imax[at], 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD);
    const FortranPair<double> dp{0.5 * ((me + 1) % 3), 10.0 + me};
    MPI_Allreduce(&dp, &dmax[at], 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD);
    const FortranPair<float> rp{0.25f * static_cast<float>((me + 1) % 3), 10.0f + me};
    MPI_Allreduce(&rp, &rmin[at], 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  for (std::size_t r = 0; r < kRanks; ++r) {
    EXPECT_EQ(imin[r].value, 0);
    EXPECT_EQ(imin[r].index, 12);
    EXPECT_EQ(imax[r].value, 2);
    EXPECT_EQ(imax[r].index, 11);
    EXPECT_EQ(dmax[r].value, 1.0);
    EXPECT_EQ(dmax[r].index, 11.0);
    EXPECT_EQ(rmin[r].value, 0.0f);
    EXPECT_EQ(rmin[r].index, 12.0f);
  }
}

TEST(FortranDatatypes, LogicalAndInteger8Reductions) {
  std::vector<int32_t> any(kRanks), all(kRanks);
  std::vector<int64_t> big(kRanks);
  test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const auto at = static_cast<std::size_t>(me);
    const int32_t only_rank_zero = me == 0 ? 1 : 0; // gfortran's .TRUE. and .FALSE.
    MPI_Allreduce(&only_rank_zero, &any[at], 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD);
    MPI_Allreduce(&only_rank_zero, &all[at], 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
    const int64_t v = (int64_t{1} << 40) * (me + 1);
    MPI_Allreduce(&v, &big[at], 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  int64_t sum = 0;
  for (int r = 0; r < kRanks; ++r)
    sum += (int64_t{1} << 40) * (r + 1);
  for (std::size_t r = 0; r < kRanks; ++r) {
    EXPECT_EQ(any[r], 1);
    EXPECT_EQ(all[r], 0);
    EXPECT_EQ(big[r], sum);
  }
}

TEST(FortranDatatypes, KindsWithoutALayoutAreRejectedWithMpiErrType) {
  std::vector<int> classes;
  test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char buf[64] = {};
    for (MPI_Datatype t : {MPI_INTEGER16, MPI_REAL2}) {
      const int err = MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD);
      int cls = -1;
      MPI_Error_class(err, &cls);
      classes.push_back(cls);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(classes, std::vector<int>(2, MPI_ERR_TYPE));
}

// gfortran's REAL(16) and COMPLEX(16) are IEEE quadruple precision: a sum keeps the bits a
// double would lose, and a product of complex numbers is exact.
TEST(FortranDatatypes, QuadPrecisionReducesInQuadPrecision) {
  using Quad = __float128;
  constexpr int kRanks = 3;
  const Quad tiny = 1.0Q / (Quad(1ull << 50) * Quad(1ull << 50)); // 2^-100
  Quad sum = 0, received = 0;
  __float128 _Complex prod = 0;
  int real_size = 0, complex_size = 0, match = 0;
  char name[MPI_MAX_OBJECT_NAME] = {};
  auto summary = test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const Quad mine = rank == 0 ? Quad(1) : tiny; // 1 + 2 * 2^-100
    Quad total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD);
    __float128 _Complex z = 0, p = 0;
    __real__ z = 0;
    __imag__ z = 1; // i: the product over three ranks is -i
    MPI_Reduce(&z, &p, 1, MPI_COMPLEX32, MPI_PROD, 0, MPI_COMM_WORLD);
    if (rank == 1) MPI_Send(&total, 1, MPI_REAL16, 0, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Recv(&received, 1, MPI_REAL16, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum = total;
      prod = p;
      MPI_Type_size(MPI_REAL16, &real_size);
      MPI_Type_size(MPI_COMPLEX32, &complex_size);
      MPI_Datatype matched;
      MPI_Type_match_size(MPI_TYPECLASS_REAL, 16, &matched);
      match = matched == MPI_REAL16;
      int len = 0;
      MPI_Type_get_name(MPI_REAL16, name, &len);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_TRUE(sum == 1 + 2 * tiny);
  EXPECT_TRUE(sum != 1); // what a double sum would give
  EXPECT_TRUE(received == sum);
  EXPECT_TRUE(__real__ prod == 0 && __imag__ prod == -1);
  EXPECT_EQ(real_size, 16);
  EXPECT_EQ(complex_size, 32);
  EXPECT_EQ(match, 1);
  EXPECT_STREQ(name, "MPI_REAL16");
}

} // namespace
