// Deterministic mode (MPISIM_DET=1) as mpilite's matching policy, with its profile
// (MPISIM_DET_PROFILE): the whole of DET in one place. A receive that names its source takes that
// source's first matching message as soon as it is there (messages from one source arrive in
// order). With a profile, a wildcard receive on a (communicator, tag) that only one source uses
// does the same; every send is checked against the profile's promise, and a run without the file
// records one.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "det_profile.hpp"
#include "match_policy.hpp"

namespace mpisim {

class DetPolicy final : public mpilite::MatchPolicy {
public:
  /// `profile_path`: MPISIM_DET_PROFILE, or empty. Throws ConfigError for a profile that cannot
  /// be read. `broken`: ends the run when a send breaks the profile's promise (the text says why).
  DetPolicy(const std::string& profile_path, int ranks,
            std::function<void(std::string why)> broken);

  bool takes_without_bound(const mpilite::Request& q, int dst, const mpilite::Message& m) override;
  void posted(const mpilite::Request& q, int dst) override;
  void sent(const mpilite::Message& m) override;

  /// Wildcard receives completed without a time bound through the profile.
  std::uint64_t profile_receives() const { return profile_receives_; }
  /// A profile being recorded: this host's part of it (else empty), and the file written from
  /// every host's part (by one host).
  bool recording() const { return recorder_ != nullptr; }
  std::string recorded_part() const;
  void write_profile(const std::vector<std::string>& parts, int ranks) const;

private:
  std::string path_;
  std::optional<protocols::DetProfile> profile_;     ///< a profile given: promises to check
  std::unique_ptr<protocols::DetRecorder> recorder_; ///< no profile yet: recording one
  std::function<void(std::string)> broken_;
  std::uint64_t profile_receives_ = 0;
};

} // namespace mpisim
