// The critical path (MPISIM_CRITICAL_PATH): its parts equal the analytic times of small programs
// on a machine of round-number costs, it follows the chain across ranks, and its parts sum to
// the predicted time under every network model.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "critical_path_report.hpp"
#include "report.hpp"
#include "sim_harness.hpp"

namespace {

using mpilite::PathPart;
using mpisim::SimTime;

constexpr SimTime kSendOverhead = 100'000, kRecvOverhead = 200'000, kLatency = 1'000'000;
constexpr SimTime kPsPerByte = 1000; // 1 GB/s

mpisim::Config with_path(int ranks, const char* network = "latency") {
  mpisim::Config c = test::config(ranks);
  c.machine.network = network;
  c.critical_path = true;
  return c;
}

mpisim::RunSummary run(const mpisim::Config& c, const std::function<void(int)>& body) {
  auto r = test::simulate(c, [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    body(test::world_rank());
    MPI_Finalize();
    return 0;
  });
  EXPECT_EQ(r.reason, mpilite::RunEnd::Finished);
  return r;
}

/// The path's parts sum to its total, which is the predicted time.
void expect_exact(const mpisim::RunSummary& r) {
  ASSERT_TRUE(r.critical_path.has_value());
  const mpilite::CritPath& p = r.critical_path->path;
  SimTime sum = 0;
  for (std::size_t i = 0; i < mpilite::kPathParts; ++i)
    sum += p.part(static_cast<PathPart>(i));
  EXPECT_EQ(sum, p.total());
  EXPECT_EQ(p.total(), r.predicted);
  EXPECT_GT(r.predicted, 0);
}

TEST(CriticalPath, ATablesIndexKeepsTheOrderOfAPlainScan) {
  // The rule the index must keep, written as a scan: a known key grows; a new one is appended
  // while there is room, then replaces the first of the smallest entries if it brings more,
  // and what is given up is dropped. Random contributions over more keys than the table holds
  // (so that entries are replaced, and the index's runs broken and mended), text of equal names
  // at two addresses.
  constexpr std::size_t kN = 16;
  struct Scan {
    std::vector<mpilite::PathEntry> e;
    SimTime dropped = 0;
    void add(const mpilite::PathEntry& c) {
      for (auto& x : e)
        if (x.rank == c.rank && x.part == c.part && std::string(x.call) == c.call) {
          x.ps += c.ps;
          return;
        }
      if (e.size() < kN) {
        e.push_back(c);
        return;
      }
      std::size_t m = 0;
      for (std::size_t i = 1; i < e.size(); ++i)
        if (e[i].ps < e[m].ps) m = i;
      if (e[m].ps < c.ps) {
        dropped += e[m].ps;
        e[m] = c;
      } else {
        dropped += c.ps;
      }
    }
  };
  static const char send[] = "MPI_Send";
  static const std::string send_elsewhere = "MPI_Send";
  const char* calls[] = {send, send_elsewhere.c_str(), "MPI_Recv", "MPI_Allreduce", "MPI_Wait"};
  std::mt19937 gen(7);
  mpilite::PathTable<kN> table;
  Scan scan;
  for (int i = 0; i < 200'000; ++i) {
    mpilite::PathEntry c;
    c.call = calls[gen() % 5];
    c.call_id = mpilite::call_id(c.call);
    c.rank = static_cast<int>(gen() % 9);
    c.part = static_cast<PathPart>(gen() % mpilite::kPathParts);
    c.ps = 1 + static_cast<SimTime>(gen() % 1000);
    table.add(c);
    scan.add(c);
    ASSERT_EQ(table.entries().size(), scan.e.size());
    ASSERT_EQ(table.dropped(), scan.dropped) << "after " << i;
  }
  for (std::size_t i = 0; i < kN; ++i) {
    EXPECT_EQ(table.entries()[i].ps, scan.e[i].ps);
    EXPECT_EQ(table.entries()[i].rank, scan.e[i].rank);
    EXPECT_EQ(std::string(table.entries()[i].call), scan.e[i].call);
  }
}

TEST(CriticalPath, TheIdealNetworksPicosecondIsLatency) {
  // On the ideal network only a leg's 1 ps latency takes time: 2 x 5 legs of the ping-pong,
  // then rank 0's 7 us of compute at the start.
  constexpr int kRounds = 5;
  const auto r = run(with_path(2, "ideal"), [](int me) {
    char buf[8] = {};
    if (me == 0) MPISIM_Compute(7e-6);
    for (int i = 0; i < kRounds; ++i) {
      if (me == 0) {
        MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
  });
  expect_exact(r);
  const mpilite::CritPath& p = r.critical_path->path;
  EXPECT_EQ(p.part(PathPart::Compute), 7'000'000);
  EXPECT_EQ(p.part(PathPart::Latency), 2 * kRounds);
  EXPECT_EQ(p.part(PathPart::Contention), 0);
  EXPECT_EQ(r.predicted, 7'000'000 + 2 * kRounds);
}

TEST(CriticalPath, PingPongIsItsAnalyticParts) {
  constexpr int kRounds = 5;
  constexpr SimTime kBytes = 1500, kCompute = 7'000'000;
  const auto r = run(with_path(2), [](int me) {
    std::vector<char> buf(kBytes);
    if (me == 0) MPISIM_Compute(7e-6);
    for (int i = 0; i < kRounds; ++i) {
      if (me == 0) {
        MPI_Send(buf.data(), kBytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), kBytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf.data(), kBytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), kBytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
  });
  expect_exact(r);
  const mpilite::CritPath& p = r.critical_path->path;
  constexpr SimTime legs = 2 * kRounds;
  EXPECT_EQ(p.part(PathPart::Compute), kCompute);
  EXPECT_EQ(p.part(PathPart::SendOverhead), legs * kSendOverhead);
  EXPECT_EQ(p.part(PathPart::RecvOverhead), legs * kRecvOverhead);
  EXPECT_EQ(p.part(PathPart::Latency), legs * kLatency);
  EXPECT_EQ(p.part(PathPart::Transfer), legs * kBytes * kPsPerByte);
  EXPECT_EQ(p.part(PathPart::Contention), 0);
  EXPECT_EQ(p.part(PathPart::Wait), 0);
  EXPECT_EQ(r.critical_path->rank, 0);
  // Each rank's transfers (half of them each, named after MPI_Send), then the compute.
  const nlohmann::json j = mpisim::critical_path_json(r.critical_path);
  EXPECT_EQ(j["total_ps"], r.predicted);
  for (int i : {0, 1}) {
    EXPECT_EQ(j["top"][i]["rank"], i);
    EXPECT_EQ(j["top"][i]["part"], "transfer");
    EXPECT_EQ(j["top"][i]["call"], "MPI_Send");
    EXPECT_EQ(j["top"][i]["ps"], kRounds * kBytes * kPsPerByte);
  }
  EXPECT_EQ(j["top"][2]["part"], "compute");
  EXPECT_EQ(j["top"][2]["ps"], kCompute);
  EXPECT_EQ(j["ranks"].size(), 2u);
  EXPECT_EQ(j["calls"][0]["call"], "MPI_Send");
  EXPECT_EQ(j["calls"][0]["part"], "transfer");
  EXPECT_EQ(j["calls"][0]["ps"], 2 * kRounds * kBytes * kPsPerByte);
  EXPECT_EQ(j["untracked_ps"]["top"], 0);
}

TEST(CriticalPath, FollowsTheChainAcrossRanks) {
  // Rank 0 computes longest and sends to 1, which sends to 2: the path ends on rank 2 but its
  // compute is rank 0's, not rank 2's own (shorter) compute.
  const auto r = run(with_path(3), [](int me) {
    char x = 0;
    const double compute[] = {50e-6, 10e-6, 30e-6};
    MPISIM_Compute(compute[me]);
    if (me > 0) MPI_Recv(&x, 1, MPI_CHAR, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me < 2) MPI_Send(&x, 1, MPI_CHAR, me + 1, 0, MPI_COMM_WORLD);
  });
  expect_exact(r);
  const mpilite::CritPath& p = r.critical_path->path;
  EXPECT_EQ(r.critical_path->rank, 2);
  EXPECT_EQ(p.part(PathPart::Compute), 50'000'000);
  EXPECT_EQ(p.part(PathPart::Latency), 2 * kLatency);
  EXPECT_EQ(p.part(PathPart::Transfer), 2 * kPsPerByte);
  EXPECT_EQ(p.part(PathPart::Wait), 0);
  const nlohmann::json j = mpisim::critical_path_json(r.critical_path);
  EXPECT_EQ(j["top"][0]["rank"], 0);
  EXPECT_EQ(j["top"][0]["call"], "MPISIM_Compute");
  EXPECT_EQ(j["top"][0]["part"], "compute");
  EXPECT_EQ(j["top"][0]["ps"], 50'000'000);
  EXPECT_EQ(j["ranks"][0]["rank"], 0);
}

/// A program of collectives, non-blocking and synchronous messages: rank `me` computes unevenly.
void mixed(int me) {
  int n = 0, got = 0;
  // 128 KiB: rendezvous messages, above the eager limit.
  std::vector<double> v(16384, me), w(16384);
  MPISIM_Compute(1e-6 * (me % 3 + 1));
  MPI_Allreduce(v.data(), w.data(), 16384, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(&n, 1, MPI_INT, 3, MPI_COMM_WORLD);
  const int size = test::world_size();
  MPI_Request q[2];
  MPI_Irecv(w.data(), 16384, MPI_DOUBLE, (me + size - 1) % size, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(v.data(), 16384, MPI_DOUBLE, (me + 1) % size, 1, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPISIM_Compute(1e-6 * me);
  MPI_Issend(&n, 1, MPI_INT, (me + 1) % size, 2, MPI_COMM_WORLD, &q[1]);
  MPI_Recv(&got, 1, MPI_INT, (me + size - 1) % size, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(CriticalPath, PartsSumToThePredictionOnEveryNetwork) {
  for (const char* network : {"latency", "nic", "contention"}) {
    SCOPED_TRACE(network);
    mpisim::Config c = with_path(8, network);
    c.machine.ranks_per_node = 2;
    const auto r = run(c, mixed);
    expect_exact(r);
    c.critical_path = false;
    EXPECT_EQ(run(c, mixed).predicted, r.predicted); // the path changes no time
  }
}

TEST(CriticalPath, NullInTheReportWhenOff) {
  mpisim::Config c = test::config(2);
  const auto r = run(c, [](int) { MPI_Barrier(MPI_COMM_WORLD); });
  EXPECT_FALSE(r.critical_path.has_value());
  const nlohmann::json report = mpisim::build_report(c, r);
  ASSERT_TRUE(report.contains("critical_path"));
  EXPECT_TRUE(report["critical_path"].is_null());
  EXPECT_EQ(mpisim::render_report(report).find("critical path"), std::string::npos);
}

TEST(CriticalPath, ReportSectionNamesTheSplitAndTheLargest) {
  const mpisim::Config c = with_path(3);
  const auto r = run(c, [](int me) {
    char x = 0;
    MPISIM_Compute(me == 0 ? 50e-6 : 1e-6);
    if (me > 0) MPI_Recv(&x, 1, MPI_CHAR, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (me < 2) MPI_Send(&x, 1, MPI_CHAR, me + 1, 0, MPI_COMM_WORLD);
  });
  const std::string text = mpisim::render_report(mpisim::build_report(c, r));
  EXPECT_NE(text.find("critical path: 52.602 us (ends on rank 2) = compute 95.1 %"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  largest: rank 0 MPISIM_Compute compute 50 us (95.1 %); "),
            std::string::npos)
      << text;
}

TEST(CriticalPath, EncodesAndDecodesExactly) {
  mpilite::CritPath p;
  p.add(PathPart::Compute, 5, 3, "MPI_Send");
  p.add(PathPart::Latency, 7, 1, "MPI_Allreduce");
  p.extend(PathPart::Contention, 2);
  std::vector<std::byte> bytes;
  p.encode(bytes);
  const mpilite::CritPath q = mpilite::CritPath::decode(bytes, "a test");
  EXPECT_EQ(q, p);
  EXPECT_EQ(q.total(), 14);
  ASSERT_EQ(q.named().entries().size(), 3u);
  EXPECT_EQ(q.named().entries()[2].rank, 1);
  EXPECT_STREQ(q.named().entries()[2].call, "MPI_Allreduce");
  EXPECT_EQ(q.named().entries()[2].part, PathPart::Contention);
  EXPECT_EQ(q.ranks().entries()[1].ps, 9); // rank 1: latency and contention
  bytes.pop_back();
  EXPECT_THROW(mpilite::CritPath::decode(bytes, "a test"), std::runtime_error);
}

TEST(CriticalPath, KeepsTheLargestNamedWhenFull) {
  mpilite::CritPath p;
  for (int i = 0; i < 40; ++i)
    p.add(PathPart::Compute, 100 + i, i, "MPI_Send");
  EXPECT_EQ(p.total(), 40 * 100 + 39 * 40 / 2);
  const auto named = p.named().entries();
  EXPECT_EQ(named.size(), mpilite::CritPath::kNamed);
  SimTime smallest = p.total(), kept = 0;
  for (const auto& e : named) {
    smallest = std::min(smallest, e.ps);
    kept += e.ps;
  }
  EXPECT_EQ(smallest, 108); // the 8 smallest gave way
  EXPECT_EQ(kept + p.named().dropped(), p.total());
  // 40 ranks fit the table by rank; one call and part: one entry.
  EXPECT_EQ(p.ranks().entries().size(), 40u);
  EXPECT_EQ(p.ranks().dropped(), 0);
  ASSERT_EQ(p.calls().entries().size(), 1u);
  EXPECT_EQ(p.calls().entries()[0].ps, p.total());
}

} // namespace
