#include "sampling.hpp"

#include <algorithm>
#include <cmath>

namespace mpilite {

namespace {
unsigned __int128 square(SimTime t) {
  const auto u = static_cast<unsigned __int128>(t < 0 ? 0 : t);
  return u * u;
}
} // namespace

void SampleStats::add(SimTime t) {
  if (count == 0) first = t;
  ++count;
  sum += t;
  sum_squares += square(t);
}

bool SampleStats::first_is_warmup() const {
  if (first < 0 || count < 2) return false;
  // first > 2 * (sum - first) / (count - 1), in integers
  const auto later = static_cast<__int128>(sum - first);
  return static_cast<__int128>(first) * static_cast<__int128>(count - 1) > 2 * later;
}

SampleStats::Steady SampleStats::steady() const {
  Steady s{count - warmups, sum - warmup_sum, sum_squares - warmup_squares};
  if (first_is_warmup()) {
    --s.n;
    s.sum -= first;
    s.squares -= square(first);
  }
  return s;
}

void SampleStats::merge(const SampleStats& o) {
  // A merged summary keeps the warm-ups its parts left out, not their first samples.
  for (const SampleStats* part : {static_cast<const SampleStats*>(this), &o}) {
    if (!part->first_is_warmup()) continue;
    ++warmups;
    warmup_sum += part->first;
    warmup_squares += square(part->first);
  }
  first = -1;
  count += o.count;
  skipped += o.skipped;
  sum += o.sum;
  sum_squares += o.sum_squares;
  warmups += o.warmups;
  warmup_sum += o.warmup_sum;
  warmup_squares += o.warmup_squares;
}

SimTime SampleStats::mean() const {
  const Steady s = steady();
  if (s.n == 0) return 0;
  const auto n = static_cast<SimTime>(s.n);
  return (s.sum + n / 2) / n;
}

double SampleStats::stddev() const {
  const Steady s = steady();
  if (s.n == 0) return 0;
  const auto n = static_cast<long double>(s.n);
  const long double m = static_cast<long double>(s.sum) / n;
  const long double var = static_cast<long double>(s.squares) / n - m * m;
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
}

bool SampleStats::enough(int iterations, double threshold) const {
  if (count >= static_cast<std::uint64_t>(iterations)) return true;
  const Steady s = steady();
  if (s.n < 2) return false;
  const double m = static_cast<double>(s.sum) / static_cast<double>(s.n);
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
