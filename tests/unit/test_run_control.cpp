// RunControl before the ranks start: the set-up of a large run shows the progress line too.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "run_control.hpp"

namespace {

std::string stderr_of_setup(bool reporting) {
  mpisim::Config c;
  c.ranks = 1234567;
  c.progress = true;
  testing::internal::CaptureStderr();
  {
    // No world attached yet: the set-up is still mapping stacks. The line is due after 3 s.
    mpisim::RunControl control(c, reporting);
    std::this_thread::sleep_for(std::chrono::milliseconds(4500));
  }
  return testing::internal::GetCapturedStderr();
}

TEST(RunControl, ShowsTheSetUpBeforeTheRanksStart) {
  // One line (the next is due 10 s later), whatever second a loaded machine prints it at.
  const std::string out = stderr_of_setup(true);
  EXPECT_TRUE(std::regex_match(out, std::regex("mpisim: [34] s: setting up 1234567 ranks: mapping "
                                               "their stacks and building their state\n")))
      << out;
}

TEST(RunControl, OnlyTheReportingHostShowsTheSetUp) {
  EXPECT_EQ(stderr_of_setup(false), "");
}

} // namespace
