// The rule by which a receive may match without the time bound of the synchronization protocols.
// Exact matching (DET off) never does; deterministic mode (DET) lets a receive that names its
// source take that source's first message, and, with a profile, a wildcard receive take the one
// source the profile promises for its (communicator, tag).
#pragma once

namespace mpilite {

struct Message;
struct Request;

class MatchPolicy {
public:
  virtual ~MatchPolicy() = default;
  /// Whether receive `q` of world rank `dst` may take `m` (its first eligible message from m.src)
  /// whatever the bound.
  virtual bool takes_without_bound(const Request& q, int dst, const Message& m) = 0;
  /// A receive of world rank `dst` was posted.
  virtual void posted(const Request& /*q*/, int /*dst*/) {}
  /// A message was sent (its envelope: a profile's promises are checked here).
  virtual void sent(const Message& /*m*/) {}
};

/// DET off: every decision waits for the bound.
class ExactMatching final : public MatchPolicy {
public:
  bool takes_without_bound(const Request&, int, const Message&) override { return false; }
};

} // namespace mpilite
