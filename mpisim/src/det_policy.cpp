#include "det_policy.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "config.hpp"
#include "message.hpp"
#include "request.hpp"

namespace mpisim {

DetPolicy::DetPolicy(const std::string& profile_path, int ranks,
                     std::function<void(std::string why)> broken)
    : path_(profile_path), broken_(std::move(broken)) {
  if (path_.empty()) return;
  if (!std::filesystem::exists(path_)) {
    recorder_ = std::make_unique<protocols::DetRecorder>();
    return;
  }
  try {
    profile_ = protocols::DetProfile::read(path_, ranks);
  } catch (const std::runtime_error& e) {
    throw ConfigError(e.what());
  }
}

bool DetPolicy::takes_without_bound(const mpilite::Request& q, int dst, const mpilite::Message& m) {
  if (q.source != MPI_ANY_SOURCE) return true;
  // Determinism of the second kind: `m` comes from the only source the profile allows on the
  // receive's (communicator, tag), so it is the one message the receive can take.
  if (!profile_ || q.tag == MPI_ANY_TAG ||
      profile_->single_source({q.context, dst, q.tag}) != m.src)
    return false;
  ++profile_receives_;
  return true;
}

void DetPolicy::posted(const mpilite::Request& q, int dst) {
  // A profile being recorded learns here which channels wildcard receives use.
  if (recorder_ && q.source == MPI_ANY_SOURCE && q.tag != MPI_ANY_TAG)
    recorder_->wildcard({q.context, dst, q.tag});
}

void DetPolicy::sent(const mpilite::Message& m) {
  if (recorder_) recorder_->sent({m.context, m.dst, m.tag}, m.src);
  if (!profile_) return;
  const int promised = profile_->single_source({m.context, m.dst, m.tag});
  if (promised < 0 || promised == m.src) return;
  broken_(fmt::format("rank {} sent to rank {} with tag {} on communicator context {}, which the "
                      "DET profile {} promised only rank {} uses: the program does not behave as "
                      "when the profile was recorded; delete the profile to record a new one, or "
                      "run without MPISIM_DET_PROFILE",
                      m.src, m.dst, m.tag, m.context, path_, promised));
}

std::string DetPolicy::recorded_part() const {
  return recorder_ ? recorder_->encode() : std::string();
}

void DetPolicy::write_profile(const std::vector<std::string>& parts, int ranks) const {
  protocols::DetRecorder all;
  for (const std::string& p : parts)
    all.merge(p);
  std::ofstream out(path_);
  out << all.text(ranks);
  if (!out) throw std::runtime_error("MPISIM_DET_PROFILE: cannot write " + path_);
}

} // namespace mpisim
