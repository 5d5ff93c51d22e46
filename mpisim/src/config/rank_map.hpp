// Which host process simulates which rank (MPISIM_MAP).
#pragma once

#include <string>
#include <vector>

namespace mpisim {

class RankMap {
public:
  /// `spec`: "block" (contiguous ranges of nearly equal size), "cyclic" (rank % hosts), or the
  /// path of a file with one host number per line, line i for rank i ('#' starts a comment).
  /// Throws ConfigError for a bad file.
  RankMap(const std::string& spec, int ranks, int hosts);

  int host_of(int rank) const { return host_[static_cast<std::size_t>(rank)]; }
  /// The ranks of `host`, in increasing order.
  std::vector<int> ranks_of(int host) const;
  int hosts() const { return hosts_; }

private:
  std::vector<int> host_;
  int hosts_;
};

} // namespace mpisim
