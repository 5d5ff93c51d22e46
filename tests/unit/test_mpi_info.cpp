// Info objects: keys kept in the order set, values read back whole or cut to a length, copies
// independent of their original; and the error classes of bad keys and handles.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

TEST(Info, SetGetDeleteDupAndKeysInOrder) {
  struct Log {
    int nkeys = -1, nkeys_after = -1, dup_nkeys = -1, env_nkeys = -1, valuelen = -1;
    int flag_missing = -1, flag_deleted = -1;
    std::vector<std::string> keys;
    std::string value, cut, in_dup, after_overwrite;
    MPI_Info after_free = 0;
  } log;
  int failed = 0;
  auto summary = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    auto call = [&failed](int code) { failed += code != MPI_SUCCESS; };
    MPI_Info info, copy;
    call(MPI_Info_create(&info));
    call(MPI_Info_set(info, "cb_nodes", "4"));
    call(MPI_Info_set(info, "striping_unit", "1048576"));
    call(MPI_Info_set(info, "host", "node17"));
    call(MPI_Info_get_nkeys(info, &log.nkeys));
    char buf[MPI_MAX_INFO_VAL + 1];
    for (int i = 0; i < log.nkeys; ++i) {
      call(MPI_Info_get_nthkey(info, i, buf));
      log.keys.emplace_back(buf);
    }
    int flag = 0;
    call(MPI_Info_get(info, "striping_unit", MPI_MAX_INFO_VAL, buf, &flag));
    log.value = buf;
    call(MPI_Info_get(info, "striping_unit", 3, buf, &flag));
    log.cut = buf;
    call(MPI_Info_get_valuelen(info, "host", &log.valuelen, &flag));
    call(MPI_Info_get(info, "absent", MPI_MAX_INFO_VAL, buf, &log.flag_missing));
    call(MPI_Info_dup(info, &copy));
    call(MPI_Info_set(info, "cb_nodes", "8")); // overwrite: same key count, original place
    call(MPI_Info_delete(info, "host"));
    call(MPI_Info_get(info, "host", MPI_MAX_INFO_VAL, buf, &log.flag_deleted));
    call(MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, buf, &flag));
    log.after_overwrite = buf;
    call(MPI_Info_get_nkeys(info, &log.nkeys_after));
    call(MPI_Info_get_nkeys(copy, &log.dup_nkeys));
    call(MPI_Info_get(copy, "cb_nodes", MPI_MAX_INFO_VAL, buf, &flag));
    log.in_dup = buf;
    call(MPI_Info_get_nkeys(MPI_INFO_ENV, &log.env_nkeys));
    call(MPI_Info_free(&copy));
    call(MPI_Info_free(&info));
    log.after_free = info;
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(log.nkeys, 3);
  EXPECT_EQ(log.keys, (std::vector<std::string>{"cb_nodes", "striping_unit", "host"}));
  EXPECT_EQ(log.value, "1048576");
  EXPECT_EQ(log.cut, "104");
  EXPECT_EQ(log.valuelen, 6);
  EXPECT_EQ(log.flag_missing, 0);
  EXPECT_EQ(log.flag_deleted, 0);
  EXPECT_EQ(log.after_overwrite, "8");
  EXPECT_EQ(log.nkeys_after, 2);
  EXPECT_EQ(log.dup_nkeys, 3);
  EXPECT_EQ(log.in_dup, "4");
  EXPECT_EQ(log.env_nkeys, 0);
  EXPECT_EQ(log.after_free, MPI_INFO_NULL);
}

TEST(Info, CreateEnvCopiesTheEmptyEnvironmentAndStatusesConvertThroughFortran2008) {
  int made = -1, nkeys = -1, f2f08 = -1, f082f = -1;
  MPI_Info env = MPI_INFO_NULL;
  MPI_Status back{};
  auto summary = test::simulate(test::config(1), [&](int argc, char** argv) {
    MPI_Init(nullptr, nullptr);
    made = MPI_Info_create_env(argc, argv, &env);
    MPI_Info_get_nkeys(env, &nkeys);
    MPI_Info_free(&env);
    MPI_Status st{};
    st.MPI_SOURCE = 3;
    st.MPI_TAG = 42;
    st.MPI_ERROR = MPI_ERR_TRUNCATE;
    MPI_Fint f[sizeof(MPI_Status) / sizeof(MPI_Fint)], f_again[sizeof f / sizeof *f];
    MPI_F08_status f08{};
    MPI_Status_c2f(&st, f);
    f2f08 = MPI_Status_f2f08(f, &f08);
    f082f = MPI_Status_f082f(&f08, f_again);
    MPI_Status_f2c(f_again, &back);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(made, MPI_SUCCESS);
  EXPECT_EQ(nkeys, 0); // as MPI_INFO_ENV
  EXPECT_EQ(env, MPI_INFO_NULL);
  EXPECT_EQ(f2f08, MPI_SUCCESS);
  EXPECT_EQ(f082f, MPI_SUCCESS);
  EXPECT_EQ(back.MPI_SOURCE, 3);
  EXPECT_EQ(back.MPI_TAG, 42);
  EXPECT_EQ(back.MPI_ERROR, MPI_ERR_TRUNCATE);
}

TEST(Info, ErrorClassesOfBadArguments) {
  std::vector<int> codes;
  auto summary = test::simulate(test::config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Info info;
    MPI_Info_create(&info);
    const std::string long_key(MPI_MAX_INFO_KEY + 1, 'k');
    const std::string long_value(MPI_MAX_INFO_VAL + 1, 'v');
    int n;
    char key[MPI_MAX_INFO_KEY + 1];
    codes.push_back(MPI_Info_delete(info, "absent"));
    codes.push_back(MPI_Info_get_nkeys(static_cast<MPI_Info>(0x9c000fff), &n));
    codes.push_back(MPI_Info_get_nkeys(MPI_INFO_NULL, &n));
    codes.push_back(MPI_Info_set(info, long_key.c_str(), "1"));
    codes.push_back(MPI_Info_set(info, "", "1"));
    codes.push_back(MPI_Info_set(info, "key", long_value.c_str()));
    codes.push_back(MPI_Info_get_nthkey(info, 0, key));
    MPI_Info env = MPI_INFO_ENV;
    codes.push_back(MPI_Info_free(&env));
    MPI_Info_free(&info);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(summary.reason, mpilite::RunEnd::Finished) << summary.message;
  EXPECT_EQ(codes,
            (std::vector<int>{MPI_ERR_INFO_NOKEY, MPI_ERR_INFO, MPI_ERR_INFO, MPI_ERR_INFO_KEY,
                              MPI_ERR_INFO_KEY, MPI_ERR_INFO_VALUE, MPI_ERR_ARG, MPI_ERR_ARG}));
}

} // namespace
