// The report of a run with more ranks than the text shows one by one: its summaries cover every
// rank, and the per-rank objects are there only when the report is written to a file, one rank at
// a time.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report.hpp"
#include "sim_harness.hpp"

namespace {

/// 100 ranks (or as configured); ranks 0-11 exit with code 3 without MPI_Finalize, all after a 1 us
/// barrier-free compute, the others compute 1 us more.
mpisim::RunSummary hundred_ranks(const mpisim::Config& c) {
  return test::simulate(c, [](int, char**) {
    MPI_Init(nullptr, nullptr);
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPISIM_Compute(1e-6);
    if (me < 12) return 3;
    MPISIM_Compute(1e-6);
    MPI_Finalize();
    return 0;
  });
}

TEST(Report, SummarizesEveryRankWithoutListingThem) {
  const mpisim::Config c = test::config(100);
  const mpisim::RunSummary run = hundred_ranks(c);
  const nlohmann::json report = mpisim::build_report(c, run);
  EXPECT_TRUE(report["ranks"].is_null());
  const nlohmann::json& totals = report["rank_summary"]["totals"];
  EXPECT_EQ(totals["failed_count"], 12);
  EXPECT_EQ(totals["failed"].size(), mpisim::kRanksNamed);
  EXPECT_EQ(totals["unfinalized_count"], 12);
  // 88 ranks compute the whole 2 us, 12 compute 1 us and are finished for the other.
  EXPECT_DOUBLE_EQ(totals["utilization_mean"]["compute"].get<double>(), (88 + 12 * 0.5) / 100);
  EXPECT_DOUBLE_EQ(totals["utilization_mean"]["finished"].get<double>(), 12 * 0.5 / 100);
  const std::string text = mpisim::render_report(report);
  EXPECT_NE(text.find("      mean     94.0%         0.0%      0.0%       6.0%\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ranks that ended with a non-zero code (12): 0 (returned 3) 1 (returned 3)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("9 (returned 3) ...\n"), std::string::npos) << text;
  EXPECT_NE(text.find("ranks that did not call MPI_Finalize (12): 0 1 2 3 4 5 6 7 8 9 ...\n"),
            std::string::npos)
      << text;
}

TEST(Report, TheFileListsEveryRank) {
  const mpisim::Config c = test::config(100);
  const mpisim::RunSummary run = hundred_ranks(c);
  std::ostringstream file;
  mpisim::write_report(file, mpisim::build_report(c, run), run);
  const nlohmann::json report = nlohmann::json::parse(file.str());
  ASSERT_EQ(report["ranks"].size(), 100u);
  EXPECT_EQ(report["ranks"][99]["time_ps"], 2'000'000);
  EXPECT_EQ(report["ranks"][11]["exit_code"], 3);
  EXPECT_FALSE(report["ranks"][11]["finalized"].get<bool>());
}

TEST(Report, TheFileIsTheReportWhereTheTextShowsEveryRank) {
  const mpisim::Config c = test::config(8);
  const mpisim::RunSummary run = hundred_ranks(c);
  const nlohmann::json report = mpisim::build_report(c, run);
  ASSERT_EQ(report["ranks"].size(), 8u);
  std::ostringstream file;
  mpisim::write_report(file, report, run);
  EXPECT_EQ(nlohmann::json::parse(file.str()), report);
}

TEST(Report, SettingsSayWhereTheRanksStateIsAndWhy) {
  const mpisim::Config c = test::config(100);
  nlohmann::json report = mpisim::build_report(c, hundred_ranks(c));
  // What the settings line says after the stacks' overflow check, up to the next setting.
  const std::string check = "(" + report["settings"]["overflow_check"].get<std::string>() + ")";
  const auto after_check = [&](const char* asked, bool in_stack) {
    report["settings"]["rank_state"] = asked;
    report["settings"]["rank_state_in_stack"] = in_stack;
    const std::string text = mpisim::render_report(report);
    const std::size_t from = text.find(check);
    if (from == std::string::npos) return text;
    const std::size_t at = from + check.size();
    return text.substr(at, text.find(';', at) - at);
  };
  EXPECT_EQ(after_check("auto", false), "");
  EXPECT_EQ(after_check("auto", true),
            ", each rank's state in its top page (the default for this many ranks per host "
            "process)");
  EXPECT_EQ(after_check("stack", true),
            ", each rank's state in its top page (MPISIM_RANK_STATE=stack)");
  EXPECT_EQ(after_check("heap", false), ", ranks' state on the heap (MPISIM_RANK_STATE=heap)");
  // Asked for, but a guard page covers a block of stacks (mpilite::World keeps them on the heap).
  EXPECT_EQ(after_check("stack", false),
            ", ranks' state on the heap (a guard page covers a block of stacks)");
}

} // namespace
