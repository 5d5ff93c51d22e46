// The MPI-3.1 interface: every function links, and one that mpisim does not implement ends the
// simulation with a message naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api_unimplemented.hpp"
#include "sim_harness.hpp"

namespace {

std::string not_implemented(int rank, const std::string& function) {
  return "rank " + std::to_string(rank) + ": " + function +
         " is not implemented by mpisim (see docs/mpi-coverage.md)";
}

TEST(Unimplemented, EndsTheSimulationAsAFatalErrorNamingRankAndFunction) {
  std::vector<int> reached(3, 0);
  auto r = test::simulate(test::config(3), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me == 2) mpilite::unimplemented("MPI_Imaginary");
    MPI_Barrier(MPI_COMM_WORLD);
    reached[static_cast<std::size_t>(me)] = 1;
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.message, not_implemented(2, "MPI_Imaginary"));
  EXPECT_EQ(reached, (std::vector<int>{0, 0, 0}));
}

// Dynamic process management has no meaning for a fixed set of simulated ranks, so these calls
// stay unimplemented.
TEST(Unimplemented, DeclaredFunctionLinksAndFailsAtRunTime) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 1) {
      char command[] = "worker";
      MPI_Comm children = MPI_COMM_NULL;
      MPI_Comm_spawn(command, MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children,
                     MPI_ERRCODES_IGNORE);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.message, not_implemented(1, "MPI_Comm_spawn"));
}

TEST(Unimplemented, IsFatalEvenWithErrorsReturnAndThroughThePmpiName) {
  auto r = test::simulate(test::config(1), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME];
    PMPI_Open_port(MPI_INFO_NULL, port);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.message, not_implemented(0, "MPI_Open_port"));
}

TEST(UnimplementedDeathTest, OutsideASimulatedRankExitsWithTheSameMessage) {
  MPI_Comm joined = MPI_COMM_NULL;
  EXPECT_EXIT(MPI_Comm_join(0, &joined), ::testing::ExitedWithCode(1),
              "mpisim: MPI_Comm_join is not implemented by mpisim \\(see docs/mpi-coverage.md\\)");
}

// Taking the address of every MPI_x and PMPI_x of mpisim_functions.h makes the link fail if any
// of them has no definition, implemented or fallback.
#define MPISIM_DECLARE(ret, name, params)                                                          \
  {"MPI_" #name, reinterpret_cast<const void*>(&MPI_##name),                                       \
   reinterpret_cast<const void*>(&PMPI_##name)},
struct Entry {
  const char* name;
  const void* mpi;
  const void* pmpi;
};
const Entry kEveryFunction[] = {
#include "mpisim_functions.h"
};
#undef MPISIM_DECLARE

TEST(Unimplemented, EveryMpi31FunctionIsDeclared) {
  // The link of this binary is the check that each has a definition; here, that none is missing
  // from the list: MPI-3.1 has 409 C functions (more may be declared by hand).
  EXPECT_GE(std::size(kEveryFunction), 409u);
  std::vector<std::string> names;
  for (const Entry& e : kEveryFunction)
    names.emplace_back(e.name);
  for (const char* f :
       {"MPI_Win_create", "MPI_File_open", "MPI_T_init_thread", "MPI_Aint_add",
        "MPI_Ineighbor_alltoallw", "MPI_Grequest_start", "MPI_Dist_graph_create",
        "MPI_Type_create_subarray", "MPI_Comm_idup", "MPI_Status_f082c",
        // MPI-4.0, declared by hand
        "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Comm_idup_with_info", "MPI_Send_c",
        "MPI_Allreduce_c", "MPI_Get_count_c", "MPI_Bcast_init", "MPI_Neighbor_alltoallw_init",
        "MPI_Psend_init", "MPI_Parrived", "MPI_Session_init", "MPI_Comm_create_from_group",
        "MPI_Put_c", "MPI_Type_vector_c", "MPI_Bcast_init_c", "MPI_Mrecv_c", "MPI_Gatherv_c",
        "MPI_Pack_c", "MPI_Type_create_struct_c", "MPI_Win_allocate_c", "MPI_Neighbor_alltoallw_c",
        "MPI_T_event_read", "MPI_Op_create_c", "MPI_Gatherv_init_c", "MPI_Ialltoallw_c",
        "MPI_Info_create_env", "MPI_Status_f2f08"})
    EXPECT_NE(std::find(names.begin(), names.end(), f), names.end()) << f;
}

TEST(PredefinedCallbacks, DupFunctionsCopyTheValueAndNullOnesAreNull) {
  int value = 42, flag = 0;
  void* copy = nullptr;
  EXPECT_EQ(MPI_COMM_DUP_FN(MPI_COMM_WORLD, 7, nullptr, &value, &copy, &flag), MPI_SUCCESS);
  EXPECT_EQ(copy, &value);
  EXPECT_EQ(flag, 1);
  flag = 0;
  copy = nullptr;
  EXPECT_EQ(MPI_TYPE_DUP_FN(MPI_INT, 7, nullptr, &value, &copy, &flag), MPI_SUCCESS);
  EXPECT_EQ(copy, &value);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(MPI_COMM_NULL_COPY_FN, nullptr);
  EXPECT_EQ(MPI_WIN_NULL_DELETE_FN, nullptr);
}

} // namespace
