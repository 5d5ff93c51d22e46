#include "host_link.hpp"

#include <algorithm>
#include <cstdio>

#include "frames.hpp"
#include "lp_control.hpp"
#include "matching.hpp"

namespace mpisim {

using protocols::FrameKind;

HostLink::HostLink(std::unique_ptr<protocols::Transport> transport)
    : transport_(std::move(transport)) {}

void HostLink::attach(const Config& config, mpilite::World& world, const RankMap& map,
                      const NetworkModel& model) {
  const LinkCosts& network = model.costs();
  world_ = &world;
  map_ = &map;
  lps_ = std::make_unique<WorldLps>(world, map, host());
  protocols::SyncOptions o;
  o.protocol = config.protocol;
  const SimTime lookahead = model.lookahead();
  o.lookahead = lookahead;
  if (hosts() > 1) {
    std::vector<std::vector<int>> ranks;
    for (int h = 0; h < hosts(); ++h)
      ranks.push_back(map.ranks_of(h));
    o.lookahead_between.assign(ranks.size(), std::vector<SimTime>(ranks.size(), lookahead));
    for (std::size_t a = 0; a < ranks.size(); ++a)
      for (std::size_t b = 0; b < ranks.size(); ++b)
        if (a != b)
          o.lookahead_between[a][b] =
              std::max(lookahead, network.min_latency_between(ranks[a], ranks[b]));
  }
  o.quantum = config.quantum.value_or(lookahead);
  o.static_lookahead = config.lookahead == Lookahead::Static;
  sync_ = std::make_unique<protocols::Synchronizer>(*transport_, o);
}

void HostLink::send_remote(mpilite::Message* m) {
  mpilite::Envelope e = mpilite::envelope_of(*m);
  const int to = map_->host_of(m->dst);
  check_promise(to, m->ts, "a message", m->src, m->dst);
  if (m->path) { // the payload, then the path (MPISIM_CRITICAL_PATH)
    const std::byte* payload = mpilite::payload_of(*m);
    std::vector<std::byte> tail(payload, payload + e.bytes);
    m->path->encode(tail);
    e.path_bytes = static_cast<std::uint32_t>(tail.size() - e.bytes);
    sync_->send(to, FrameKind::Data, protocols::encode(e), tail);
  } else {
    sync_->send(to, FrameKind::Data, protocols::encode(e), {mpilite::payload_of(*m), e.bytes});
  }
  world_->free_message(m);
  world_->scheduler().poll_soon();
}

void HostLink::reply_remote(const mpilite::Reply& reply) {
  const int to = map_->host_of(reply.to);
  check_promise(to, reply.ts, "a reply", -1, reply.to);
  protocols::ReplyFrame f{reply.to, reply.request, reply.ts, {}};
  if (reply.path) reply.path->encode(f.path);
  sync_->send(to, FrameKind::Reply, protocols::encode(f));
  world_->scheduler().poll_soon();
}

void HostLink::transfer_remote(const mpilite::Transfer& t) {
  const int rank = t.clear_to_send ? t.data.src : t.data.dst;
  const int to = map_->host_of(rank);
  check_promise(to, t.ts, t.clear_to_send ? "a clear-to-send" : "rendezvous data", t.data.src,
                t.data.dst);
  sync_->send(to, FrameKind::Transfer, protocols::encode(t));
  world_->scheduler().poll_soon();
}

void HostLink::check_promise(int to, SimTime ts, const char* what, int src, int dst) {
  // A frame below a promised bound would make the other host's decisions wrong: never send one
  // silently.
  if (ts >= sync_->promised(to)) return;
  std::fprintf(stderr,
               "mpisim: internal error: host %d sends %s (rank %d to %d, ts %lld ps) below the "
               "bound it promised host %d (%lld ps)\n",
               host(), what, src, dst, static_cast<long long>(ts), to,
               static_cast<long long>(sync_->promised(to)));
  transport_->abort_all(70);
}

void HostLink::on_data(int, std::span<const std::byte> body) {
  std::span<const std::byte> payload;
  const protocols::DataHeader h = protocols::decode_data(body, payload);
  if (h.protocol > static_cast<std::uint8_t>(mpilite::SendProtocol::Buffered))
    throw protocols::WireError("a message of unknown send protocol between host processes");
  mpilite::deliver_from_host(*world_, h, payload);
}

void HostLink::on_reply(int, std::span<const std::byte> body) {
  const protocols::ReplyFrame r = protocols::decode_reply(body);
  mpilite::Reply reply{r.to, r.request, r.ts, nullptr};
  if (!r.path.empty())
    reply.path = std::make_shared<const mpilite::CritPath>(
        mpilite::CritPath::decode(r.path, "a reply from another host process"));
  mpilite::reply_from_host(*world_, reply);
}

void HostLink::on_transfer(int, std::span<const std::byte> body) {
  mpilite::transfer_from_host(*world_, protocols::decode_transfer(body));
}

void HostLink::poll() {
  sync_->poll(*this);
}

bool HostLink::idle(const std::function<mpilite::HeldBack()>& network) {
  end_ = sync_->idle(*lps_, *this, network);
  return end_ == mpilite::RunEnd::None;
}

} // namespace mpisim
