// Determinism of the second kind (the MPI-SIM paper): a wildcard receive whose tag only one
// source ever uses on its communicator can complete as if it named that source, with no time
// bound. The sources are not known in advance, so a run records them (MPISIM_DET_PROFILE=FILE
// with no FILE: every (communicator, receiver, tag) used by wildcard receives, and the sources
// that sent on it) and later runs take the file as a promise, checked at every send: a message
// that breaks it ends the run, naming the profile, the channel and both sources.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace mpisim::protocols {

/// A channel of the profile: a communicator (its context id), the receiving world rank, a tag.
struct DetChannel {
  std::int32_t context = 0;
  std::int32_t dst = 0;
  std::int32_t tag = 0;
  bool operator==(const DetChannel&) const = default;
};

struct DetChannelHash {
  std::size_t operator()(const DetChannel& c) const {
    return std::hash<std::uint64_t>()((static_cast<std::uint64_t>(c.context) << 40) ^
                                      (static_cast<std::uint64_t>(c.dst) << 20) ^
                                      static_cast<std::uint32_t>(c.tag));
  }
};

/// A profile being recorded (the parts of all host processes merge into one).
class DetRecorder {
public:
  void sent(const DetChannel& c, int src) { senders_[c].insert(src); }
  void wildcard(const DetChannel& c) { wildcards_.insert(key(c)); }
  /// This host's part, for the gather at the end of the run.
  std::string encode() const;
  void merge(const std::string& part);
  /// The profile text: the channels used by wildcard receives, with every source seen on them.
  std::string text(int ranks) const;

private:
  static std::uint64_t key(const DetChannel& c);
  std::unordered_map<DetChannel, std::set<int>, DetChannelHash> senders_;
  std::set<std::uint64_t> wildcards_;
};

/// A profile read from a file: the channels with a single source.
class DetProfile {
public:
  /// Reads `path`; throws std::runtime_error naming path:line and the problem, or a profile made
  /// for another number of ranks.
  static DetProfile read(const std::string& path, int ranks);

  /// The one source of `c`, or -1 when the profile makes no promise for it.
  int single_source(const DetChannel& c) const {
    const auto it = single_.find(c);
    return it == single_.end() ? -1 : it->second;
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
  std::unordered_map<DetChannel, int, DetChannelHash> single_;
};

} // namespace mpisim::protocols
