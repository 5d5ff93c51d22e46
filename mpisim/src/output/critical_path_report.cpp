#include "critical_path_report.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "units.hpp"

namespace mpisim {

using nlohmann::json;

namespace {

using mpilite::PathEntry;

/// Largest first; ties in (rank, part, call) order, so the list is the same on any host count.
bool larger(const PathEntry& a, const PathEntry& b) {
  if (a.ps != b.ps) return a.ps > b.ps;
  if (a.rank != b.rank) return a.rank < b.rank;
  if (a.part != b.part) return a.part < b.part;
  return std::string_view(a.call) < std::string_view(b.call);
}

/// The largest entries of `table`, up to kCriticalPathShown, with the fields `fields` names:
/// 'r' rank, 'c' call, 'p' part.
template <std::size_t N> json largest(const mpilite::PathTable<N>& table, std::string_view fields) {
  std::vector<PathEntry> e(table.entries().begin(), table.entries().end());
  std::sort(e.begin(), e.end(), larger);
  json list = json::array();
  for (std::size_t i = 0; i < e.size() && i < kCriticalPathShown; ++i) {
    json x = json::object();
    if (fields.find('r') != std::string_view::npos) x["rank"] = e[i].rank;
    if (fields.find('c') != std::string_view::npos) x["call"] = e[i].call;
    if (fields.find('p') != std::string_view::npos) x["part"] = mpilite::path_part_name(e[i].part);
    x["ps"] = e[i].ps;
    list.push_back(x);
  }
  return list;
}

/// "send overhead" for "send_overhead": the text report's spelling of a part.
std::string spaced(std::string name) {
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

double percent(SimTime part, SimTime total) {
  return total > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(total) : 0.0;
}

} // namespace

json critical_path_json(const std::optional<CriticalPath>& end) {
  if (!end) return nullptr;
  const mpilite::CritPath& p = end->path;
  json parts = json::object();
  for (std::size_t i = 0; i < mpilite::kPathParts; ++i) {
    const auto part = static_cast<mpilite::PathPart>(i);
    parts[mpilite::path_part_name(part)] = p.part(part);
  }
  return {{"total_ps", p.total()},
          {"end_rank", end->rank},
          {"parts_ps", parts},
          {"top", largest(p.named(), "rcp")},
          {"ranks", largest(p.ranks(), "r")},
          {"calls", largest(p.calls(), "cp")},
          {"untracked_ps",
           {{"top", p.named().dropped()},
            {"ranks", p.ranks().dropped()},
            {"calls", p.calls().dropped()}}}};
}

void render_critical_path(std::string& out, const json& report) {
  const auto it = report.find("critical_path");
  if (it == report.end() || it->is_null()) return;
  const json& c = *it;
  const auto total = c["total_ps"].get<SimTime>();
  // Parts in their order, the empty ones left out.
  std::string split;
  for (std::size_t i = 0; i < mpilite::kPathParts; ++i) {
    const char* name = mpilite::path_part_name(static_cast<mpilite::PathPart>(i));
    const auto ps = c["parts_ps"][name].get<SimTime>();
    if (ps == 0) continue;
    split +=
        fmt::format("{}{} {:.1f} %", split.empty() ? "" : ", ", spaced(name), percent(ps, total));
  }
  out += fmt::format("critical path: {} (ends on rank {}) = {}\n", format_time(total),
                     c["end_rank"].get<int>(), split.empty() ? "nothing" : split);
  // Each list: its entries' fields in order (rank, call, part), then the time and its share.
  // A list whose table could not keep every contribution says how much it misses: its entries
  // are then at least what they show.
  const auto line = [&](const char* title, const json& list, const char* table) {
    std::string text;
    for (const json& e : list) {
      text += text.empty() ? "" : "; ";
      if (e.contains("rank")) text += fmt::format("rank {} ", e["rank"].get<int>());
      if (e.contains("call")) text += e["call"].get<std::string>() + " ";
      if (e.contains("part")) text += spaced(e["part"].get<std::string>()) + " ";
      const auto ps = e["ps"].get<SimTime>();
      text += fmt::format("{} ({:.1f} %)", format_time(ps), percent(ps, total));
    }
    if (text.empty()) return;
    const auto untracked = c["untracked_ps"][table].get<SimTime>();
    out += fmt::format(
        "  {}{}: {}\n", title,
        untracked ? fmt::format(" ({} of the path not tracked by them)", format_time(untracked))
                  : "",
        text);
  };
  line("calls", c["calls"], "calls");
  line("largest", c["top"], "top");
  line("ranks", c["ranks"], "ranks");
}

} // namespace mpisim
