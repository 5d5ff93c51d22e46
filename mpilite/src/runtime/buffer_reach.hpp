// Where a typed buffer that may lie in another rank's parked stack is read or written now.
#pragma once

#include <cstddef>

#include "datatype.hpp"
#include "scheduler.hpp"

namespace mpilite {

/// The address at which `count` elements of `type` at `buf`, of the rank whose fiber is `owner`,
/// are reached now: in the copy of a
/// parked stack they lie in (stack copying), else `buf` (Scheduler::reach). Use it for one
/// access and do not keep it: the stack may be brought back, or parked into a new copy, later.
template <class Buffer>
Buffer reach(Scheduler& sched, const Task& owner, Buffer buf, std::size_t count,
             const Datatype& type) {
  const auto [lo, hi] = type.data_span(count);
  return static_cast<Buffer>(sched.reach(owner, buf, lo, hi));
}

} // namespace mpilite
