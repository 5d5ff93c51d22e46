// Runs a test body as the only rank of a simulation.
#pragma once

#include <gtest/gtest.h>

#include <functional>

#include "sim_harness.hpp"

namespace test {

/// Runs `body` on one rank between MPI_Init and MPI_Finalize.
inline void on_one_rank(const std::function<void()>& body) {
  auto r = simulate(config(1), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    body();
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished) << r.message;
}

} // namespace test
