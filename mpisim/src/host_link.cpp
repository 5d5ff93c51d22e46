#include "host_link.hpp"

#include <cstdio>

#include "frames.hpp"
#include "lp_control.hpp"
#include "matching.hpp"

namespace mpisim {

using protocols::FrameKind;

HostLink::HostLink(std::unique_ptr<protocols::Transport> transport)
    : transport_(std::move(transport)) {}

void HostLink::attach(const Config& config, mpilite::World& world, const RankMap& map,
                      SimTime lookahead) {
  world_ = &world;
  map_ = &map;
  lps_ = std::make_unique<WorldLps>(world, map, host());
  protocols::SyncOptions o;
  o.protocol = config.protocol;
  o.lookahead = lookahead;
  o.quantum = config.quantum.value_or(lookahead);
  o.static_lookahead = config.lookahead == Lookahead::Static;
  sync_ = std::make_unique<protocols::Synchronizer>(*transport_, o);
}

void HostLink::send_message(mpilite::Message* m) {
  const mpilite::Envelope e = mpilite::envelope_of(*m);
  const protocols::DataHeader h{e.src,       e.dst,      e.context,
                                e.tag,       e.seq,      e.ts,
                                e.bytes,     e.reply_to, static_cast<std::uint8_t>(e.protocol),
                                e.partitions};
  const int to = map_->host_of(m->dst);
  // A message below a promised bound would make the other host's decisions wrong: never send
  // one silently.
  if (m->ts < sync_->promised(to)) {
    std::fprintf(
        stderr,
        "mpisim: internal error: host %d sends a message (rank %d to %d, ts %lld ps) below "
        "the bound it promised host %d (%lld ps)\n",
        host(), m->src, m->dst, static_cast<long long>(m->ts), to,
        static_cast<long long>(sync_->promised(to)));
    transport_->abort_all(70);
  }
  sync_->send(to, FrameKind::Data, protocols::encode(h, mpilite::payload_of(*m)));
  world_->free_message(m);
}

void HostLink::send_reply(const mpilite::Reply& reply) {
  sync_->send(map_->host_of(reply.to), FrameKind::Reply,
              protocols::encode(protocols::ReplyFrame{reply.to, reply.request, reply.ts}));
}

void HostLink::on_data(int, std::span<const std::byte> body) {
  std::span<const std::byte> payload;
  const protocols::DataHeader h = protocols::decode_data(body, payload);
  if (h.protocol > static_cast<std::uint8_t>(mpilite::SendProtocol::Buffered))
    throw protocols::WireError("a message of unknown send protocol between host processes");
  mpilite::deliver_from_host(*world_,
                             {h.src, h.dst, h.context, h.tag, h.seq, h.ts, h.bytes, h.reply_to,
                              static_cast<mpilite::SendProtocol>(h.protocol), h.partitions},
                             payload);
}

void HostLink::on_reply(int, std::span<const std::byte> body) {
  const protocols::ReplyFrame r = protocols::decode_reply(body);
  mpilite::complete_reply(*world_, {r.to, r.request, r.ts});
}

void HostLink::poll() {
  sync_->poll(*this);
}

bool HostLink::idle(SimTime held) {
  switch (sync_->idle(*lps_, *this, held)) {
  case protocols::Synchronizer::Outcome::Progress:
    return true;
  case protocols::Synchronizer::Outcome::Finish:
    end_ = End::Finish;
    return false;
  case protocols::Synchronizer::Outcome::Deadlock:
    end_ = End::Deadlock;
    return false;
  }
  return false;
}

} // namespace mpisim
