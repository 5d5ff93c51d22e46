// Derived datatypes with MPI semantics: every constructor in point-to-point (sent with one type,
// received with another of the same type signature), in Bcast and Allreduce, Get_count and
// Get_elements on partial receives, Pack/Unpack, bounds of the MPI standard's examples,
// subarrays in C and Fortran order, envelopes and contents, names, errors, and the simulated
// time of messages whose size is the packed size. Expected values are worked out here from the
// layouts, independently of the implementation.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "one_rank.hpp"
#include "sim_harness.hpp"
#include "world.hpp"

namespace {

using mpilite::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // 1 GB/s

// ---- small constructors used by the tests (each returns an uncommitted type) -------------------

MPI_Datatype vector(int count, int blocklength, int stride, MPI_Datatype old = MPI_INT) {
  MPI_Datatype t;
  MPI_Type_vector(count, blocklength, stride, old, &t);
  return t;
}
MPI_Datatype hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old = MPI_INT) {
  MPI_Datatype t;
  MPI_Type_create_hvector(count, blocklength, stride, old, &t);
  return t;
}
MPI_Datatype contiguous(int count, MPI_Datatype old = MPI_INT) {
  MPI_Datatype t;
  MPI_Type_contiguous(count, old, &t);
  return t;
}
MPI_Datatype resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent) {
  MPI_Datatype t;
  MPI_Type_create_resized(old, lb, extent, &t);
  return t;
}
MPI_Datatype structure(std::vector<int> lengths, std::vector<MPI_Aint> displacements,
                       std::vector<MPI_Datatype> types) {
  MPI_Datatype t;
  MPI_Type_create_struct(static_cast<int>(lengths.size()), lengths.data(), displacements.data(),
                         types.data(), &t);
  return t;
}
MPI_Datatype subarray(std::vector<int> sizes, std::vector<int> subsizes, std::vector<int> starts,
                      int order, MPI_Datatype old = MPI_INT) {
  MPI_Datatype t;
  MPI_Type_create_subarray(static_cast<int>(sizes.size()), sizes.data(), subsizes.data(),
                           starts.data(), order, old, &t);
  return t;
}
/// Commits `t` and returns it.
MPI_Datatype committed(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}
/// `make(inner)` for a temporary inner type, which is freed afterwards.
MPI_Datatype from(MPI_Datatype inner, const std::function<MPI_Datatype(MPI_Datatype)>& make) {
  MPI_Datatype t = make(inner);
  MPI_Type_free(&inner);
  return t;
}

/// {(double, 0), (char, 8)}, extent 16: the old type of the MPI standard's examples.
MPI_Datatype double_char() {
  return structure({1, 1}, {0, 8}, {MPI_DOUBLE, MPI_CHAR});
}

