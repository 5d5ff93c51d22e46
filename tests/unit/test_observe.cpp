// What a run records about itself: the Chrome trace, the communication matrix, the report's
// timeline, and the record that mpisim-replay re-simulates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "op_log.hpp"
#include "replay.hpp"
#include "scratch_dir.hpp"
#include "sim_harness.hpp"

namespace {

using mpilite::SimTime;
using nlohmann::json;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // 1 GB/s

/// A fresh directory for one test's files.
std::string scratch_dir(const std::string& name) {
  return test::scratch_dir("observe", name);
}

SimTime ps(const json& microseconds) {
  return static_cast<SimTime>(std::llround(microseconds.get<double>() * 1e6));
}

/// Whether rank 2 of mixed_program polls (MPI_Test in a loop) instead of waiting: a polling
/// loop's number of iterations depends on simulated time, so its record replays exactly only on
/// the machine it was recorded on.
bool g_poll = true;

/// Rank 0 computes 2 us then sends 1000 bytes to rank 1; rank 1 answers with 8 bytes; then all
/// ranks reduce, and rank 2 polls (or waits) for a wildcard receive of a non-blocking send.
int mixed_program(int, char**) {
  MPI_Init(nullptr, nullptr);
  const int me = test::world_rank();
  std::vector<char> buf(1000);
  if (me == 0) {
    MPISIM_Compute(2e-6);
    MPI_Send(buf.data(), 1000, MPI_CHAR, 1, 5, MPI_COMM_WORLD);
    MPI_Recv(buf.data(), 8, MPI_CHAR, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (me == 1) {
    MPI_Recv(buf.data(), 1000, MPI_CHAR, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPISIM_Compute(1e-6);
    MPI_Send(buf.data(), 8, MPI_CHAR, 0, 6, MPI_COMM_WORLD);
  }
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half);
  double x = me, sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Comm_free(&half);
  MPI_Request q;
  if (me == 2) {
    int v;
    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &q);
    int flag = 0;
    while (g_poll && !flag) {
      MPISIM_Compute(0.5e-6);
      MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    }
    if (!flag) MPI_Wait(&q, MPI_STATUS_IGNORE);
  } else if (me == 3) {
    int v = 3;
    MPISIM_Compute(3e-6);
    MPI_Isend(&v, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

std::vector<SimTime> clocks(const mpisim::RunSummary& s) {
  std::vector<SimTime> c;
  for (const auto& r : s.ranks)
    c.push_back(r.clock);
  return c;
}

TEST(Observe, TraceIsWellFormedPairedAndWithoutOverlaps) {
  const std::string dir = scratch_dir("trace");
  auto c = test::config(4);
  c.trace_path = dir + "/trace.json";
  const auto run = test::simulate(c, mixed_program);
  ASSERT_EQ(run.reason, mpilite::RunEnd::Finished);
  std::ifstream in(c.trace_path);
  const json trace = json::parse(in);
  ASSERT_TRUE(trace.contains("traceEvents"));
  std::map<std::pair<int, int>, json> sends, receives;
  std::map<int, std::vector<std::pair<SimTime, SimTime>>> intervals;
  std::set<int> named_tracks;
  std::uint64_t total_sent = 0;
  for (const auto& r : run.ranks)
    total_sent += r.stats.msgs_sent;
  for (const json& e : trace["traceEvents"]) {
    const std::string ph = e.at("ph");
    ASSERT_TRUE(ph == "X" || ph == "s" || ph == "f" || ph == "M") << e.dump();
    if (ph == "M") {
      if (e["name"] == "thread_name") named_tracks.insert(e["tid"].get<int>());
      continue;
    }
    const int tid = e.at("tid");
    ASSERT_TRUE(tid >= 0 && tid < 4) << e.dump();
    if (ph == "X") {
      const SimTime start = ps(e.at("ts")), dur = ps(e.at("dur"));
      ASSERT_GE(dur, 0) << e.dump();
      intervals[tid].push_back({start, start + dur});
      continue;
    }
    const auto key = std::make_pair(e["args"]["src"].get<int>(), e["args"]["seq"].get<int>());
    auto& side = ph == "s" ? sends : receives;
    EXPECT_TRUE(side.emplace(key, e).second) << "duplicate " << e.dump();
    EXPECT_EQ(tid, ph == "s" ? e["args"]["src"].get<int>() : e["args"]["dst"].get<int>());
  }
  EXPECT_EQ(named_tracks, (std::set<int>{0, 1, 2, 3}));
  // Every message sent was received, and the pair shares the flow id.
  EXPECT_EQ(sends.size(), total_sent);
  ASSERT_EQ(sends.size(), receives.size());
  for (const auto& [key, s] : sends) {
    ASSERT_TRUE(receives.count(key)) << s.dump();
    EXPECT_EQ(s["id"], receives[key]["id"]);
    EXPECT_LE(ps(s["ts"]), ps(receives[key]["ts"]));
  }
  for (auto& [rank, v] : intervals) {
    std::sort(v.begin(), v.end());
    for (std::size_t i = 1; i < v.size(); ++i)
      EXPECT_LE(v[i - 1].second, v[i].first) << "rank " << rank << " interval " << i;
  }
  // Rank 0: 2 us of compute, then MPI_Send of 1000 bytes to rank 1 (tag 5), which lasts until
  // its bytes have left rank 0's NIC, and whose message rank 1 matches when it arrives: after
  // the send overhead, latency and 1000 bytes at 1 GB/s.
  const json* send_call = nullptr;
  const json* compute = nullptr;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["tid"] == 0) {
      if (!send_call && e["name"] == "MPI_Send") send_call = &e;
      if (!compute && e["name"] == "compute") compute = &e;
    }
  ASSERT_TRUE(send_call && compute);
  EXPECT_EQ(ps((*compute)["ts"]), 0);
  EXPECT_EQ(ps((*compute)["dur"]), 2'000'000);
  EXPECT_EQ(ps((*send_call)["ts"]), 2'000'000);
  EXPECT_EQ(ps((*send_call)["dur"]), kSendOverhead + 1000 * kPsPerByte);
  EXPECT_EQ((*send_call)["args"]["peer"], 1);
  EXPECT_EQ((*send_call)["args"]["tag"], 5);
  EXPECT_EQ((*send_call)["args"]["bytes_sent"], 1000);
  const json& first = receives.at({0, 0});
  EXPECT_EQ(first["args"]["bytes"], 1000);
  EXPECT_EQ(ps(first["ts"]), 2'000'000 + kSendOverhead + kLatency + 1000 * kPsPerByte);
  std::filesystem::remove_all(dir);
}

TEST(Observe, CommMatrixCountsEveryMessageOnce) {
  const std::string dir = scratch_dir("matrix");
  auto c = test::config(3);
  c.comm_matrix_path = dir + "/matrix.csv";
  // Rank 0 sends two messages of 10 bytes to rank 1; rank 2 sends 7 bytes to rank 0.
  test::simulate(c, [](int, char**) {
    MPI_Init(nullptr, nullptr);
    char buf[10] = {};
    switch (test::world_rank()) {
    case 0:
      MPI_Send(buf, 10, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Send(buf, 10, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 7, MPI_CHAR, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    case 1:
      MPI_Recv(buf, 10, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(buf, 10, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    case 2:
      MPI_Send(buf, 7, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      break;
    }
    MPI_Finalize();
    return 0;
  });
  std::ifstream in(c.comm_matrix_path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  // The last line, the last rank with itself, gives the rank count (MPISIM_MAP=auto checks it).
  EXPECT_EQ(lines,
            (std::vector<std::string>{"src,dst,messages,bytes", "0,1,2,20", "2,0,1,7", "2,2,0,0"}));
  std::filesystem::remove_all(dir);
}

TEST(Observe, CommMatrixRowsAreWhatEachRankSent) {
  const std::string dir = scratch_dir("matrix_rows");
  auto c = test::config(4);
  c.comm_matrix_path = dir + "/matrix.csv";
  const auto run = test::simulate(c, mixed_program);
  std::ifstream in(c.comm_matrix_path);
  std::string line;
  std::getline(in, line);
  std::vector<std::uint64_t> sent(4), bytes(4);
  while (std::getline(in, line)) {
    int s, d;
    unsigned long long m, b;
    ASSERT_EQ(std::sscanf(line.c_str(), "%d,%d,%llu,%llu", &s, &d, &m, &b), 4) << line;
    sent[s] += m;
    bytes[s] += b;
  }
  for (const auto& r : run.ranks) {
    EXPECT_EQ(sent[r.rank], r.stats.msgs_sent) << "rank " << r.rank;
    EXPECT_EQ(bytes[r.rank], r.stats.bytes_sent) << "rank " << r.rank;
  }
  std::filesystem::remove_all(dir);
}

/// Rank 0 computes 10 us; rank 1 does nothing.
int compute_on_rank_0(int, char**) {
  MPI_Init(nullptr, nullptr);
  if (test::world_rank() == 0) MPISIM_Compute(10e-6);
  MPI_Finalize();
  return 0;
}

TEST(Observe, TimelineShowsComputeAndFinishedRanks) {
  // Rank 1's row is blank after time 0.
  const auto run = test::simulate(test::config(2), compute_on_rank_0);
  ASSERT_EQ(run.timeline.size(), 3u);
  const std::string& r0 = run.timeline[1];
  const std::string& r1 = run.timeline[2];
  EXPECT_EQ(r0.substr(0, 10), "rank   0 |");
  const std::string cells0 = r0.substr(10, r0.size() - 11);
  const std::string cells1 = r1.substr(10, r1.size() - 11);
  EXPECT_EQ(cells0, std::string(cells0.size(), '#'));
  EXPECT_EQ(cells1, std::string(cells1.size(), ' '));
}

TEST(Observe, NoTimelineWhenTheRunShowsNoReport) {
  auto c = test::config(2);
  c.timeline = false;
  const auto run = test::simulate(c, compute_on_rank_0);
  EXPECT_EQ(run.reason, mpilite::RunEnd::Finished);
  EXPECT_TRUE(run.timeline.empty());
}

TEST(Observe, ReplayPredictsExactlyWhatTheLiveRunPredicted) {
  const std::string dir = scratch_dir("replay");
  auto c = test::config(4);
  c.record_path = dir;
  const auto live = test::simulate(c, mixed_program);
  ASSERT_EQ(live.reason, mpilite::RunEnd::Finished);
  const auto meta = mpisim::read_record_meta(dir);
  EXPECT_EQ(meta.ranks, 4);
  EXPECT_EQ(meta.outcome, "finished");

  auto r = test::config(4);
  const auto checks = std::make_shared<mpisim::ReplayChecks>();
  const auto replayed = test::simulate(r, mpisim::replay_main(dir, 1.0, 0, checks));
  ASSERT_EQ(replayed.reason, mpilite::RunEnd::Finished) << replayed.message;
  // Rank 2's polls (each MPI_Test's flag, and what the wildcard receive matched) are as recorded.
  EXPECT_GT(checks->checked, 1u);
  EXPECT_EQ(checks->differing, 0u) << checks->first;
  EXPECT_EQ(checks->unchecked, 0u);
  EXPECT_EQ(clocks(replayed), clocks(live));
  EXPECT_EQ(replayed.predicted, live.predicted);
  for (std::size_t i = 0; i < live.ranks.size(); ++i) {
    EXPECT_EQ(replayed.ranks[i].stats.msgs_sent, live.ranks[i].stats.msgs_sent);
    EXPECT_EQ(replayed.ranks[i].stats.compute, live.ranks[i].stats.compute);
    EXPECT_EQ(replayed.ranks[i].stats.wait, live.ranks[i].stats.wait);
  }

  // On a machine with 5 us latency the replay of a program without polling differs, and equals
  // the live run there.
  const std::string dir2 = scratch_dir("replay_no_poll");
  auto c2 = test::config(4);
  c2.record_path = dir2;
  g_poll = false;
  const auto waiting = test::simulate(c2, mixed_program);
  auto slow = test::config(4);
  slow.machine.latency = 5'000'000;
  const auto slow_live = test::simulate(slow, mixed_program);
  g_poll = true;
  const auto slow_replay = test::simulate(slow, mpisim::replay_main(dir2, 1.0));
  EXPECT_NE(slow_replay.predicted, waiting.predicted);
  EXPECT_EQ(clocks(slow_replay), clocks(slow_live));
  std::filesystem::remove_all(dir2);
  std::filesystem::remove_all(dir);
}

/// Rank 0 hands rank 1 an 8-byte task and rank 2 a 20000-byte one, then answers whoever of them
/// reports back first (MPI_ANY_SOURCE) with a large reply: at 1 GB/s rank 1 (10 us of work) comes
/// first, at 100 GB/s rank 2 (1 us of work).
int first_come_program(int, char**) {
  MPI_Init(nullptr, nullptr);
  const int me = test::world_rank();
  std::vector<char> buf(20000);
  if (me == 0) {
    MPI_Send(buf.data(), 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    MPI_Send(buf.data(), 20000, MPI_CHAR, 2, 1, MPI_COMM_WORLD);
    for (int k = 0; k < 2; ++k) {
      MPI_Status st;
      MPI_Recv(buf.data(), 8, MPI_CHAR, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
      MPI_Send(buf.data(), k == 0 ? 20000 : 8, MPI_CHAR, st.MPI_SOURCE, 3, MPI_COMM_WORLD);
    }
  } else {
    MPI_Recv(buf.data(), 20000, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPISIM_Compute(me == 1 ? 10e-6 : 1e-6);
    MPI_Send(buf.data(), 8, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
    MPI_Recv(buf.data(), 20000, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}

/// Records `program` on `ranks` ranks of the test machine into `dir` (a fresh scratch one).
std::string record(const std::string& name, int ranks, int (*program)(int, char**)) {
  const std::string dir = scratch_dir(name);
  auto c = test::config(ranks);
  c.record_path = dir;
  EXPECT_EQ(test::simulate(c, program).reason, mpilite::RunEnd::Finished);
  return dir;
}

/// Replays `dir` with the settings `c`: what the replay found of the recorded outcomes.
std::shared_ptr<mpisim::ReplayChecks> replay_checks(const mpisim::Config& c,
                                                    const std::string& dir) {
  const auto checks = std::make_shared<mpisim::ReplayChecks>();
  const auto replayed = test::simulate(c, mpisim::replay_main(dir, 1.0, 0, checks));
  EXPECT_EQ(replayed.reason, mpilite::RunEnd::Finished) << replayed.message;
  return checks;
}

/// The test machine with a 100 GB/s network, where first_come_program's rank 2 comes first.
mpisim::Config fast_network() {
  auto fast = test::config(3);
  fast.machine.bandwidth = 100e9;
  return fast;
}

/// Rank 0 takes what ranks 1 and 2 send with every call whose outcome is recorded: a wildcard
/// MPI_Probe, MPI_Recv and MPI_Sendrecv, MPI_ANY_SOURCE receives completed by MPI_Testall,
/// MPI_Waitsome, MPI_Testany, MPI_Testsome and MPI_Waitall, an MPI_ANY_SOURCE MPI_Isendrecv
/// completed by MPI_Wait, and MPI_Iprobe polls.
int every_outcome_program(int, char**) {
  MPI_Init(nullptr, nullptr);
  const int me = test::world_rank();
  int v[2] = {me, me};
  MPI_Status st;
  if (me == 0) {
    MPI_Probe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
    for (int k = 0; k < 2; ++k)
      MPI_Recv(v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int tag = 2; tag <= 5; ++tag) {
      MPI_Request q[2];
      for (int k = 0; k < 2; ++k)
        MPI_Irecv(&v[k], 1, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &q[k]);
      int flag = 0, index, n, done[2];
      if (tag == 2)
        while (!flag) {
          MPISIM_Compute(0.5e-6);
          MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
        }
      if (tag == 3)
        for (int got = 0; got < 2; got += n)
          MPI_Waitsome(2, q, &n, done, MPI_STATUSES_IGNORE);
      if (tag == 4) {
        while (!flag) {
          MPISIM_Compute(0.5e-6);
          MPI_Testany(2, q, &index, &flag, &st);
        }
        for (n = 0; n == 0;)
          MPI_Testsome(2, q, &n, done, MPI_STATUSES_IGNORE);
      }
      if (tag == 5) MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    MPI_Sendrecv(&v[0], 1, MPI_INT, 1, 7, &v[1], 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD,
                 &st);
    MPI_Request q;
    MPI_Isendrecv(&v[0], 1, MPI_INT, 2, 10, &v[1], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
                  &q);
    MPI_Wait(&q, &st);
    for (int got = 0, flag = 0; got < 2; got += flag) {
      MPI_Iprobe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &flag, &st);
      if (flag) MPI_Recv(v, 1, MPI_INT, st.MPI_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPISIM_Compute(0.5e-6);
    }
  } else {
    for (int tag = 1; tag <= 5; ++tag) {
      MPISIM_Compute(me * 1e-6);
      MPI_Send(v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    }
    if (me == 1)
      MPI_Sendrecv(&v[0], 1, MPI_INT, 0, 6, &v[1], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);
    else
      MPI_Sendrecv(&v[0], 1, MPI_INT, 0, 9, &v[1], 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &st);
    MPISIM_Compute(me * 1e-6);
    MPI_Send(v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}

TEST(Observe, ReplayFindsEveryRecordedOutcomeOnTheRecordingMachine) {
  const std::string dir = scratch_dir("replay_every_outcome");
  auto c = test::config(3);
  c.record_path = dir;
  const auto live = test::simulate(c, every_outcome_program);
  ASSERT_EQ(live.reason, mpilite::RunEnd::Finished) << live.message;
  // Every call that has an outcome is followed by it in the record.
  std::ifstream in(dir + "/rank-0.ops");
  std::set<std::string> with_outcome;
  std::uint64_t outcomes = 0;
  std::string previous;
  for (std::string line; std::getline(in, line); previous = line)
    if (line.starts_with("outcome ")) {
      ++outcomes;
      with_outcome.insert(previous.substr(0, previous.find(' ')));
    }
  EXPECT_EQ(with_outcome,
            (std::set<std::string>{"probe", "recv", "testall", "waitsome", "testany", "testsome",
                                   "waitall", "sendrecv", "wait", "iprobe"}));

  const auto checks = std::make_shared<mpisim::ReplayChecks>();
  const auto replayed = test::simulate(test::config(3), mpisim::replay_main(dir, 1.0, 0, checks));
  ASSERT_EQ(replayed.reason, mpilite::RunEnd::Finished) << replayed.message;
  EXPECT_EQ(clocks(replayed), clocks(live));
  EXPECT_EQ(checks->checked, outcomes);
  EXPECT_EQ(checks->differing, 0u) << checks->first;
  EXPECT_EQ(checks->unchecked, 0u);
  std::filesystem::remove_all(dir);
}

TEST(Observe, ReplayTellsTheFirstWildcardMatchThatDiffersFromTheRecord) {
  const std::string dir = record("replay_first_come", 3, first_come_program);
  const auto checks = replay_checks(fast_network(), dir);
  EXPECT_EQ(checks->checked, 2u);
  EXPECT_EQ(checks->differing, 2u);
  EXPECT_EQ(checks->first_rank, 0);
  EXPECT_EQ(checks->first, "rank 0's 1st MPI_Recv from MPI_ANY_SOURCE (rank-0.ops:4) matched "
                           "rank 2 in the replay, rank 1 in the recorded run");
  const auto warnings = mpisim::replay_warnings(*checks);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("warning: 2 of the replay's 2 wildcard matches"), std::string::npos)
      << warnings[0];
  std::filesystem::remove_all(dir);
}

TEST(Observe, ReplayTellsATestThatFoundOtherwiseThanRecorded) {
  // Rank 2 polls MPI_Test for rank 3's message, sent after 3 us: with 5 us more latency the
  // recorded last poll finds nothing.
  const std::string dir = record("replay_poll", 4, mixed_program);
  auto slow = test::config(4);
  slow.machine.latency = 6'000'000;
  const auto checks = replay_checks(slow, dir);
  EXPECT_EQ(checks->differing, 1u);
  EXPECT_EQ(checks->first_rank, 2);
  EXPECT_NE(checks->first.find("MPI_Test (rank-2.ops:"), std::string::npos) << checks->first;
  EXPECT_NE(checks->first.find("did not complete in the replay, completed in the recorded run"),
            std::string::npos)
      << checks->first;
  std::filesystem::remove_all(dir);
}

TEST(Observe, ReplayOfARecordWithoutOutcomesSaysTheyWereNotChecked) {
  const std::string dir = record("replay_format1", 3, first_come_program);
  // What the first format held: no outcome lines, version 1.
  for (int rank = 0; rank < 3; ++rank) {
    const std::string path = dir + "/rank-" + std::to_string(rank) + ".ops";
    std::ifstream in(path);
    std::string kept;
    for (std::string line; std::getline(in, line);)
      if (!line.starts_with("outcome ")) kept += line + "\n";
    std::ofstream(path) << kept;
  }
  std::ifstream meta_in(dir + "/meta.json");
  json meta = json::parse(meta_in);
  meta["mpisim_record"] = 1;
  std::ofstream(dir + "/meta.json") << meta.dump();
  ASSERT_EQ(mpisim::read_record_meta(dir).ranks, 3);
  const auto checks = replay_checks(fast_network(), dir);
  EXPECT_EQ(checks->checked, 0u);
  EXPECT_EQ(checks->unchecked, 2u);
  const auto warnings = mpisim::replay_warnings(*checks);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(warnings[0].starts_with("note: the record holds no outcome for 2")) << warnings[0];
  std::filesystem::remove_all(dir);
}

/// What each rank's collectives that must fail their argument checks returned.
std::vector<int> g_failed_codes[4];

/// Each form of a broadcast, and a gatherv, with an invalid root, and a neighbourhood collective
/// on a communicator without a topology: each fails its argument checks and returns. Then a
/// broadcast that passes them.
int failed_checks_program(int, char**) {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int me = test::world_rank();
  int v[4] = {}, w[4] = {}, counts[4] = {1, 1, 1, 1}, displs[4] = {0, 1, 2, 3};
  MPI_Request q;
  std::vector<int>& codes = g_failed_codes[me];
  codes.push_back(MPI_Bcast(v, 1, MPI_INT, 4, MPI_COMM_WORLD));
  codes.push_back(MPI_Gatherv(v, 1, MPI_INT, w, counts, displs, MPI_INT, 4, MPI_COMM_WORLD));
  codes.push_back(MPI_Ibcast(v, 1, MPI_INT, 4, MPI_COMM_WORLD, &q));
  codes.push_back(MPI_Bcast_init(v, 1, MPI_INT, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &q));
  codes.push_back(MPI_Neighbor_allgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_WORLD));
  MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

TEST(Observe, ACollectiveThatFailsItsChecksIsNotRecorded) {
  const std::string dir = record("failed_checks", 4, failed_checks_program);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(g_failed_codes[r], (std::vector<int>{MPI_ERR_ROOT, MPI_ERR_ROOT, MPI_ERR_ROOT,
                                                   MPI_ERR_ROOT, MPI_ERR_TOPOLOGY}))
        << "rank " << r;
    std::ifstream in(dir + "/rank-" + std::to_string(r) + ".ops");
    std::vector<std::string> ops;
    for (std::string line; std::getline(in, line);)
      if (!line.starts_with("compute ")) ops.push_back(line.substr(0, line.find(' ')));
    EXPECT_EQ(ops, (std::vector<std::string>{"init", "bcast", "finalize"})) << "rank " << r;
  }
  // Nothing is left for replay that the run did not do.
  const auto replayed = test::simulate(test::config(4), mpisim::replay_main(dir, 1.0));
  EXPECT_EQ(replayed.reason, mpilite::RunEnd::Finished) << replayed.message;
  std::filesystem::remove_all(dir);
}

TEST(Observe, RecordingAnUnrecordedCallIsAnErrorNamingIt) {
  const std::string dir = scratch_dir("unrecorded");
  auto c = test::config(2);
  c.record_path = dir;
  const auto run = test::simulate(c, [](int, char**) {
    MPI_Init(nullptr, nullptr);
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(run.reason, mpilite::RunEnd::FatalError);
  EXPECT_NE(run.message.find("MPI_Win_create_dynamic is not recorded by MPISIM_RECORD"),
            std::string::npos)
      << run.message;
  // What to do instead: a what-if study of such a program runs its variants live.
  EXPECT_NE(run.message.find("mpisim-study whatif"), std::string::npos) << run.message;
  std::filesystem::remove_all(dir);
}

TEST(Observe, OnlyDynamicWindowsAreRefused) {
  // Format 4's calls are recorded (tests/e2e/programs/record_coverage.c replays each).
  for (const char* call :
       {"MPI_Bcast_init", "MPI_Alltoallw_init", "MPI_Neighbor_alltoallw_init", "MPI_Isendrecv",
        "MPI_Isendrecv_replace", "MPI_Comm_idup", "MPI_Comm_idup_with_info",
        "MPI_Comm_dup_with_info", "MPI_Psend_init", "MPI_Precv_init", "MPI_Pready",
        "MPI_Pready_range", "MPI_Pready_list", "MPI_Parrived", "MPI_Intercomm_create",
        "MPI_Intercomm_merge", "MPI_Comm_remote_size",
        // Format 6's (tests/CMakeLists.txt, e2e.replay_equals_live.rma_*)
        "MPI_Win_create", "MPI_Win_allocate", "MPI_Put", "MPI_Get", "MPI_Fetch_and_op",
        "MPI_Rget_accumulate", "MPI_Win_lock", "MPI_Win_flush_local_all", "MPI_Win_test",
        "MPI_Win_get_attr",
        // Format 7's (tests/e2e/conformance.cmake, e2e.replay_equals_live.file_*)
        "MPI_File_open", "MPI_File_write_at_all", "MPI_File_iread_shared",
        "MPI_File_write_ordered_end", "MPI_File_seek", "MPI_File_get_size",
        // and generalized requests and sessions (e2e.replay_equals_live.grequest, .sessions)
        "MPI_Grequest_start", "MPI_Grequest_complete", "MPI_Session_init",
        "MPI_Comm_create_from_group", "MPI_Intercomm_create_from_groups",
        "MPI_Group_from_session_pset", "MPI_Comm_call_errhandler", "MPI_Session_call_errhandler"})
    EXPECT_TRUE(mpilite::OpLog::covers(call)) << call;
  for (const char* call :
       {"MPI_Win_create_dynamic", "MPI_Win_attach", "MPI_Put_c", "MPI_File_write_c"})
    EXPECT_FALSE(mpilite::OpLog::covers(call)) << call;
}

} // namespace
