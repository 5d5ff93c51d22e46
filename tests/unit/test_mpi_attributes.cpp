// Attribute caching: copy and delete callbacks run when MPI says (dup, set over a value, delete,
// free, MPI_Finalize on MPI_COMM_SELF), counted per rank; the predefined attributes of
// MPI_COMM_WORLD; the MPI-1 interface; and the error classes of bad keyvals.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

/// What the callbacks of one rank's keyvals saw; their extra_state points here.
struct Counters {
  int copies = 0;
  std::vector<std::intptr_t> deleted; ///< values, in the order their delete callbacks ran
  std::vector<MPI_Comm> deleted_on;   ///< the communicator passed to each
  int fail_with = MPI_SUCCESS;        ///< what the callbacks return
};

void* as_value(std::intptr_t v) {
  return reinterpret_cast<void*>(v);
}
std::intptr_t as_int(void* v) {
  return reinterpret_cast<std::intptr_t>(v);
}

/// Copies value v as v + 1000.
int counting_copy(MPI_Comm, int, void* extra, void* in, void* out, int* flag) {
  Counters& c = *static_cast<Counters*>(extra);
  ++c.copies;
  if (c.fail_with != MPI_SUCCESS) return c.fail_with;
  *static_cast<void**>(out) = as_value(as_int(in) + 1000);
  *flag = 1;
  return MPI_SUCCESS;
}

int counting_delete(MPI_Comm comm, int, void* value, void* extra) {
  Counters& c = *static_cast<Counters*>(extra);
  if (c.fail_with != MPI_SUCCESS) return c.fail_with;
  c.deleted.push_back(as_int(value));
  c.deleted_on.push_back(comm);
  return MPI_SUCCESS;
}

struct AttrLog {
  int failed = 0;
  MPI_Comm first = 0, second = 0;
  std::intptr_t a_on_second = -1, c_on_second = -1, a_after_set = -1;
  int b_on_second = -1, b_after_delete = -1, keyval_after_free = 0;
};

class AttributesTest : public testing::TestWithParam<int> {};

TEST_P(AttributesTest, CopyAndDeleteCallbacksRunWhenMpiSays) {
  const int size = GetParam();
  std::vector<Counters> counters(static_cast<std::size_t>(size)), b_counters(counters);
  std::vector<AttrLog> logs(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    const std::size_t i = static_cast<std::size_t>(me);
    AttrLog& log = logs[i];
    auto call = [&log](int code) { log.failed += code != MPI_SUCCESS; };
    int ka, kb, kc;
    call(MPI_Comm_create_keyval(counting_copy, counting_delete, &ka, &counters[i]));
    call(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &kb, &b_counters[i]));
    call(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kc, nullptr));
    MPI_Comm first, second;
    call(MPI_Comm_dup(MPI_COMM_WORLD, &first));
    log.first = first;
    call(MPI_Comm_set_attr(first, ka, as_value(10 + me)));
    call(MPI_Comm_set_attr(first, kb, as_value(20)));
    call(MPI_Comm_set_attr(first, kc, as_value(30)));
    call(MPI_Comm_dup(first, &second)); // A copied by its callback, B not, C as it is
    log.second = second;
    void* v;
    int flag;
    call(MPI_Comm_get_attr(second, ka, &v, &flag));
    log.a_on_second = flag ? as_int(v) : -1;
    call(MPI_Comm_get_attr(second, kb, &v, &log.b_on_second));
    call(MPI_Comm_get_attr(second, kc, &v, &flag));
    log.c_on_second = flag ? as_int(v) : -1;
    call(MPI_Comm_set_attr(first, ka, as_value(11))); // deletes 10 + me first
    call(MPI_Comm_get_attr(first, ka, &v, &flag));
    log.a_after_set = flag ? as_int(v) : -1;
    call(MPI_Comm_delete_attr(first, kb)); // deletes 20
    call(MPI_Comm_get_attr(first, kb, &v, &log.b_after_delete));
    call(MPI_Comm_free(&second)); // deletes 1010 + me (C has no delete callback)
    call(MPI_Comm_free_keyval(&ka));
    log.keyval_after_free = ka;
    call(MPI_Comm_free(&first)); // A is still there and still deleted: 11
    call(MPI_Comm_free_keyval(&kb));
    call(MPI_Comm_free_keyval(&kc));
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    const AttrLog& log = logs[i];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(log.failed, 0);
    EXPECT_EQ(counters[i].copies, 1);
    EXPECT_EQ(log.a_on_second, 1010 + r);
    EXPECT_EQ(log.b_on_second, 0);
    EXPECT_EQ(log.c_on_second, 30);
    EXPECT_EQ(log.a_after_set, 11);
    EXPECT_EQ(log.b_after_delete, 0);
    EXPECT_EQ(log.keyval_after_free, MPI_KEYVAL_INVALID);
    EXPECT_EQ(counters[i].deleted, (std::vector<std::intptr_t>{10 + r, 1010 + r, 11}));
    EXPECT_EQ(counters[i].deleted_on, (std::vector<MPI_Comm>{log.first, log.second, log.first}));
    EXPECT_EQ(b_counters[i].deleted, (std::vector<std::intptr_t>{20}));
    EXPECT_EQ(b_counters[i].copies, 0);
  }
}

