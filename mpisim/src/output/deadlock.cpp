#include "deadlock.hpp"

#include <string.h>

#include <fmt/format.h>

namespace mpisim {
namespace {

std::string comm_name(mpilite::World& w, MPI_Comm h) {
  if (const mpilite::Comm* c = w.comm(h)) return c->label();
  return fmt::format("{:#x}", static_cast<unsigned>(h));
}

std::string peer_text(int peer) {
  if (peer == MPI_ANY_SOURCE) return "MPI_ANY_SOURCE";
  if (peer == MPI_PROC_NULL) return "MPI_PROC_NULL";
  return std::to_string(peer);
}

} // namespace

std::vector<std::string> describe_blocked_ranks(mpilite::World& world) {
  std::vector<std::string> lines;
  for (const auto& r : world.ranks()) {
    if (r->task.state == mpilite::TaskState::Done) continue;
    const mpilite::CallInfo& c = r->call;
    if (!c.name) {
      lines.push_back(fmt::format("rank {}: blocked outside MPI", r->id));
      continue;
    }
    std::string args;
    if (c.has_peer) {
      const bool receives = strcasestr(c.name, "recv") || strcasestr(c.name, "probe");
      args = fmt::format("{}={}, tag={}, ", receives ? "source" : "dest", peer_text(c.peer),
                         c.tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(c.tag));
    }
    if (c.comm != MPI_COMM_NULL) args += "comm=" + comm_name(world, c.comm);
    lines.push_back(fmt::format("rank {}: blocked in {}({}) at simulated time {:.9f} s", r->id,
                                c.name, args, mpilite::time_to_seconds(r->clock)));
  }
  return lines;
}

} // namespace mpisim
