#include "collectives.hpp"

#include <memory>
#include <utility>

namespace mpilite {

void barrier(World& w, Rank& r, const Comm& c) {
  auto s = std::make_shared<Schedule>(w, r, c);
  s->set_body(build_barrier(*s));
  run_schedule(w, r, std::move(s));
}

void bcast(World& w, Rank& r, void* buf, std::size_t count, const Datatype& type, int root,
           const Comm& c) {
  auto s = std::make_shared<Schedule>(w, r, c);
  s->set_body(build_bcast(*s, buf, count, type, root));
  run_schedule(w, r, std::move(s));
}

int reduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
           const Datatype& type, const Op& op, int root, const Comm& c) {
  auto s = std::make_shared<Schedule>(w, r, c);
  s->set_op(op);
  s->set_body(build_reduce(*s, sendbuf, recvbuf, count, type, root));
  return run_schedule(w, r, std::move(s));
}

int allreduce(World& w, Rank& r, const void* sendbuf, void* recvbuf, std::size_t count,
              const Datatype& type, const Op& op, const Comm& c) {
  auto s = std::make_shared<Schedule>(w, r, c);
  s->set_op(op);
  s->set_body(build_allreduce(*s, sendbuf, recvbuf, count, type));
  return run_schedule(w, r, std::move(s));
}

} // namespace mpilite
