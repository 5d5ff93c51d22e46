// MPI_Pack_external / MPI_Unpack_external of structs that mix basic types (which MPICH 4.0.2
// cannot size, so the conformance test leaves them here): the bytes are worked out from the
// standard's external32 table (big-endian; int 4, short 2, long 4, double 8, char 1 bytes), and
// the errors of a foreign representation and of a buffer too small.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "one_rank.hpp"

namespace {

struct Record {
  int i;
  short s;
  long l;
  double d;
  char c;
};

MPI_Datatype record_type() {
  const int lengths[5] = {1, 1, 1, 1, 1};
  const MPI_Aint disps[5] = {offsetof(Record, i), offsetof(Record, s), offsetof(Record, l),
                             offsetof(Record, d), offsetof(Record, c)};
  const MPI_Datatype types[5] = {MPI_INT, MPI_SHORT, MPI_LONG, MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype t;
  MPI_Type_create_struct(5, lengths, disps, types, &t);
  MPI_Type_commit(&t);
  return t;
}

TEST(External32, StructOfMixedTypesPacksBigEndianWithTheStandardSizesAndUnpacksBack) {
  test::on_one_rank([] {
    MPI_Datatype t = record_type();
    MPI_Aint size = 0;
    ASSERT_EQ(MPI_Pack_external_size("external32", 2, t, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 2 * (4 + 2 + 4 + 8 + 1));
    const Record in[2] = {{0x01020304, -2, -3, 1.0, 'A'}, {-1, 0x0a0b, 0x11223344, -2.0, 'z'}};
    std::vector<unsigned char> buf(static_cast<std::size_t>(size) + 3, 0xee);
    MPI_Aint position = 3;
    ASSERT_EQ(MPI_Pack_external("external32", in, 2, t, buf.data(),
                                static_cast<MPI_Aint>(buf.size()), &position),
              MPI_SUCCESS);
    EXPECT_EQ(position, size + 3);
    const std::vector<unsigned char> expected = {
        0xee, 0xee, 0xee,                               // before the position
        0x01, 0x02, 0x03, 0x04, 0xff, 0xfe,             // int, short
        0xff, 0xff, 0xff, 0xfd,                         // long -3 in 4 bytes
        0x3f, 0xf0, 0,    0,    0,    0,    0, 0, 'A',  // 1.0, 'A'
        0xff, 0xff, 0xff, 0xff, 0x0a, 0x0b,             // int -1, short
        0x11, 0x22, 0x33, 0x44,                         // long
        0xc0, 0x00, 0,    0,    0,    0,    0, 0, 'z'}; // -2.0, 'z'
    EXPECT_EQ(buf, expected);
    Record out[2] = {};
    position = 3;
    ASSERT_EQ(MPI_Unpack_external("external32", buf.data(), static_cast<MPI_Aint>(buf.size()),
                                  &position, out, 2, t),
              MPI_SUCCESS);
    EXPECT_EQ(position, size + 3);
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(out[k].i, in[k].i);
      EXPECT_EQ(out[k].s, in[k].s);
      EXPECT_EQ(out[k].l, in[k].l); // sign-extended back from 4 bytes
      EXPECT_EQ(out[k].d, in[k].d);
      EXPECT_EQ(out[k].c, in[k].c);
    }
    MPI_Type_free(&t);
  });
}

TEST(External32, PairTypesConvertEachMember) {
  test::on_one_rank([] {
    struct {
      double value;
      int index;
    } pair = {0.5, 7};
    unsigned char buf[12];
    MPI_Aint position = 0;
    ASSERT_EQ(MPI_Pack_external("external32", &pair, 1, MPI_DOUBLE_INT, buf, sizeof buf, &position),
              MPI_SUCCESS);
    const unsigned char expected[12] = {0x3f, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
    EXPECT_EQ(position, 12);
    EXPECT_EQ(std::vector<unsigned char>(buf, buf + 12),
              std::vector<unsigned char>(expected, expected + 12));
  });
}

TEST(External32, OtherRepresentationsAndShortBuffersAreRefused) {
  test::on_one_rank([] {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v[2] = {1, 2}, cls = 0;
    unsigned char buf[8];
    MPI_Aint position = 0, size = 0;
    MPI_Error_class(MPI_Pack_external("native", v, 2, MPI_INT, buf, sizeof buf, &position), &cls);
    EXPECT_EQ(cls, MPI_ERR_ARG);
    MPI_Error_class(MPI_Pack_external_size("internal", 2, MPI_INT, &size), &cls);
    EXPECT_EQ(cls, MPI_ERR_ARG);
    MPI_Error_class(MPI_Pack_external("external32", v, 2, MPI_INT, buf, 7, &position), &cls);
    EXPECT_EQ(cls, MPI_ERR_ARG);
    EXPECT_EQ(position, 0);
    position = 4;
    MPI_Error_class(MPI_Unpack_external("external32", buf, 8, &position, v, 2, MPI_INT), &cls);
    EXPECT_EQ(cls, MPI_ERR_TRUNCATE);
  });
}

} // namespace
