#include "rank_map.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "config.hpp"

namespace mpisim {
namespace {

std::vector<int> read_map_file(const std::string& path, int ranks, int hosts) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("MPISIM_MAP={}: cannot read the file", path));
  std::vector<int> host;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    int h;
    if (!(words >> h)) continue;
    if (h < 0 || h >= hosts)
      throw ConfigError(fmt::format("MPISIM_MAP={}:{}: host {} does not exist (there are {} host "
                                    "processes, numbered from 0)",
                                    path, lineno, h, hosts));
    host.push_back(h);
  }
  if (static_cast<int>(host.size()) != ranks)
    throw ConfigError(
        fmt::format("MPISIM_MAP={}: the file maps {} ranks but the simulation has {}; "
                    "give one host number per line, line i for rank i",
                    path, host.size(), ranks));
  return host;
}

} // namespace

RankMap::RankMap(const std::string& spec, int ranks, int hosts) : hosts_(hosts) {
  if (spec == "block") {
    for (int r = 0; r < ranks; ++r)
      host_.push_back(static_cast<int>(static_cast<long long>(r) * hosts / ranks));
  } else if (spec == "cyclic") {
    for (int r = 0; r < ranks; ++r)
      host_.push_back(r % hosts);
  } else {
    host_ = read_map_file(spec, ranks, hosts);
  }
}

std::vector<int> RankMap::ranks_of(int host) const {
  std::vector<int> out;
  for (std::size_t r = 0; r < host_.size(); ++r)
    if (host_[r] == host) out.push_back(static_cast<int>(r));
  return out;
}

} // namespace mpisim