TEST_P(AttributesTest, PredefinedAttributesOfCommWorld) {
  const int size = GetParam();
  struct Log {
    int flags = 0, tag_ub = 0, host = 0, io = 0, wtime_global = 0, universe = 0, appnum = -1;
    int mpi1_tag_ub = 0, send_at_tag_ub = -1;
  };
  std::vector<Log> logs(static_cast<std::size_t>(size));
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    Log& log = logs[static_cast<std::size_t>(me)];
    auto get = [&log](int keyval) {
      int* v = nullptr;
      int flag = 0;
      MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &v, &flag);
      log.flags += flag;
      return flag ? *v : INT_MIN;
    };
    log.tag_ub = get(MPI_TAG_UB);
    log.host = get(MPI_HOST);
    log.io = get(MPI_IO);
    log.wtime_global = get(MPI_WTIME_IS_GLOBAL);
    log.universe = get(MPI_UNIVERSE_SIZE);
    log.appnum = get(MPI_APPNUM);
    int* v = nullptr;
    int flag = 0;
    MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag);
    log.mpi1_tag_ub = flag ? *v : INT_MIN;
    // The bound is what point-to-point accepts: a message with the largest tag goes through.
    int x = me, y = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    log.send_at_tag_ub = MPI_Sendrecv(&x, 1, MPI_INT, me, log.tag_ub, &y, 1, MPI_INT, me,
                                      log.tag_ub, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (int r = 0; r < size; ++r) {
    const Log& log = logs[static_cast<std::size_t>(r)];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(log.flags, 6);
    EXPECT_GE(log.tag_ub, 32767); // MPI's minimum
    EXPECT_EQ(log.tag_ub, INT_MAX);
    EXPECT_EQ(log.host, MPI_PROC_NULL);
    EXPECT_EQ(log.io, MPI_ANY_SOURCE);
    EXPECT_EQ(log.wtime_global, 1);
    EXPECT_EQ(log.universe, size);
    EXPECT_EQ(log.appnum, 0);
    EXPECT_EQ(log.mpi1_tag_ub, INT_MAX);
    EXPECT_EQ(log.send_at_tag_ub, MPI_SUCCESS);
  }
}

