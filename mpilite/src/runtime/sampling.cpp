#include "sampling.hpp"

#include <algorithm>
#include <cmath>

namespace mpilite {

void SampleStats::add(SimTime t) {
  ++count;
  sum += t;
  const auto u = static_cast<unsigned __int128>(t < 0 ? 0 : t);
  sum_squares += u * u;
}

void SampleStats::merge(const SampleStats& o) {
  count += o.count;
  skipped += o.skipped;
  sum += o.sum;
  sum_squares += o.sum_squares;
}

SimTime SampleStats::mean() const {
  if (count == 0) return 0;
  const auto n = static_cast<SimTime>(count);
  return (sum + n / 2) / n;
}

double SampleStats::stddev() const {
  if (count == 0) return 0;
  const auto n = static_cast<long double>(count);
  const long double m = static_cast<long double>(sum) / n;
  const long double var = static_cast<long double>(sum_squares) / n - m * m;
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
}

bool SampleStats::enough(int iterations, double threshold) const {
  if (count >= static_cast<std::uint64_t>(iterations)) return true;
  if (count < 2) return false;
  const double m = static_cast<double>(sum) / static_cast<double>(count);
  return m > 0 ? stddev() / m < threshold : stddev() == 0;
}

SampleSites::Site& SampleSites::site(const char* file, int line, bool global, int iterations,
                                     double threshold) {
  auto [it, created] = sites_.try_emplace({file, line});
  Site& s = it->second;
  if (created) {
    s.name = line < 0 ? std::string(file) : std::string(file) + ":" + std::to_string(line);
    s.global = global;
    s.iterations = iterations;
    s.threshold = threshold;
  }
  return s;
}

SampleSites::Site* SampleSites::find(const char* file, int line) {
  const auto it = sites_.find({file, line});
  return it == sites_.end() ? nullptr : &it->second;
}

SimTime SampleSites::close(int rank, const Site& s) {
  auto it = open_.find(rank);
  if (it == open_.end()) return -1;
  auto& stack = it->second;
  while (!stack.empty()) {
    const Open top = stack.back();
    stack.pop_back();
    if (top.site == &s) return top.start;
  }
  return -1;
}

bool SampleSites::innermost_is(int rank, const Site& s) const {
  const auto it = open_.find(rank);
  return it != open_.end() && !it->second.empty() && it->second.back().site == &s;
}

std::vector<SampleSiteSummary> SampleSites::summaries() const {
  std::vector<SampleSiteSummary> out;
  for (const auto& [key, s] : sites_) {
    SampleSiteSummary x{s.name, s.global, s.iterations, s.threshold, s.shared};
    for (const auto& [rank, stats] : s.ranks)
      x.stats.merge(stats);
    out.push_back(std::move(x));
  }
  return out;
}

void merge_sample_summaries(std::vector<SampleSiteSummary>& into,
                            const std::vector<SampleSiteSummary>& from) {
  for (const SampleSiteSummary& f : from) {
    const auto it = std::find_if(into.begin(), into.end(),
                                 [&](const SampleSiteSummary& x) { return x.site == f.site; });
    if (it == into.end())
      into.push_back(f);
    else
      it->stats.merge(f.stats);
  }
  std::sort(into.begin(), into.end(),
            [](const SampleSiteSummary& a, const SampleSiteSummary& b) { return a.site < b.site; });
}

} // namespace mpilite
