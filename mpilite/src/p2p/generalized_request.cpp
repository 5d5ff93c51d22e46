#include "generalized_request.hpp"

#include <unordered_map>

#include "world.hpp"

namespace mpilite {
namespace {

/// The callbacks of the generalized requests of this host process (requests stay put).
std::unordered_map<const Request*, GeneralizedCallbacks>& registry() {
  static std::unordered_map<const Request*, GeneralizedCallbacks> callbacks;
  return callbacks;
}

} // namespace

Request* start_generalized(World& w, Rank& r, const GeneralizedCallbacks& callbacks) {
  Request* q = w.new_request(r, RequestKind::Recv);
  q->status.MPI_SOURCE = MPI_UNDEFINED;
  q->status.MPI_TAG = MPI_UNDEFINED;
  registry()[q] = callbacks;
  return q;
}

const GeneralizedCallbacks* generalized(const Request& q) {
  if (registry().empty()) return nullptr; // the common case: one test
  const auto it = registry().find(&q);
  return it == registry().end() ? nullptr : &it->second;
}

void complete_generalized(World& w, Request& q, SimTime at) {
  GeneralizedCallbacks& cb = registry().at(&q);
  if (cb.freed) {
    registry().erase(&q);
    w.free_request(&q);
    return;
  }
  mark_complete(q, at);
  w.scheduler().wake(q.owner->task);
}

void query_generalized(Request& q) {
  const GeneralizedCallbacks& cb = registry().at(&q);
  MPI_Status s = q.status;
  s.MPI_ERROR = MPI_SUCCESS;
  const int e = cb.query ? cb.query(cb.extra_state, &s) : MPI_SUCCESS;
  if (e != MPI_SUCCESS) s.MPI_ERROR = e;
  q.status = s;
}

void release_generalized(Request& q) {
  const auto it = registry().find(&q);
  const GeneralizedCallbacks cb = it->second;
  registry().erase(it);
  if (cb.free && !cb.freed) cb.free(cb.extra_state);
}

void free_generalized_early(Request& q) {
  GeneralizedCallbacks& cb = registry().at(&q);
  if (cb.free && !cb.freed) cb.free(cb.extra_state);
  cb.freed = true;
}

} // namespace mpilite
