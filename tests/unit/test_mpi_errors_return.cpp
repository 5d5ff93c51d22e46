// MPI_ERRORS_RETURN: every kind of bad argument of the point-to-point and environment calls
// returns its error class (and the run goes on); MPI_ERRORS_ARE_FATAL names call and reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim_harness.hpp"

namespace {

constexpr MPI_Comm kBadComm = static_cast<MPI_Comm>(0x12345);
constexpr MPI_Datatype kBadType = static_cast<MPI_Datatype>(0x4c0000ff);
constexpr MPI_Request kBadRequest = static_cast<MPI_Request>(0x2cabcdef);

struct Case {
  std::string what;
  int code;
  int expected;
};

/// Runs every bad call on the calling rank; `p` is the size of MPI_COMM_WORLD.
std::vector<Case> bad_calls(int p) {
  const int me = test::world_rank();
  int v = 0, flag = 0, index = 0, outcount = 0, idx[1];
  MPI_Status st;
  MPI_Request q = MPI_REQUEST_NULL;
  MPI_Message msg = MPI_MESSAGE_NULL;
  std::vector<Case> c;
  auto add = [&](std::string what, int code, int expected) {
    c.push_back({std::move(what), code, expected});
  };
  // Persistent requests.
  add("Send_init dest=size", MPI_Send_init(&v, 1, MPI_INT, p, 0, MPI_COMM_WORLD, &q), MPI_ERR_RANK);
  add("Bsend_init dest=-5", MPI_Bsend_init(&v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &q),
      MPI_ERR_RANK);
  add("Ssend_init tag=-1", MPI_Ssend_init(&v, 1, MPI_INT, me, -1, MPI_COMM_WORLD, &q), MPI_ERR_TAG);
  add("Rsend_init count=-1", MPI_Rsend_init(&v, -1, MPI_INT, me, 0, MPI_COMM_WORLD, &q),
      MPI_ERR_COUNT);
  add("Send_init bad type", MPI_Send_init(&v, 1, kBadType, me, 0, MPI_COMM_WORLD, &q),
      MPI_ERR_TYPE);
  add("Send_init bad comm", MPI_Send_init(&v, 1, MPI_INT, me, 0, kBadComm, &q), MPI_ERR_COMM);
  add("Send_init null buffer", MPI_Send_init(nullptr, 3, MPI_INT, me, 0, MPI_COMM_WORLD, &q),
      MPI_ERR_BUFFER);
  MPI_Datatype uncommitted;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  add("Send_init uncommitted type", MPI_Send_init(&v, 1, uncommitted, me, 0, MPI_COMM_WORLD, &q),
      MPI_ERR_TYPE);
  MPI_Type_free(&uncommitted);
  add("Recv_init source=size", MPI_Recv_init(&v, 1, MPI_INT, p, 0, MPI_COMM_WORLD, &q),
      MPI_ERR_RANK);
  add("Recv_init tag=ANY-1", MPI_Recv_init(&v, 1, MPI_INT, me, MPI_ANY_TAG - 1, MPI_COMM_WORLD, &q),
      MPI_ERR_TAG);
  MPI_Request bad = kBadRequest;
  add("Start bad request", MPI_Start(&bad), MPI_ERR_REQUEST);
  add("Startall count=-1", MPI_Startall(-1, &bad), MPI_ERR_COUNT);
  MPI_Request plain;
  MPI_Isend(&v, 1, MPI_INT, me, 9, MPI_COMM_WORLD, &plain);
  add("Start non-persistent", MPI_Start(&plain), MPI_ERR_REQUEST);
  MPI_Recv(&v, 1, MPI_INT, me, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&plain, MPI_STATUS_IGNORE);
  MPI_Request inactive;
  MPI_Recv_init(&v, 1, MPI_INT, me, 0, MPI_COMM_WORLD, &inactive);
  add("Cancel inactive persistent", MPI_Cancel(&inactive), MPI_ERR_REQUEST);
  MPI_Request_free(&inactive);
  // Probes.
  add("Probe source=size", MPI_Probe(p, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  add("Probe tag=-7", MPI_Probe(me, -7, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
  add("Probe bad comm", MPI_Probe(me, 0, kBadComm, &st), MPI_ERR_COMM);
  add("Iprobe source=-9", MPI_Iprobe(-9, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
  add("Iprobe null flag", MPI_Iprobe(me, 0, MPI_COMM_WORLD, nullptr, &st), MPI_ERR_ARG);
  add("Mprobe tag=-2", MPI_Mprobe(me, -2, MPI_COMM_WORLD, &msg, &st), MPI_ERR_TAG);
  add("Improbe bad comm", MPI_Improbe(me, 0, kBadComm, &flag, &msg, &st), MPI_ERR_COMM);
  MPI_Message bad_msg = static_cast<MPI_Message>(0x6d00abcd);
  add("Mrecv bad message", MPI_Mrecv(&v, 1, MPI_INT, &bad_msg, &st), MPI_ERR_REQUEST);
  MPI_Message null_msg = MPI_MESSAGE_NULL;
  add("Imrecv MPI_MESSAGE_NULL", MPI_Imrecv(&v, 1, MPI_INT, &null_msg, &q), MPI_ERR_REQUEST);
  MPI_Send(&v, 1, MPI_INT, me, 5, MPI_COMM_WORLD);
  MPI_Mprobe(me, 5, MPI_COMM_WORLD, &msg, &st);
  add("Mrecv count=-1", MPI_Mrecv(&v, -1, MPI_INT, &msg, &st), MPI_ERR_COUNT);
  add("Mrecv bad type", MPI_Mrecv(&v, 1, kBadType, &msg, &st), MPI_ERR_TYPE);
  add("Mrecv after errors", MPI_Mrecv(&v, 1, MPI_INT, &msg, &st), MPI_SUCCESS);
  add("Mrecv used message", MPI_Mrecv(&v, 1, MPI_INT, &msg, &st), MPI_ERR_REQUEST);
  // Completion.
  bad = kBadRequest;
  add("Wait bad request", MPI_Wait(&bad, &st), MPI_ERR_REQUEST);
  add("Waitall bad request", MPI_Waitall(1, &bad, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
  add("Waitany count=-1", MPI_Waitany(-1, &bad, &index, &st), MPI_ERR_COUNT);
  add("Waitany bad request", MPI_Waitany(1, &bad, &index, &st), MPI_ERR_REQUEST);
  add("Waitsome bad request", MPI_Waitsome(1, &bad, &outcount, idx, MPI_STATUSES_IGNORE),
      MPI_ERR_REQUEST);
  add("Test bad request", MPI_Test(&bad, &flag, &st), MPI_ERR_REQUEST);
  add("Testall bad request", MPI_Testall(1, &bad, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
  add("Testany bad request", MPI_Testany(1, &bad, &index, &flag, &st), MPI_ERR_REQUEST);
  add("Testsome bad request", MPI_Testsome(1, &bad, &outcount, idx, MPI_STATUSES_IGNORE),
      MPI_ERR_REQUEST);
  add("Request_free bad request", MPI_Request_free(&bad), MPI_ERR_REQUEST);
  add("Cancel bad request", MPI_Cancel(&bad), MPI_ERR_REQUEST);
  add("Request_get_status bad request", MPI_Request_get_status(bad, &flag, &st), MPI_ERR_REQUEST);
  add("Test_cancelled null status", MPI_Test_cancelled(nullptr, &flag), MPI_ERR_ARG);
  add("Isend null request", MPI_Isend(&v, 1, MPI_INT, me, 0, MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
  // Other point-to-point calls.
  add("Sendrecv_replace dest=size",
      MPI_Sendrecv_replace(&v, 1, MPI_INT, p, 0, me, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  add("Sendrecv_replace source=size",
      MPI_Sendrecv_replace(&v, 1, MPI_INT, me, 0, p, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  add("Sendrecv_replace count=-1",
      MPI_Sendrecv_replace(&v, -1, MPI_INT, me, 0, me, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT);
  add("Sendrecv_replace bad type",
      MPI_Sendrecv_replace(&v, 1, kBadType, me, 0, me, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
  add("Get_count bad type", MPI_Get_count(&st, kBadType, &v), MPI_ERR_TYPE);
  add("Buffer_attach size=-1", MPI_Buffer_attach(&v, -1), MPI_ERR_ARG);
  char space[MPI_BSEND_OVERHEAD + 4];
  MPI_Buffer_attach(space, sizeof space);
  add("Buffer_attach twice", MPI_Buffer_attach(space, sizeof space), MPI_ERR_BUFFER);
  int two[2] = {0, 0};
  add("Bsend too large", MPI_Bsend(two, 2, MPI_INT, me, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  void* b;
  int size;
  MPI_Buffer_detach(&b, &size);
  add("Bcast root=size", MPI_Bcast(&v, 1, MPI_INT, p, MPI_COMM_WORLD), MPI_ERR_ROOT);
  // Environment.
  int cls;
  char text[MPI_MAX_ERROR_STRING];
  add("Error_class bad code", MPI_Error_class(-1, &cls), MPI_ERR_ARG);
  add("Error_string bad code", MPI_Error_string(1000, text, &v), MPI_ERR_ARG);
  void* mem = nullptr;
  add("Alloc_mem size=-1", MPI_Alloc_mem(-1, MPI_INFO_NULL, &mem), MPI_ERR_ARG);
  add("Query_thread null", MPI_Query_thread(nullptr), MPI_ERR_ARG);
  add("Is_thread_main null", MPI_Is_thread_main(nullptr), MPI_ERR_ARG);
  add("Errhandler_set bad handler",
      MPI_Errhandler_set(MPI_COMM_WORLD, static_cast<MPI_Errhandler>(0x777)), MPI_ERR_ARG);
  add("Errhandler_get bad comm", MPI_Errhandler_get(kBadComm, nullptr), MPI_ERR_COMM);
  return c;
}

class ErrorsReturn : public ::testing::TestWithParam<int> {};

TEST_P(ErrorsReturn, EveryBadArgumentGivesItsClass) {
  const int p = GetParam();
  std::vector<std::vector<Case>> results(static_cast<std::size_t>(p));
  auto r = test::simulate(test::config(p), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    results[static_cast<std::size_t>(test::world_rank())] = bad_calls(p);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  for (int rank = 0; rank < p; ++rank)
    for (const Case& c : results[static_cast<std::size_t>(rank)])
      EXPECT_EQ(c.code, c.expected) << "rank " << rank << ": " << c.what;
}

INSTANTIATE_TEST_SUITE_P(Ranks, ErrorsReturn, ::testing::Values(1, 2, 3, 7, 16, 33));

TEST(ErrorsReturn, TheCommunicatorsHandlerDecides) {
  // MPI_COMM_SELF returns errors while MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL.
  int code = -1;
  auto r = test::simulate(test::config(2), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int v = 0;
    MPI_Request q;
    code = MPI_Send_init(&v, 1, MPI_INT, 0, -1, MPI_COMM_SELF, &q);
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
  EXPECT_EQ(code, MPI_ERR_TAG);
}

TEST(ErrorsReturn, FatalByDefaultNamingCallAndReason) {
  auto r = test::simulate(test::config(2), [](int, char**) {
    MPI_Init(nullptr, nullptr);
    if (test::world_rank() == 1) {
      int v = 0;
      MPI_Request q;
      MPI_Isend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
      MPI_Start(&q);
    }
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(r.message.find("rank 1: MPI_Start: MPI_ERR_REQUEST: request 0x"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("is not a persistent request"), std::string::npos) << r.message;
}

} // namespace