TEST_P(AttributesTest, SelfThenWorldAttributesAreDeletedByFinalize) {
  const int size = GetParam();
  std::vector<Counters> counters(static_cast<std::size_t>(size));
  std::vector<std::size_t> before_finalize(static_cast<std::size_t>(size), 99);
  auto summary = test::simulate(test::config(size), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const std::size_t i = static_cast<std::size_t>(test::world_rank());
    int k;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &k, &counters[i]);
    MPI_Comm_set_attr(MPI_COMM_SELF, k, as_value(7));
    MPI_Comm_set_attr(MPI_COMM_WORLD, k, as_value(8)); // deleted after SELF's, as by MPICH
    before_finalize[i] = counters[i].deleted.size();
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  for (std::size_t i = 0; i < counters.size(); ++i) {
    EXPECT_EQ(before_finalize[i], 0u);
    EXPECT_EQ(counters[i].deleted, (std::vector<std::intptr_t>{7, 8}));
    EXPECT_EQ(counters[i].deleted_on, (std::vector<MPI_Comm>{MPI_COMM_SELF, MPI_COMM_WORLD}));
  }
}

INSTANTIATE_TEST_SUITE_P(Attributes, AttributesTest, testing::Values(1, 2, 3, 7, 16, 33),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "ranks";
                         });

TEST(Attributes, MpiOneInterfaceCopiesWithDupFn) {
  std::intptr_t on_dup = -1;
  int after_delete = -1, keyval = 0, failed = 0;
  auto summary = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    auto call = [&failed](int code) { failed += code != MPI_SUCCESS; };
    int k;
    call(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k, nullptr));
    call(MPI_Attr_put(MPI_COMM_WORLD, k, as_value(42)));
    MPI_Comm dup;
    call(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    void* v = nullptr;
    int flag = 0;
    call(MPI_Attr_get(dup, k, &v, &flag));
    call(MPI_Attr_delete(dup, k));
    int gone = -1;
    call(MPI_Attr_get(dup, k, &v, &gone));
    call(MPI_Comm_free(&dup));
    call(MPI_Keyval_free(&k));
    if (test::world_rank() == 1) {
      on_dup = flag ? as_int(v) : -1;
      after_delete = gone;
      keyval = k;
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(on_dup, 42);
  EXPECT_EQ(after_delete, 0);
  EXPECT_EQ(keyval, MPI_KEYVAL_INVALID);
}

TEST(Attributes, FailingCallbacksAndBadKeyvalsGiveErrors) {
  std::vector<int> codes;
  std::intptr_t kept = -1;
  MPI_Comm failed_dup = 0;
  Counters counters;
  auto summary = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int k;
    MPI_Comm_create_keyval(counting_copy, counting_delete, &k, &counters);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k, as_value(5));
    counters.fail_with = MPI_ERR_OTHER;
    codes.push_back(MPI_Comm_delete_attr(MPI_COMM_WORLD, k)); // the value stays
    void* v;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, k, &v, &flag);
    kept = flag ? as_int(v) : -1;
    codes.push_back(MPI_Comm_dup(MPI_COMM_WORLD, &failed_dup));
    counters.fail_with = MPI_SUCCESS;
    codes.push_back(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, as_value(1)));
    codes.push_back(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_APPNUM));
    codes.push_back(MPI_Comm_get_attr(MPI_COMM_WORLD, 0x24000fff, &v, &flag));
    codes.push_back(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID));
    int predefined = MPI_TAG_UB;
    codes.push_back(MPI_Comm_free_keyval(&predefined));
    codes.push_back(MPI_Comm_set_attr(static_cast<MPI_Comm>(0x84000fff), k, as_value(1)));
    MPI_Comm_free_keyval(&k);
    int freed = k;
    codes.push_back(MPI_Comm_free_keyval(&freed));
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(kept, 5);
  EXPECT_EQ(failed_dup, MPI_COMM_NULL);
  EXPECT_EQ(codes, (std::vector<int>{MPI_ERR_OTHER, MPI_ERR_OTHER, MPI_ERR_KEYVAL, MPI_ERR_KEYVAL,
                                     MPI_ERR_KEYVAL, MPI_ERR_KEYVAL, MPI_ERR_KEYVAL, MPI_ERR_COMM,
                                     MPI_ERR_KEYVAL}));
}

} // namespace
