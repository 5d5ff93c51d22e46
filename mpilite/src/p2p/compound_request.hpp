// A request that stands for several operations started together, its parts: MPI_Isendrecv's
// send and receive, or the messages of a request-based one-sided operation. It completes when
// every part has, at the time MPI_Waitall on the parts would return (a receive's overhead
// included), whatever its rank does meanwhile; a wait on it is charged as that MPI_Waitall.
#pragma once

#include <initializer_list>
#include <memory>
#include <vector>

#include "request.hpp"

namespace mpilite {

class World;
struct Rank;

class CompoundRequest {
public:
  virtual ~CompoundRequest() = default;

protected:
  /// What the rank spends once every part is complete, beyond the receives' overheads (charged
  /// as they are); `whole` holds the status of the last receive part.
  virtual SimTime extra(const Request& whole) const {
    (void)whole;
    return 0;
  }
  /// Runs when every part is complete, outside of any matching, before the request completes
  /// at simulated time `ready`; `whole` holds the status of the last receive part.
  virtual void parts_done(Request& whole, SimTime ready) {
    (void)whole;
    (void)ready;
  }

private:
  friend Request* start_compound(World& w, Rank& r, std::shared_ptr<CompoundRequest> c,
                                 std::initializer_list<Request*> parts);
  static void part_done(Request&, void* self);
  static void finish(void* self);

  World* w_ = nullptr;
  Request* whole_ = nullptr;
  std::vector<Request*> parts_;
  int pending_ = 0;
};

/// The request of rank `r` for `parts` (started; null for none), which it owns
/// from now on, as it owns `c`. It completes (and its rank is woken) when the parts have; a
/// request freed by MPI_Request_free before that frees itself then.
Request* start_compound(World& w, Rank& r, std::shared_ptr<CompoundRequest> c,
                        std::initializer_list<Request*> parts);

} // namespace mpilite
