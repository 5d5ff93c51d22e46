#include "comm_graph.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "config.hpp"

namespace mpisim {
namespace {

/// A pair's weight is capped so that a rank's sum over even 100 000 neighbours stays far inside
/// int64 (gains are differences of such sums); no run sends 2^40 messages between two ranks.
constexpr std::int64_t kMaxWeight = std::int64_t{1} << 40;

/// Parses "a,b,c,d" of unsigned integers; false for anything else.
bool parse_row(std::string_view line, std::uint64_t (&field)[4]) {
  const char* p = line.data();
  const char* end = p + line.size();
  for (int i = 0; i < 4; ++i) {
    const auto [next, error] = std::from_chars(p, end, field[i]);
    if (error != std::errc{} || next == p) return false;
    p = next;
    if (i < 3) {
      if (p == end || *p != ',') return false;
      ++p;
    }
  }
  return p == end;
}

} // namespace

CommGraph::CommGraph(int ranks, std::vector<Flow> flows) : ranks_(ranks) {
  // Each pair once, lower rank first, then both directions of the pair added up.
  std::erase_if(flows, [](const Flow& f) { return f.src == f.dst; });
  for (Flow& f : flows)
    if (f.src > f.dst) std::swap(f.src, f.dst);
  std::sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) {
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  });
  std::vector<Flow> pairs;
  for (const Flow& f : flows) {
    if (!pairs.empty() && pairs.back().src == f.src && pairs.back().dst == f.dst)
      pairs.back().messages += f.messages;
    else
      pairs.push_back(f);
  }
  first_.assign(static_cast<std::size_t>(ranks) + 1, 0);
  for (const Flow& p : pairs) {
    ++first_[static_cast<std::size_t>(p.src) + 1];
    ++first_[static_cast<std::size_t>(p.dst) + 1];
  }
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks); ++r)
    first_[r + 1] += first_[r];
  neighbour_.resize(first_.back());
  weight_.resize(first_.back());
  std::vector<std::size_t> next(first_.begin(), first_.end() - 1);
  // Pairs are sorted by (src, dst): each rank's row fills in increasing neighbour order, the
  // lower neighbours (where it is dst) before the higher ones (where it is src).
  for (int side = 0; side < 2; ++side)
    for (const Flow& p : pairs) {
      const int from = side == 0 ? p.dst : p.src;
      const int to = side == 0 ? p.src : p.dst;
      const std::size_t at = next[static_cast<std::size_t>(from)]++;
      neighbour_[at] = to;
      weight_[at] = static_cast<std::int64_t>(
          std::min<std::uint64_t>(p.messages, static_cast<std::uint64_t>(kMaxWeight)));
    }
}

std::uint64_t CommGraph::messages() const {
  std::uint64_t total = 0;
  for (const std::int64_t w : weight_)
    total += static_cast<std::uint64_t>(w);
  return total / 2; // each pair is in the rows of both its ranks
}

std::uint64_t CommGraph::cut(const std::vector<int>& host_of) const {
  std::uint64_t total = 0;
  for (int r = 0; r < ranks_; ++r) {
    const auto near = neighbours(r);
    const auto w = weights(r);
    for (std::size_t i = 0; i < near.size(); ++i)
      if (near[i] > r &&
          host_of[static_cast<std::size_t>(near[i])] != host_of[static_cast<std::size_t>(r)])
        total += static_cast<std::uint64_t>(w[i]);
  }
  return total;
}

CommGraph read_comm_graph(const std::string& path, int ranks, const std::string& setting) {
  const std::string record = fmt::format(
      "record it again with a run of the same program on {} ranks with MPISIM_COMM_MATRIX={} "
      "(--comm-matrix; any number of host processes)",
      ranks, path);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad())
    throw ConfigError(fmt::format("{}: cannot read the communication matrix {}", setting, path));
  const std::string all = std::move(text).str();
  std::vector<CommGraph::Flow> flows;
  std::uint64_t last = 0;
  bool last_with_itself = false;
  std::size_t lineno = 0;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t eol = std::min(all.find('\n', at), all.size());
    std::string_view line(all.data() + at, eol - at);
    at = eol + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (lineno == 1) {
      if (line != "src,dst,messages,bytes")
        throw ConfigError(fmt::format("{}: {} is not a communication matrix (its first line is "
                                      "not \"src,dst,messages,bytes\"); {}",
                                      setting, path, record));
      continue;
    }
    if (line.empty()) continue;
    std::uint64_t f[4];
    if (!parse_row(line, f) || f[0] > static_cast<std::uint64_t>(std::numeric_limits<int>::max()) ||
        f[1] > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      throw ConfigError(fmt::format("{}: {}:{}: \"{}\" is not a line of a communication matrix "
                                    "(src,dst,messages,bytes: four unsigned integers); {}",
                                    setting, path, lineno, line, record));
    const std::uint64_t top = std::max(f[0], f[1]);
    if (top > last || flows.empty()) last_with_itself = false;
    last = std::max(last, top);
    if (f[0] == last && f[1] == last) last_with_itself = true;
    flows.push_back({static_cast<int>(f[0]), static_cast<int>(f[1]), f[2]});
  }
  if (lineno == 0) throw ConfigError(fmt::format("{}: {} is empty; {}", setting, path, record));
  if (flows.empty() || !last_with_itself)
    throw ConfigError(fmt::format(
        "{}: {} does not give its rank count (mpisim writes the pair of the last rank with "
        "itself, {}, into every matrix; this file lacks it); {}",
        setting, path, flows.empty() ? "N-1,N-1,..." : fmt::format("{0},{0},...", last), record));
  if (last + 1 != static_cast<std::uint64_t>(ranks))
    throw ConfigError(fmt::format("{}: the communication matrix {} was recorded on {} ranks but "
                                  "this run has {}; run with -np {} (MPISIM_RANKS), or {}",
                                  setting, path, last + 1, ranks, last + 1, record));
  return CommGraph(ranks, std::move(flows));
}

} // namespace mpisim