/// Bounds and sizes of a type as the MPI calls report them.
struct Shape {
  MPI_Aint lb, extent, true_lb, true_extent;
  int size;
  bool operator==(const Shape&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Shape& s) {
  return os << "{lb " << s.lb << ", extent " << s.extent << ", true_lb " << s.true_lb
            << ", true_extent " << s.true_extent << ", size " << s.size << "}";
}
Shape shape(MPI_Datatype t) {
  Shape s{};
  MPI_Type_get_extent(t, &s.lb, &s.extent);
  MPI_Type_get_true_extent(t, &s.true_lb, &s.true_extent);
  MPI_Type_size(t, &s.size);
  return s;
}

using test::on_one_rank;

/// The ints of `count` elements of `type` at `buf`, in type-map order (through MPI_Pack).
std::vector<int> packed_ints(const int* buf, int count, MPI_Datatype type) {
  int bytes = 0, position = 0;
  MPI_Pack_size(count, type, MPI_COMM_WORLD, &bytes);
  std::vector<int> out(static_cast<std::size_t>(bytes) / sizeof(int));
  MPI_Pack(buf, count, type, out.data(), bytes, &position, MPI_COMM_WORLD);
  return out;
}

std::vector<int> iota_ints(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<int>(i);
  return v;
}

// ---- bounds ----------------------------------------------------------------------------------

TEST(Datatypes, BoundsOfTheStandardsExamples) {
  std::vector<std::pair<std::string, Shape>> got;
  on_one_rank([&] {
    MPI_Datatype dc = double_char();
    got.emplace_back("double_char", shape(dc));
    // MPI-3.1 4.1.2: vector(2, 3, 4) of {(double,0),(char,8)}: last block at 64, ends at 112.
    got.emplace_back("vector", shape(vector(2, 3, 4, dc)));
    // vector(3, 1, -2): copies at 0, -32, -64.
    got.emplace_back("negative vector", shape(vector(3, 1, -2, dc)));
    // hvector(2, 3, 4 bytes): blocks of 3 copies, 4 bytes apart (overlapping).
    got.emplace_back("hvector", shape(hvector(2, 3, 4, dc)));
    // indexed(B = (3, 1), D = (4, 0)): copies at 64, 80, 96 and 0.
    int lengths[] = {3, 1}, displacements[] = {4, 0};
    MPI_Datatype indexed;
    MPI_Type_indexed(2, lengths, displacements, dc, &indexed);
    got.emplace_back("indexed", shape(indexed));
    // struct(B = (2, 1, 3), D = (0, 16, 26), T = (float, dc, char)):
    // {(float,0),(float,4),(double,16),(char,24),(char,26),(char,27),(char,28)}.
    got.emplace_back("struct", shape(structure({2, 1, 3}, {0, 16, 26}, {MPI_FLOAT, dc, MPI_CHAR})));
    // MPI-1: struct(D = (-3, 0, 6), T = (MPI_LB, MPI_INT, MPI_UB)) has extent 9 from -3, and
    // contiguous(2) of it is {(lb,-3),(int,0),(int,9),(ub,15)}.
    MPI_Datatype marked = structure({1, 1, 1}, {-3, 0, 6}, {MPI_LB, MPI_INT, MPI_UB});
    got.emplace_back("lb/ub struct", shape(marked));
    got.emplace_back("contiguous of lb/ub struct", shape(contiguous(2, marked)));
    // Markers stick: a struct of the marked type gets no alignment padding.
    got.emplace_back("struct of marked", shape(structure({1, 1}, {0, 9}, {marked, MPI_CHAR})));
    // Padding to the largest alignment without markers: {int, char} is 8 bytes, not 5.
    got.emplace_back("padded struct", shape(structure({1, 1}, {0, 4}, {MPI_INT, MPI_CHAR})));
    got.emplace_back("MPI_UB ends it",
                     shape(structure({1, 1, 1}, {0, 4, 5}, {MPI_INT, MPI_CHAR, MPI_UB})));
    MPI_Datatype r = resized(MPI_INT, -4, 12);
    got.emplace_back("resized", shape(r));
    got.emplace_back("contiguous of resized", shape(contiguous(3, r)));
    got.emplace_back("negative hvector", shape(hvector(3, 1, -8)));
    got.emplace_back("subarray", shape(subarray({4, 5}, {2, 3}, {1, 2}, MPI_ORDER_C)));
    got.emplace_back("empty", shape(contiguous(0)));

    MPI_Aint lb = 0, ub = 0, extent = 0;
    MPI_Type_lb(r, &lb);
    MPI_Type_ub(r, &ub);
    MPI_Type_extent(r, &extent);
    got.emplace_back("MPI-1 lb, ub, extent of resized", Shape{lb, extent, ub, 0, 0});
    MPI_Count xlb, xextent, xtrue_lb, xtrue_extent, xsize;
    MPI_Type_get_extent_x(marked, &xlb, &xextent);
    MPI_Type_get_true_extent_x(marked, &xtrue_lb, &xtrue_extent);
    MPI_Type_size_x(marked, &xsize);
    got.emplace_back("_x of lb/ub struct",
                     Shape{xlb, xextent, xtrue_lb, xtrue_extent, static_cast<int>(xsize)});
  });
  const std::vector<std::pair<std::string, Shape>> expected = {
      {"double_char", {0, 16, 0, 9, 9}},
      {"vector", {0, 112, 0, 105, 54}},
      {"negative vector", {-64, 80, -64, 73, 27}},
      {"hvector", {0, 52, 0, 45, 54}},
      {"indexed", {0, 112, 0, 105, 36}},
      {"struct", {0, 32, 0, 29, 20}},
      {"lb/ub struct", {-3, 9, 0, 4, 4}},
      {"contiguous of lb/ub struct", {-3, 18, 0, 13, 8}},
      {"struct of marked", {-3, 9, 0, 10, 5}},
      {"padded struct", {0, 8, 0, 5, 5}},
      {"MPI_UB ends it", {0, 5, 0, 5, 5}},
      {"resized", {-4, 12, 0, 4, 4}},
      {"contiguous of resized", {-4, 36, 0, 28, 12}},
      {"negative hvector", {-16, 20, -16, 20, 12}},
      {"subarray", {0, 80, 28, 32, 24}},
      {"empty", {0, 0, 0, 0, 0}},
      {"MPI-1 lb, ub, extent of resized", {-4, 12, 8, 0, 0}},
      {"_x of lb/ub struct", {-3, 9, 0, 4, 4}},
  };
  EXPECT_EQ(got, expected);
}

// ---- subarrays ---------------------------------------------------------------------------------

TEST(Datatypes, SubarrayInCAndFortranOrderSelectsTheRightElements) {
  std::vector<std::vector<int>> got;
  on_one_rank([&] {
    const std::vector<int> a = iota_ints(60);
    for (int order : {MPI_ORDER_C, MPI_ORDER_FORTRAN}) {
      MPI_Datatype t = committed(subarray({4, 5}, {2, 3}, {1, 2}, order));
      got.push_back(packed_ints(a.data(), 1, t));
      MPI_Type_free(&t);
    }
    for (int order : {MPI_ORDER_C, MPI_ORDER_FORTRAN}) {
      MPI_Datatype t = committed(subarray({3, 4, 5}, {2, 2, 3}, {1, 1, 2}, order));
      got.push_back(packed_ints(a.data(), 1, t));
      MPI_Type_free(&t);
    }
  });
  // 4 x 5, rows 1-2, columns 2-4. C: element (i, j) at 5i + j, j fastest.
  const std::vector<int> c2 = {7, 8, 9, 12, 13, 14};
  // Fortran: element (i, j) at i + 4j, i fastest.
  const std::vector<int> f2 = {9, 10, 13, 14, 17, 18};
  std::vector<int> c3, f3;
  for (int i = 1; i <= 2; ++i)
    for (int j = 1; j <= 2; ++j)
      for (int k = 2; k <= 4; ++k)
        c3.push_back(i * 20 + j * 5 + k);
  for (int k = 2; k <= 4; ++k)
    for (int j = 1; j <= 2; ++j)
      for (int i = 1; i <= 2; ++i)
        f3.push_back(i + 3 * j + 12 * k);
  EXPECT_EQ(got, (std::vector<std::vector<int>>{c2, f2, c3, f3}));
}

// ---- packing -----------------------------------------------------------------------------------

TEST(Datatypes, PackUnpackRoundTripAndPackSize) {
  int size_vector = 0, size_struct = 0, position_after_pack = 0, position_after_unpack = 0;
  std::vector<int> ints_back;
  double double_back = 0;
  char chars_back[3] = {};
  std::vector<int> errors;
  on_one_rank([&] {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype v = committed(vector(3, 2, 4)); // ints 0,1, 4,5, 8,9; extent 10 ints
    struct Rec {
      double d;
      char c[3];
    } rec{2.5, {'x', 'y', 'z'}};
    MPI_Datatype s =
        committed(structure({1, 3}, {offsetof(Rec, d), offsetof(Rec, c)}, {MPI_DOUBLE, MPI_CHAR}));
    MPI_Pack_size(2, v, MPI_COMM_WORLD, &size_vector);
    MPI_Pack_size(1, s, MPI_COMM_WORLD, &size_struct);
    std::vector<char> packed(static_cast<std::size_t>(size_vector + size_struct));
    const std::vector<int> a = iota_ints(20);
    int position = 0;
    MPI_Pack(a.data(), 2, v, packed.data(), static_cast<int>(packed.size()), &position,
             MPI_COMM_WORLD);
    MPI_Pack(&rec, 1, s, packed.data(), static_cast<int>(packed.size()), &position, MPI_COMM_WORLD);
    position_after_pack = position;
    // No room left, and nothing left to unpack.
    errors.push_back(MPI_Pack(a.data(), 1, MPI_INT, packed.data(), static_cast<int>(packed.size()),
                              &position, MPI_COMM_WORLD));
    position = 0;
    std::vector<int> b(20, -1);
    Rec back{0, {0, 0, 0}};
    MPI_Unpack(packed.data(), static_cast<int>(packed.size()), &position, b.data(), 2, v,
               MPI_COMM_WORLD);
    MPI_Unpack(packed.data(), static_cast<int>(packed.size()), &position, &back, 1, s,
               MPI_COMM_WORLD);
    position_after_unpack = position;
    errors.push_back(MPI_Unpack(packed.data(), static_cast<int>(packed.size()), &position, b.data(),
                                1, MPI_INT, MPI_COMM_WORLD));
    ints_back = b;
    double_back = back.d;
    std::memcpy(chars_back, back.c, 3);
    MPI_Type_free(&v);
    MPI_Type_free(&s);
  });
  EXPECT_EQ(size_vector, 2 * 6 * 4);
  EXPECT_EQ(size_struct, 8 + 3);
  EXPECT_EQ(position_after_pack, 48 + 11);
  EXPECT_EQ(position_after_unpack, 48 + 11);
  EXPECT_EQ(errors, (std::vector<int>{MPI_ERR_ARG, MPI_ERR_TRUNCATE}));
  // Elements of the vector land back in place (second element at 10 ints); the gaps stay -1.
  std::vector<int> expected(20, -1);
  for (int i : {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19})
    expected[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(ints_back, expected);
  EXPECT_EQ(double_back, 2.5);
  EXPECT_EQ(std::string(chars_back, 3), "xyz");
}

TEST(Datatypes, PackedDataReceivedWithATypedReceive) {
  std::vector<int> got;
  int count = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Datatype v = committed(vector(2, 1, 3)); // ints 0 and 3; extent 4 ints
    if (test::world_rank() == 0) {
      const std::vector<int> a = {10, 11, 12, 13, 14, 15, 16, 17};
      char packed[64];
      int position = 0;
      MPI_Pack(a.data(), 2, v, packed, sizeof packed, &position, MPI_COMM_WORLD);
      MPI_Send(packed, position, MPI_PACKED, 1, 0, MPI_COMM_WORLD);
    } else {
      got.assign(5, -1);
      MPI_Status st;
      MPI_Recv(got.data(), 5, MPI_INT, 0, 0, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_INT, &count);
    }
    MPI_Type_free(&v);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(got, (std::vector<int>{10, 13, 14, 17, -1}));
  EXPECT_EQ(count, 4);
}

// ---- envelopes, contents, names ----------------------------------------------------------------

struct Decoded {
  int combiner = -1;
  std::vector<int> ints;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Datatype> types;
  bool operator==(const Decoded&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Decoded& d) {
  os << "{combiner " << d.combiner << ", ints";
  for (int i : d.ints)
    os << " " << i;
  os << ", addresses";
  for (MPI_Aint a : d.addresses)
    os << " " << a;
  return os << ", " << d.types.size() << " types}";
}

/// Envelope and contents of `t`; derived old types are replaced by their own decoding's
/// combiner (as MPI_Datatype) and freed, as a caller of MPI_Type_get_contents must.
Decoded decode(MPI_Datatype t) {
  Decoded d;
  int ni, na, nt;
  MPI_Type_get_envelope(t, &ni, &na, &nt, &d.combiner);
  if (d.combiner == MPI_COMBINER_NAMED) return d;
  d.ints.resize(static_cast<std::size_t>(ni));
  d.addresses.resize(static_cast<std::size_t>(na));
  d.types.resize(static_cast<std::size_t>(nt));
  MPI_Type_get_contents(t, ni, na, nt, d.ints.data(), d.addresses.data(), d.types.data());
  for (MPI_Datatype& old : d.types) {
    int oi, oa, ot, combiner;
    MPI_Type_get_envelope(old, &oi, &oa, &ot, &combiner);
    if (combiner != MPI_COMBINER_NAMED) {
      MPI_Type_free(&old);
      old = -combiner; // "a derived type made by `combiner`"
    }
  }
  return d;
}

TEST(Datatypes, EnvelopeAndContentsOfEveryCombiner) {
  std::vector<Decoded> got;
  on_one_rank([&] {
    MPI_Datatype v = vector(3, 2, 5);
    got.push_back(decode(MPI_INT));
    got.push_back(decode(v));
    got.push_back(decode(contiguous(4, v)));
    got.push_back(decode(hvector(2, 3, 40, MPI_DOUBLE)));
    int lengths[] = {2, 1}, displacements[] = {5, 0};
    MPI_Aint byte_displacements[] = {16, -8};
    MPI_Datatype t;
    MPI_Type_indexed(2, lengths, displacements, MPI_INT, &t);
    got.push_back(decode(t));
    MPI_Type_create_hindexed(2, lengths, byte_displacements, v, &t);
    got.push_back(decode(t));
    MPI_Type_create_indexed_block(2, 3, displacements, MPI_INT, &t);
    got.push_back(decode(t));
    MPI_Type_create_hindexed_block(2, 3, byte_displacements, MPI_SHORT, &t);
    got.push_back(decode(t));
    MPI_Datatype s = structure({1, 2}, {0, 8}, {MPI_DOUBLE, v});
    got.push_back(decode(s));
    got.push_back(decode(subarray({4, 5}, {2, 3}, {1, 2}, MPI_ORDER_FORTRAN)));
    got.push_back(decode(resized(MPI_INT, -4, 12)));
    MPI_Type_dup(s, &t);
    got.push_back(decode(t));
    // The old types may be freed before their contents are asked for.
    MPI_Datatype outer = contiguous(2, v);
    MPI_Type_free(&v);
    got.push_back(decode(outer));
  });
  const MPI_Datatype vec = -MPI_COMBINER_VECTOR, strct = -MPI_COMBINER_STRUCT;
  const std::vector<Decoded> expected = {
      {MPI_COMBINER_NAMED, {}, {}, {}},
      {MPI_COMBINER_VECTOR, {3, 2, 5}, {}, {MPI_INT}},
      {MPI_COMBINER_CONTIGUOUS, {4}, {}, {vec}},
      {MPI_COMBINER_HVECTOR, {2, 3}, {40}, {MPI_DOUBLE}},
      {MPI_COMBINER_INDEXED, {2, 2, 1, 5, 0}, {}, {MPI_INT}},
      {MPI_COMBINER_HINDEXED, {2, 2, 1}, {16, -8}, {vec}},
      {MPI_COMBINER_INDEXED_BLOCK, {2, 3, 5, 0}, {}, {MPI_INT}},
      {MPI_COMBINER_HINDEXED_BLOCK, {2, 3}, {16, -8}, {MPI_SHORT}},
      {MPI_COMBINER_STRUCT, {2, 1, 2}, {0, 8}, {MPI_DOUBLE, vec}},
      {MPI_COMBINER_SUBARRAY, {2, 4, 5, 2, 3, 1, 2, MPI_ORDER_FORTRAN}, {}, {MPI_INT}},
      {MPI_COMBINER_RESIZED, {}, {-4, 12}, {MPI_INT}},
      {MPI_COMBINER_DUP, {}, {}, {strct}},
      {MPI_COMBINER_CONTIGUOUS, {2}, {}, {vec}},
  };
  EXPECT_EQ(got, expected);
}

TEST(Datatypes, Mpi1ConstructorsMakeWhatTheirMpi2NamesMake) {
  std::vector<Shape> shapes;
  std::vector<int> combiners;
  on_one_rank([&] {
    int lengths[] = {2, 1};
    MPI_Aint displacements[] = {12, -8};
    MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype t[6];
    MPI_Type_hvector(3, 2, 20, MPI_INT, &t[0]);
    MPI_Type_create_hvector(3, 2, 20, MPI_INT, &t[1]);
    MPI_Type_hindexed(2, lengths, displacements, MPI_INT, &t[2]);
    MPI_Type_create_hindexed(2, lengths, displacements, MPI_INT, &t[3]);
    MPI_Type_struct(2, lengths, displacements, types, &t[4]);
    MPI_Type_create_struct(2, lengths, displacements, types, &t[5]);
    for (MPI_Datatype type : t) {
      shapes.push_back(shape(type));
      int ni, na, nt;
      MPI_Type_get_envelope(type, &ni, &na, &nt, &combiners.emplace_back());
    }
  });
  // hvector: blocks of 8 bytes at 0, 20, 40. hindexed: 8 bytes at 12, 4 at -8. struct: two ints
  // at 12, a double at -8; aligned to 8.
  EXPECT_EQ(shapes, (std::vector<Shape>{{0, 48, 0, 48, 24},
                                        {0, 48, 0, 48, 24},
                                        {-8, 28, -8, 28, 12},
                                        {-8, 28, -8, 28, 12},
                                        {-8, 32, -8, 28, 16},
                                        {-8, 32, -8, 28, 16}}));
  EXPECT_EQ(combiners,
            (std::vector<int>{MPI_COMBINER_HVECTOR, MPI_COMBINER_HVECTOR, MPI_COMBINER_HINDEXED,
                              MPI_COMBINER_HINDEXED, MPI_COMBINER_STRUCT, MPI_COMBINER_STRUCT}));
}

TEST(Datatypes, NamesOfPredefinedAndNamedTypes) {
  std::vector<std::string> names;
  std::vector<int> lengths;
  int set_predefined = -1;
  on_one_rank([&] {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype v = vector(2, 1, 2);
    MPI_Datatype d;
    MPI_Type_dup(MPI_DOUBLE, &d);
    MPI_Type_set_name(d, "my double");
    for (MPI_Datatype t : {MPI_INT, MPI_DOUBLE_INT, MPI_UNSIGNED_LONG_LONG, v, d}) {
      char name[MPI_MAX_OBJECT_NAME];
      int length = -1;
      MPI_Type_get_name(t, name, &length);
      names.emplace_back(name);
      lengths.push_back(length);
    }
    set_predefined = MPI_Type_set_name(MPI_INT, "int");
  });
  EXPECT_EQ(names, (std::vector<std::string>{"MPI_INT", "MPI_DOUBLE_INT", "MPI_UNSIGNED_LONG_LONG",
                                             "", "my double"}));
  EXPECT_EQ(lengths, (std::vector<int>{7, 14, 22, 0, 9}));
  EXPECT_EQ(set_predefined, MPI_ERR_TYPE);
}

TEST(Datatypes, AddressesAndAddressArithmetic) {
  MPI_Aint diff = 0, back = 0, old_style = 0, base = 0;
  on_one_rank([&] {
    double a[10] = {};
    MPI_Aint first, fifth;
    MPI_Get_address(&a[0], &first);
    MPI_Get_address(&a[4], &fifth);
    MPI_Address(&a[4], &old_style);
    diff = MPI_Aint_diff(fifth, first);
    back = MPI_Aint_add(first, diff) - fifth;
    base = first - reinterpret_cast<MPI_Aint>(&a[0]);
  });
  EXPECT_EQ(diff, 4 * static_cast<MPI_Aint>(sizeof(double)));
  EXPECT_EQ(back, 0);
  EXPECT_EQ(base, 0);
  EXPECT_NE(old_style, 0);
}

// ---- representation ----------------------------------------------------------------------------

/// Nodes in the type map of `t` (mpisim's internal representation).
std::size_t nodes_of(MPI_Datatype t) {
  return mpilite::World::get().datatype(t)->map->size();
}

TEST(Datatypes, RegularTypesStaySmallWhateverTheirCount) {
  std::vector<std::size_t> nodes;
  std::vector<int> sizes;
  on_one_rank([&] {
    MPI_Datatype big = contiguous(1 << 20);
    MPI_Datatype bigger = contiguous(1 << 10, big);
    MPI_Datatype dense_vector = vector(1 << 20, 4, 4);
    MPI_Datatype strided = vector(1 << 20, 1, 2);
    MPI_Datatype sub = subarray({64, 64, 64}, {16, 16, 16}, {4, 8, 12}, MPI_ORDER_C, MPI_DOUBLE);
    MPI_Datatype many_subarrays = vector(1000000, 1, 3, sub);
    std::vector<int> lengths(100000, 2), displacements(100000);
    for (std::size_t i = 0; i < displacements.size(); ++i)
      displacements[i] = static_cast<int>(5 * i);
    MPI_Datatype regular_indexed;
    MPI_Type_indexed(100000, lengths.data(), displacements.data(), MPI_INT, &regular_indexed);
    for (MPI_Datatype t :
         {big, bigger, dense_vector, strided, sub, many_subarrays, regular_indexed})
      nodes.push_back(nodes_of(t));
    MPI_Type_size(big, &sizes.emplace_back());
    MPI_Type_size(regular_indexed, &sizes.emplace_back());
  });
  // One run; one run; one run; one strided run; planes of a strided run (one per row); one
  // more level of repetition; one strided run.
  EXPECT_EQ(nodes, (std::vector<std::size_t>{1, 1, 1, 1, 2, 3, 1}));
  EXPECT_EQ(sizes, (std::vector<int>{4 << 20, 800000}));
}

// ---- errors ----------------------------------------------------------------------------------

TEST(Datatypes, ErrorsReturnTheirClass) {
  std::vector<int> codes;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (test::world_rank() == 0) {
      int v[4] = {};
      MPI_Datatype t, uncommitted = vector(2, 1, 2), freed = committed(vector(2, 1, 2));
      MPI_Datatype dangling = freed;
      MPI_Type_free(&freed);
      codes.push_back(MPI_Send(v, 1, uncommitted, 1, 0, MPI_COMM_WORLD));
      codes.push_back(MPI_Send(v, 1, dangling, 1, 0, MPI_COMM_WORLD));
      codes.push_back(MPI_Type_commit(&dangling));
      codes.push_back(MPI_Type_vector(-1, 1, 1, MPI_INT, &t));
      codes.push_back(MPI_Type_vector(2, -1, 1, MPI_INT, &t));
      codes.push_back(MPI_Type_contiguous(-3, MPI_INT, &t));
      int lengths[] = {1, -2}, displacements[] = {0, 4};
      codes.push_back(MPI_Type_indexed(2, lengths, displacements, MPI_INT, &t));
      codes.push_back(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t));
      codes.push_back(MPI_Type_create_subarray(1, v, v, v, MPI_ORDER_C, MPI_INT, &t));
      int sizes[] = {4}, subsizes[] = {2}, starts[] = {3};
      codes.push_back(
          MPI_Type_create_subarray(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
      codes.push_back(MPI_Type_create_subarray(1, sizes, subsizes, v, 7, MPI_INT, &t));
      MPI_Datatype predefined = MPI_INT;
      codes.push_back(MPI_Type_free(&predefined));
      int ints[1];
      MPI_Aint addresses[1];
      MPI_Datatype types[1];
      codes.push_back(MPI_Type_get_contents(MPI_INT, 1, 1, 1, ints, addresses, types));
      codes.push_back(MPI_Type_get_contents(uncommitted, 1, 0, 1, ints, addresses, types));
      int n;
      codes.push_back(MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &n));
      MPI_Datatype mixed = committed(structure({1, 1}, {0, 8}, {MPI_INT, MPI_DOUBLE}));
      char buf[32];
      codes.push_back(MPI_Reduce(buf, buf + 16, 1, mixed, MPI_SUM, 0, MPI_COMM_SELF));
      MPI_Type_free(&mixed);
      MPI_Type_free(&uncommitted);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(codes, (std::vector<int>{MPI_ERR_TYPE, MPI_ERR_TYPE, MPI_ERR_TYPE, MPI_ERR_COUNT,
                                     MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_ARG, MPI_ERR_TYPE,
                                     MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_TYPE,
                                     MPI_ERR_TYPE, MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_OP}));
}

TEST(Datatypes, UncommittedTypeIsFatalByDefaultAndSaysSo) {
  auto r = test::simulate(test::config(1), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int v[4] = {};
    MPI_Send(v, 1, vector(2, 1, 2), 0, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(r.message.find("MPI_ERR_TYPE"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("MPI_Type_commit"), std::string::npos) << r.message;
}

// ---- communication on 1 to 33 ranks
// ---------------------------------------------------------------

class DatatypesTest : public testing::TestWithParam<int> {};

int value(int rank, std::size_t i) {
  return rank * 100000 + static_cast<int>(i);
}

/// A message sent with one type and received with another of the same type signature. Buffers
/// are int arrays; the MPI buffer argument points `origin` ints into them. `moves` pairs each
/// received int (index in the receive array) with the sent int it must hold (index in the send
/// array), worked out by hand from the layouts.
struct IntCase {
  std::string name;
  std::function<MPI_Datatype()> send_type;
  int send_count;
  std::size_t send_len, send_origin;
  std::function<MPI_Datatype()> recv_type;
  int recv_count;
  std::size_t recv_len, recv_origin;
  std::vector<std::size_t> recv_at, sent_from;
};

std::vector<IntCase> int_cases() {
  std::vector<IntCase> cases = {
      {"vector -> contiguous",
       [] { return vector(4, 2, 3); },
       1,
       11,
       0,
       [] { return contiguous(8); },
       1,
       8,
       0,
       {0, 1, 2, 3, 4, 5, 6, 7},
       {0, 1, 3, 4, 6, 7, 9, 10}},
      // vector(2, 2, 3) has extent 5 ints.
      {"2 vectors -> MPI_INT",
       [] { return vector(2, 2, 3); },
       2,
       10,
       0,
       [] { return MPI_INT; },
       8,
       8,
       0,
       {0, 1, 2, 3, 4, 5, 6, 7},
       {0, 1, 3, 4, 5, 6, 8, 9}},
      // hvector(3, 1, 12 bytes) has extent 7 ints.
      {"2 hvectors -> vector",
       [] { return hvector(3, 1, 12); },
       2,
       14,
       0,
       [] { return vector(6, 1, 2); },
       1,
       11,
       0,
       {0, 2, 4, 6, 8, 10},
       {0, 3, 6, 7, 10, 13}},
      {"indexed -> contiguous",
       [] {
         int lengths[] = {2, 1, 3}, displacements[] = {5, 0, 8};
         MPI_Datatype t;
         MPI_Type_indexed(3, lengths, displacements, MPI_INT, &t);
         return t;
       },
       1,
       11,
       0,
       [] { return contiguous(6); },
       1,
       6,
       0,
       {0, 1, 2, 3, 4, 5},
       {5, 6, 0, 8, 9, 10}},
      {"hindexed with a negative displacement -> indexed_block",
       [] {
         int lengths[] = {1, 2};
         MPI_Aint displacements[] = {12, -8};
         MPI_Datatype t;
         MPI_Type_create_hindexed(2, lengths, displacements, MPI_INT, &t);
         return t;
       },
       1,
       8,
       4,
       [] {
         int displacements[] = {4, 2, 0};
         MPI_Datatype t;
         MPI_Type_create_indexed_block(3, 1, displacements, MPI_INT, &t);
         return t;
       },
       1,
       5,
       0,
       {4, 2, 0},
       {7, 2, 3}},
      {"indexed_block -> hindexed_block",
       [] {
         int displacements[] = {6, 1};
         MPI_Datatype t;
         MPI_Type_create_indexed_block(2, 2, displacements, MPI_INT, &t);
         return t;
       },
       1,
       8,
       0,
       [] {
         MPI_Aint displacements[] = {0, 12};
         MPI_Datatype t;
         MPI_Type_create_hindexed_block(2, 2, displacements, MPI_INT, &t);
         return t;
       },
       1,
       5,
       0,
       {0, 1, 3, 4},
       {6, 7, 1, 2}},
      // {(lb,-4), (int,0), (int,4), (int,12), (ub,20)}: extent 6 ints.
      {"2 structs with MPI_LB and MPI_UB -> MPI_INT",
       [] {
         return structure({1, 2, 1, 1}, {-4, 0, 12, 20}, {MPI_LB, MPI_INT, MPI_INT, MPI_UB});
       },
       2,
       11,
       1,
       [] { return MPI_INT; },
       6,
       6,
       0,
       {0, 1, 2, 3, 4, 5},
       {1, 2, 4, 7, 8, 10}},
      {"4 resized to 8 bytes -> 4 resized to lb -4, extent 12",
       [] { return resized(MPI_INT, 0, 8); },
       4,
       7,
       0,
       [] { return resized(MPI_INT, -4, 12); },
       4,
       11,
       1,
       {1, 4, 7, 10},
       {0, 2, 4, 6}},
      {"subarray in C order -> subarray in Fortran order",
       [] {
         return subarray({4, 5}, {2, 3}, {1, 2}, MPI_ORDER_C);
       },
       1,
       20,
       0,
       [] {
         return subarray({4, 5}, {2, 3}, {1, 2}, MPI_ORDER_FORTRAN);
       },
       1,
       20,
       0,
       {9, 10, 13, 14, 17, 18},
       {7, 8, 9, 12, 13, 14}},
      {"dup of vector -> contiguous",
       [] {
         return from(vector(2, 1, 2), [](MPI_Datatype v) {
           MPI_Datatype t;
           MPI_Type_dup(v, &t);
           return t;
         });
       },
       1,
       3,
       0,
       [] { return contiguous(2); },
       1,
       2,
       0,
       {0, 1},
       {0, 2}},
      {"hvector with a negative stride -> MPI_INT",
       [] { return hvector(3, 1, -8); },
       1,
       7,
       6,
       [] { return MPI_INT; },
       3,
       3,
       0,
       {0, 1, 2},
       {6, 4, 2}},
      // vector(2, 1, 2) has extent 3 ints.
      {"contiguous of vectors -> MPI_INT",
       [] { return from(vector(2, 1, 2), [](MPI_Datatype v) { return contiguous(3, v); }); },
       1,
       9,
       0,
       [] { return MPI_INT; },
       6,
       6,
       0,
       {0, 1, 2, 3, 4, 5},
       {0, 2, 3, 5, 6, 8}},
  };
  // Above the eager limit (64 KiB), so that the receive takes the data from the sender's
  // buffer through its type after both types were freed.
  IntCase big{"rendezvous: vector of 20000 -> contiguous",
              [] { return vector(20000, 1, 2); },
              1,
              39999,
              0,
              [] { return contiguous(20000); },
              1,
              20000,
              0,
              {},
              {}};
  for (std::size_t i = 0; i < 20000; ++i) {
    big.recv_at.push_back(i);
    big.sent_from.push_back(2 * i);
  }
  cases.push_back(big);
  return cases;
}

TEST_P(DatatypesTest, EveryConstructorInPointToPointAroundARing) {
  const int size = GetParam();
  const std::vector<IntCase> cases = int_cases();
  const auto n = static_cast<std::size_t>(size);
  std::vector<std::vector<std::vector<int>>> got(n);
  std::vector<std::vector<int>> counts(n), errors(n);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const int next = (me + 1) % size, prev = (me + size - 1) % size;
    const auto i = static_cast<std::size_t>(me);
    for (const IntCase& c : cases) {
      MPI_Datatype send = committed(c.send_type()), recv = committed(c.recv_type());
      std::vector<int> sbuf(c.send_len), rbuf(c.recv_len, -1);
      for (std::size_t k = 0; k < sbuf.size(); ++k)
        sbuf[k] = value(me, k);
      MPI_Request reqs[2];
      errors[i].push_back(MPI_Irecv(rbuf.data() + c.recv_origin, c.recv_count, recv, prev, 3,
                                    MPI_COMM_WORLD, &reqs[0]));
      errors[i].push_back(MPI_Isend(sbuf.data() + c.send_origin, c.send_count, send, next, 3,
                                    MPI_COMM_WORLD, &reqs[1]));
      // Freeing a type does not disturb the operations that use it (MPI-3.1 4.1.9).
      for (MPI_Datatype* t : {&send, &recv})
        if (*t != MPI_INT) MPI_Type_free(t);
      MPI_Status st[2];
      errors[i].push_back(MPI_Waitall(2, reqs, st));
      int ints = -1;
      MPI_Get_count(&st[0], MPI_INT, &ints);
      counts[i].push_back(ints);
      got[i].push_back(rbuf);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const int source = (r + size - 1) % size;
    EXPECT_EQ(errors[i], std::vector<int>(3 * cases.size(), MPI_SUCCESS)) << "rank " << r;
    ASSERT_EQ(got[i].size(), cases.size());
    for (std::size_t c = 0; c < cases.size(); ++c) {
      std::vector<int> expected(cases[c].recv_len, -1);
      for (std::size_t k = 0; k < cases[c].recv_at.size(); ++k)
        expected[cases[c].recv_at[k]] = value(source, cases[c].sent_from[k]);
      EXPECT_EQ(got[i][c], expected) << cases[c].name << ", rank " << r;
      EXPECT_EQ(counts[i][c], static_cast<int>(cases[c].recv_at.size()))
          << cases[c].name << ", rank " << r;
    }
  }
}

/// struct { int a; double b; char c; } as laid out by C, and the same fields packed.
struct Padded {
  int a;
  double b;
  char c;
};

TEST_P(DatatypesTest, StructOfMixedTypesBetweenPaddedAndPackedLayouts) {
  const int size = GetParam();
  const auto n = static_cast<std::size_t>(size);
  std::vector<std::vector<Padded>> got(n);
  std::vector<MPI_Aint> extents(n);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const int next = (me + 1) % size, prev = (me + size - 1) % size;
    MPI_Datatype padded = committed(
        structure({1, 1, 1}, {offsetof(Padded, a), offsetof(Padded, b), offsetof(Padded, c)},
                  {MPI_INT, MPI_DOUBLE, MPI_CHAR}));
    // The fields back to back, 13 bytes apart thanks to the explicit upper bound.
    MPI_Datatype packed =
        committed(structure({1, 1, 1, 1}, {0, 4, 12, 13}, {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_UB}));
    MPI_Aint lb;
    MPI_Type_get_extent(padded, &lb, &extents[static_cast<std::size_t>(me)]);
    Padded out[3];
    for (int k = 0; k < 3; ++k)
      out[k] = {me * 10 + k, me + k * 0.25, static_cast<char>('a' + (me + k) % 26)};
    char wire[39];
    // Padded -> packed to the next rank, then packed -> padded on to the one after.
    MPI_Sendrecv(out, 3, padded, next, 0, wire, 3, packed, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    Padded in[3] = {};
    MPI_Sendrecv(wire, 3, packed, next, 1, in, 3, padded, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    got[static_cast<std::size_t>(me)].assign(in, in + 3);
    MPI_Type_free(&padded);
    MPI_Type_free(&packed);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const int source = ((r - 2) % size + size) % size;
    EXPECT_EQ(extents[i], static_cast<MPI_Aint>(sizeof(Padded)));
    ASSERT_EQ(got[i].size(), 3u);
    for (int k = 0; k < 3; ++k) {
      const Padded& p = got[i][static_cast<std::size_t>(k)];
      EXPECT_EQ(p.a, source * 10 + k) << "rank " << r;
      EXPECT_EQ(p.b, source + k * 0.25) << "rank " << r;
      EXPECT_EQ(p.c, static_cast<char>('a' + (source + k) % 26)) << "rank " << r;
    }
  }
}

TEST_P(DatatypesTest, GetCountAndGetElementsOnPartialReceives) {
  const int size = GetParam();
  const auto n = static_cast<std::size_t>(size);
  std::vector<std::vector<long long>> got(n);
  std::vector<std::vector<int>> ints(n);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const int next = (me + 1) % size, prev = (me + size - 1) % size;
    auto& g = got[static_cast<std::size_t>(me)];
    int count;
    MPI_Count count_x;
    MPI_Status st;
    // 5 ints into room for 2 elements of contiguous(3): one and two thirds of an element.
    MPI_Datatype three = committed(contiguous(3));
    const int five[5] = {me, me + 1, me + 2, me + 3, me + 4};
    std::vector<int> six(6, -1);
    MPI_Sendrecv(five, 5, MPI_INT, next, 0, six.data(), 2, three, prev, 0, MPI_COMM_WORLD, &st);
    ints[static_cast<std::size_t>(me)] = six;
    MPI_Get_count(&st, three, &count);
    g.push_back(count);
    MPI_Get_elements(&st, three, &count);
    g.push_back(count);
    MPI_Get_elements_x(&st, three, &count_x);
    g.push_back(count_x);
    MPI_Get_count(&st, MPI_INT, &count);
    g.push_back(count);
    // {int, double, int} into room for 2 {int, double}: 1 element and 3 basic elements.
    struct IDI {
      int a;
      double b;
      int c;
    } idi{me, 0.5, me};
    MPI_Datatype sent = committed(structure({1, 1, 1}, {0, 8, 16}, {MPI_INT, MPI_DOUBLE, MPI_INT}));
    MPI_Datatype id = committed(structure({1, 1}, {0, 8}, {MPI_INT, MPI_DOUBLE}));
    char room[32];
    MPI_Sendrecv(&idi, 1, sent, next, 1, room, 2, id, prev, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, id, &count);
    g.push_back(count);
    MPI_Get_elements(&st, id, &count);
    g.push_back(count);
    // 6 bytes are not a whole number of ints.
    const char bytes[6] = {};
    MPI_Sendrecv(bytes, 6, MPI_BYTE, next, 2, room, 8, MPI_BYTE, prev, 2, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, MPI_INT, &count);
    g.push_back(count);
    MPI_Get_elements(&st, MPI_BYTE, &count);
    g.push_back(count);
    for (MPI_Datatype* t : {&three, &sent, &id})
      MPI_Type_free(t);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const int source = (r + size - 1) % size;
    EXPECT_EQ(got[i],
              (std::vector<long long>{MPI_UNDEFINED, 5, 5, 5, MPI_UNDEFINED, 3, MPI_UNDEFINED, 6}))
        << "rank " << r;
    EXPECT_EQ(ints[i],
              (std::vector<int>{source, source + 1, source + 2, source + 3, source + 4, -1}))
        << "rank " << r;
  }
}

TEST_P(DatatypesTest, BcastOfSubarraysAndMarkedStructs) {
  const int size = GetParam();
  const auto n = static_cast<std::size_t>(size);
  const int root = size - 1;
  std::vector<std::vector<int>> sub(n), marked(n);
  std::vector<int> rc(n, -1);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const auto i = static_cast<std::size_t>(me);
    MPI_Datatype s = committed(subarray({4, 5}, {2, 3}, {1, 2}, MPI_ORDER_C));
    // {(lb,-4), (int,0), (int,8), (ub,12)}: extent 4 ints.
    MPI_Datatype m =
        committed(structure({1, 1, 1, 1}, {-4, 0, 8, 12}, {MPI_LB, MPI_INT, MPI_INT, MPI_UB}));
    std::vector<int> a(40, -1), b(13, -1);
    if (me == root) {
      for (std::size_t k = 0; k < a.size(); ++k)
        a[k] = 500 + static_cast<int>(k);
      for (std::size_t k = 0; k < b.size(); ++k)
        b[k] = 700 + static_cast<int>(k);
    }
    rc[i] = MPI_Bcast(a.data(), 2, s, root, MPI_COMM_WORLD);
    rc[i] |= MPI_Bcast(b.data() + 1, 3, m, root, MPI_COMM_WORLD);
    sub[i] = a;
    marked[i] = b;
    MPI_Type_free(&s);
    MPI_Type_free(&m);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  std::vector<int> want_sub(40, -1), want_marked(13, -1);
  for (int k : {7, 8, 9, 12, 13, 14, 27, 28, 29, 32, 33, 34})
    want_sub[static_cast<std::size_t>(k)] = 500 + k;
  for (int k : {1, 3, 5, 7, 9, 11}) // element e at 1 + 4e, its ints at 0 and 2 from there
    want_marked[static_cast<std::size_t>(k)] = 700 + k;
  for (int r = 0; r < size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    EXPECT_EQ(rc[i], MPI_SUCCESS) << "rank " << r;
    if (r == root) continue;
    EXPECT_EQ(sub[i], want_sub) << "rank " << r;
    EXPECT_EQ(marked[i], want_marked) << "rank " << r;
  }
}

/// struct { double value; int index; } of MPI_DOUBLE_INT.
struct DoubleInt {
  double value;
  int index;
};

TEST_P(DatatypesTest, AllreduceAndReduceOnDerivedTypes) {
  const int size = GetParam();
  const auto n = static_cast<std::size_t>(size);
  std::vector<std::vector<int>> dense(n), gaps(n), maxed(n);
  std::vector<std::vector<DoubleInt>> minloc(n);
  std::vector<std::vector<int>> rc(n);
  auto input = [](int r, std::size_t k) { return (r * 7 + static_cast<int>(k) * 3) % 11 - 4; };
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int me = test::world_rank();
    const auto i = static_cast<std::size_t>(me);
    // vector with stride == blocklength: 6 consecutive ints, 2 of them = 12 ints.
    MPI_Datatype d = committed(vector(3, 2, 2));
    std::vector<int> in(12), out(12, -1);
    for (std::size_t k = 0; k < in.size(); ++k)
      in[k] = input(me, k);
    rc[i].push_back(MPI_Allreduce(in.data(), out.data(), 2, d, MPI_SUM, MPI_COMM_WORLD));
    dense[i] = out;
    // vector(3, 1, 2) has extent 5 ints: 2 elements cover ints 0, 2, 4, 5, 7, 9.
    MPI_Datatype g = committed(vector(3, 1, 2));
    std::vector<int> gin(10, 99), gout(10, -1);
    for (std::size_t k : {0, 2, 4, 5, 7, 9})
      gin[k] = input(me, k);
    rc[i].push_back(MPI_Allreduce(gin.data(), gout.data(), 2, g, MPI_SUM, MPI_COMM_WORLD));
    gaps[i] = gout;
    // MINLOC on pairs one slot apart: resized(MPI_DOUBLE_INT) to two structs.
    MPI_Datatype p = committed(resized(MPI_DOUBLE_INT, 0, 2 * sizeof(DoubleInt)));
    std::vector<DoubleInt> pin(6, DoubleInt{-1, -1}), pout(6, DoubleInt{-2, -2});
    for (std::size_t k = 0; k < 3; ++k)
      pin[2 * k] = {static_cast<double>((me * 5 + static_cast<int>(k)) % 3), me};
    rc[i].push_back(MPI_Allreduce(pin.data(), pout.data(), 3, p, MPI_MINLOC, MPI_COMM_WORLD));
    minloc[i] = pout;
    // MAX of a subarray to root 0, in place at the root.
    MPI_Datatype s = committed(subarray({4, 5}, {2, 3}, {1, 2}, MPI_ORDER_C));
    std::vector<int> sbuf(20, -7);
    for (std::size_t k : {7, 8, 9, 12, 13, 14})
      sbuf[k] = input(me, k);
    rc[i].push_back(MPI_Reduce(me == 0 ? MPI_IN_PLACE : sbuf.data(), sbuf.data(), 1, s, MPI_MAX, 0,
                               MPI_COMM_WORLD));
    maxed[i] = sbuf;
    // A predefined op on a type of mixed basic types is MPI_ERR_OP on every rank.
    MPI_Datatype mixed = committed(structure({1, 1}, {0, 8}, {MPI_INT, MPI_DOUBLE}));
    char mbuf[2][16] = {};
    rc[i].push_back(MPI_Allreduce(mbuf[0], mbuf[1], 1, mixed, MPI_SUM, MPI_COMM_WORLD));
    for (MPI_Datatype* t : {&d, &g, &p, &s, &mixed})
      MPI_Type_free(t);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  std::vector<int> want_dense(12, 0), want_gaps(10, -1), want_max(20, -7);
  for (int r = 0; r < size; ++r)
    for (std::size_t k = 0; k < 12; ++k)
      want_dense[k] += input(r, k);
  for (std::size_t k : {0, 2, 4, 5, 7, 9}) {
    want_gaps[k] = 0;
    for (int r = 0; r < size; ++r)
      want_gaps[k] += input(r, k);
  }
  for (std::size_t k : {7, 8, 9, 12, 13, 14}) {
    want_max[k] = input(0, k);
    for (int r = 1; r < size; ++r)
      want_max[k] = std::max(want_max[k], input(r, k));
  }
  std::vector<DoubleInt> want_minloc(6, DoubleInt{-2, -2});
  for (std::size_t k = 0; k < 3; ++k) {
    DoubleInt best{1e9, -1};
    for (int r = 0; r < size; ++r) {
      const double v = (r * 5 + static_cast<int>(k)) % 3;
      if (v < best.value) best = {v, r}; // ties keep the lowest rank, which comes first
    }
    want_minloc[2 * k] = best;
  }
  for (int r = 0; r < size; ++r) {
    const auto i = static_cast<std::size_t>(r);
    EXPECT_EQ(rc[i],
              (std::vector<int>{MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_ERR_OP}))
        << "rank " << r;
    EXPECT_EQ(dense[i], want_dense) << "rank " << r;
    EXPECT_EQ(gaps[i], want_gaps) << "rank " << r;
    ASSERT_EQ(minloc[i].size(), 6u);
    for (std::size_t k = 0; k < 6; ++k) {
      EXPECT_EQ(minloc[i][k].value, want_minloc[k].value) << "rank " << r << " slot " << k;
      EXPECT_EQ(minloc[i][k].index, want_minloc[k].index) << "rank " << r << " slot " << k;
    }
    if (r == 0) {
      EXPECT_EQ(maxed[i], want_max);
    }
  }
}

TEST_P(DatatypesTest, PingPongTimeIsThatOfThePackedSize) {
  const int size = GetParam();
  if (size < 2) GTEST_SKIP() << "a ping-pong needs two ranks";
  // vector(100, 3, 7) of doubles: 2400 bytes, eager. vector(10000, 1, 2): 80000 bytes, above
  // the 64 KiB eager limit: rendezvous (docs/model.md).
  struct Run {
    int count, blocklength, stride;
  };
  const Run runs[] = {{100, 3, 7}, {10000, 1, 2}};
  std::vector<SimTime> rtt;
  std::vector<int> data_ok;
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank(), last = size - 1;
    for (const Run& run : runs) {
      MPI_Datatype v = committed(vector(run.count, run.blocklength, run.stride, MPI_DOUBLE));
      const auto span = static_cast<std::size_t>(run.count * run.stride);
      const auto packed = static_cast<std::size_t>(run.count * run.blocklength);
      std::vector<double> strided(span, -1.0), flat(packed, -1.0);
      // Rank 0's pattern travels there in the vector and back packed.
      for (std::size_t k = 0; me == 0 && k < span; ++k)
        strided[k] = static_cast<double>(k);
      const long long t0 = MPISIM_Clock_ps();
      if (me == 0) {
        MPI_Send(strided.data(), 1, v, last, 0, MPI_COMM_WORLD);
        MPI_Recv(flat.data(), static_cast<int>(packed), MPI_DOUBLE, last, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        rtt.push_back(MPISIM_Clock_ps() - t0);
        bool ok = true;
        for (std::size_t b = 0; b < static_cast<std::size_t>(run.count); ++b)
          for (std::size_t e = 0; e < static_cast<std::size_t>(run.blocklength); ++e)
            ok = ok && flat[b * static_cast<std::size_t>(run.blocklength) + e] ==
                           static_cast<double>(b * static_cast<std::size_t>(run.stride) + e);
        data_ok.push_back(ok);
      } else if (me == last) {
        MPI_Recv(strided.data(), 1, v, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(strided.data(), 1, v, 0, 0, MPI_COMM_WORLD);
      }
      MPI_Type_free(&v);
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  const SimTime eager = 2400, rendezvous = 80000;
  EXPECT_EQ(rtt,
            (std::vector<SimTime>{
                2 * (kSendOverhead + kLatency + eager * kPsPerByte + kRecvOverhead),
                2 * (kSendOverhead + 3 * kLatency + rendezvous * kPsPerByte + kRecvOverhead)}));
  EXPECT_EQ(data_ok, (std::vector<int>{1, 1}));
}

INSTANTIATE_TEST_SUITE_P(Datatypes, DatatypesTest, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

} // namespace
