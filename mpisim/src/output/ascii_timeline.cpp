#include "ascii_timeline.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "units.hpp"

namespace mpisim {

namespace {

/// The smallest bucket width at which kBuckets buckets reach `end`, without overflow for any
/// clock (a product width * kBuckets could pass the largest SimTime).
SimTime width_to_reach(SimTime end) {
  return end / AsciiTimeline::kBuckets + (end % AsciiTimeline::kBuckets != 0 ? 1 : 0);
}

} // namespace

AsciiTimeline::AsciiTimeline(int ranks) : rows_(static_cast<std::size_t>(ranks)) {}

void AsciiTimeline::widen(Row& row) {
  for (int i = 0; i < kBuckets / 2; ++i)
    for (int k = 0; k < 3; ++k)
      row.time[i][k] = row.time[2 * i][k] + row.time[2 * i + 1][k];
  for (int i = kBuckets / 2; i < kBuckets; ++i)
    row.time[i] = {};
  row.width *= 2;
}

void AsciiTimeline::add(int rank, SimTime start, SimTime end, Activity a) {
  if (end <= start || rank < 0 || rank >= static_cast<int>(rows_.size())) return;
  Row& row = rows_[static_cast<std::size_t>(rank)];
  row.used = true;
  if (start < 0) start = 0;
  while (row.width < width_to_reach(end))
    widen(row);
  const auto k = static_cast<std::size_t>(a);
  for (SimTime t = start; t < end;) {
    const SimTime bucket = t / row.width;
    const SimTime room = row.width - t % row.width; // to the end of t's bucket
    const SimTime bucket_end = end - t <= room ? end : t + room;
    row.time[static_cast<std::size_t>(bucket)][k] += bucket_end - t;
    t = bucket_end;
  }
}

std::string AsciiTimeline::encode() const {
  std::string out;
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    if (!rows_[r].used) continue;
    out += fmt::format("{} {}", r, rows_[r].width);
    for (const auto& b : rows_[r].time)
      out += fmt::format(" {} {} {}", b[0], b[1], b[2]);
    out += '\n';
  }
  return out;
}

void AsciiTimeline::merge(const std::string& encoded) {
  std::istringstream in(encoded);
  std::size_t r;
  SimTime width;
  while (in >> r >> width) {
    Row row;
    row.width = width;
    row.used = true;
    for (auto& b : row.time)
      in >> b[0] >> b[1] >> b[2];
    if (r < rows_.size()) rows_[r] = row;
  }
}

std::vector<std::string> AsciiTimeline::render(SimTime predicted) const {
  if (predicted <= 0) return {};
  // A common bucket width: the widest row's (all are powers of two, so narrower ones fold into
  // it exactly).
  SimTime width = 1;
  for (const Row& row : rows_)
    width = std::max(width, row.width);
  while (width < width_to_reach(predicted))
    width *= 2;
  const auto columns = static_cast<int>(predicted / width + (predicted % width != 0 ? 1 : 0));
  std::vector<std::string> lines;
  lines.push_back(fmt::format("timeline: {} columns of {}; # compute, = communicate, . wait, "
                              "blank: finished",
                              columns, format_time(width)));
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    Row row = rows_[r];
    while (row.width < width)
      widen(row);
    std::string line = fmt::format("rank {:>3} |", r);
    for (int c = 0; c < columns; ++c) {
      const auto& b = row.time[static_cast<std::size_t>(c)];
      const auto most = std::max_element(b.begin(), b.end());
      line += *most == 0 ? ' ' : "#=."[most - b.begin()];
    }
    lines.push_back(line + "|");
  }
  return lines;
}

} // namespace mpisim
