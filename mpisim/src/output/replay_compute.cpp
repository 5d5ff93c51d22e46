#include "replay_compute.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace mpisim {

using mpilite::SimTime;

SimTime replayed_compute(SimTime measured, SimTime declared, double scale) {
  if (scale == 1.0) return measured + declared; // exact: the record's own integers
  const double scaled = static_cast<double>(measured) * scale;
  if (!mpilite::within_time_limit(scaled))
    throw BadComputeRecord(fmt::format("measured compute {} ps times the CPU scale ratio {:g} "
                                       "passes the limit of simulated time",
                                       measured, scale));
  // Both terms are within the limit, so their sum cannot overflow; charging it checks the sum.
  return static_cast<SimTime>(scaled) + declared;
}

std::vector<SimTime> balanced_compute(const std::string& dir, int ranks, double scale) {
  // Sums of up to 2^31 ranks' times of up to kTimeLimit each need more than 64 bits.
  std::vector<unsigned __int128> sums;
  std::vector<std::uint32_t> counts;
  for (int rank = 0; rank < ranks; ++rank) {
    const std::string path = fmt::format("{}/rank-{}.ops", dir, rank);
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
    std::size_t k = 0, line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      if (!line.starts_with("compute ")) continue;
      std::istringstream words(line.substr(8));
      SimTime measured = -1, declared = -1;
      words >> measured >> declared;
      if (!words || measured < 0 || declared < 0 || measured > mpilite::kTimeLimit ||
          declared > mpilite::kTimeLimit)
        throw std::runtime_error(fmt::format("{}:{}: a compute line needs two times of 0 to {} ps",
                                             path, line_no, mpilite::kTimeLimit));
      SimTime charged = 0;
      try {
        charged = replayed_compute(measured, declared, scale);
      } catch (const BadComputeRecord& e) {
        throw std::runtime_error(fmt::format("{}:{}: {}", path, line_no, e.what()));
      }
      if (k == sums.size()) {
        sums.push_back(0);
        counts.push_back(0);
      }
      sums[k] += static_cast<unsigned __int128>(charged);
      ++counts[k];
      ++k;
    }
  }
  std::vector<SimTime> means(sums.size());
  for (std::size_t k = 0; k < sums.size(); ++k)
    means[k] = static_cast<SimTime>(sums[k] / counts[k]);
  return means;
}

} // namespace mpisim
