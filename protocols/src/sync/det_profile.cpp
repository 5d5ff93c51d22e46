#include "det_profile.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mpisim::protocols {
namespace {

constexpr const char* kMagic = "mpisim-det-profile";
constexpr int kVersion = 1;

} // namespace

std::uint64_t DetRecorder::key(const DetChannel& c) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.context)) << 32) ^
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.dst)) << 16) ^
         static_cast<std::uint32_t>(c.tag);
}

std::string DetRecorder::encode() const {
  std::ostringstream out;
  for (const auto& [c, sources] : senders_)
    for (int s : sources)
      out << "s " << c.context << ' ' << c.dst << ' ' << c.tag << ' ' << s << '\n';
  for (std::uint64_t k : wildcards_)
    out << "w " << k << '\n';
  return out.str();
}

void DetRecorder::merge(const std::string& part) {
  std::istringstream in(part);
  std::string kind;
  while (in >> kind) {
    if (kind == "s") {
      DetChannel c;
      int s = 0;
      in >> c.context >> c.dst >> c.tag >> s;
      senders_[c].insert(s);
    } else {
      std::uint64_t k = 0;
      in >> k;
      wildcards_.insert(k);
    }
  }
}

std::string DetRecorder::text(int ranks) const {
  std::ostringstream out;
  out << kMagic << ' ' << kVersion << " ranks " << ranks << '\n'
      << "# context receiver tag sources...: the sources seen on each channel that wildcard\n"
      << "# receives used; a channel with one source is completed without a time bound.\n";
  std::set<std::tuple<int, int, int>> channels;
  for (const auto& [c, sources] : senders_)
    if (wildcards_.count(key(c))) channels.insert({c.context, c.dst, c.tag});
  for (const auto& [context, dst, tag] : channels) {
    out << context << ' ' << dst << ' ' << tag;
    for (int s : senders_.at(DetChannel{context, dst, tag}))
      out << ' ' << s;
    out << '\n';
  }
  return out.str();
}

DetProfile DetProfile::read(const std::string& path, int ranks) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("MPISIM_DET_PROFILE: cannot read " + path);
  DetProfile p;
  p.path_ = path;
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ":" + std::to_string(number) + ": " + why +
                             " (delete the file to record a new profile)");
  };
  while (std::getline(in, line)) {
    ++number;
    std::istringstream f(line);
    if (number == 1) {
      std::string magic, word;
      int version = 0, n = 0;
      if (!(f >> magic >> version >> word >> n) || magic != kMagic || word != "ranks")
        fail("not an mpisim DET profile");
      if (version != kVersion)
        fail("a DET profile of format " + std::to_string(version) + "; this mpisim reads " +
             std::to_string(kVersion));
      if (n != ranks)
        fail("a DET profile recorded with " + std::to_string(n) + " ranks, not " +
             std::to_string(ranks));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    DetChannel c;
    std::vector<int> sources;
    if (!(f >> c.context >> c.dst >> c.tag)) fail("expected: context receiver tag sources...");
    int s = 0;
    while (f >> s) {
      if (s < 0 || s >= ranks) fail("source " + std::to_string(s) + " is not a rank");
      sources.push_back(s);
    }
    if (!f.eof()) fail("expected: context receiver tag sources...");
    if (c.dst < 0 || c.dst >= ranks) fail("receiver " + std::to_string(c.dst) + " is not a rank");
    if (sources.empty()) fail("a channel without sources");
    if (sources.size() == 1) p.single_[c] = sources[0];
  }
  if (number == 0) fail("empty file");
  return p;
}

} // namespace mpisim::protocols
