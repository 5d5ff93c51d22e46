#include "frames.hpp"

namespace mpisim::protocols {

std::vector<std::byte> encode(const NullFrame& f) {
  std::vector<std::byte> out;
  WireWriter w(out);
  w.i64(f.value);
  w.boolean(f.wants);
  w.u64(f.round);
  w.i64(f.need);
  return out;
}

NullFrame decode_null(std::span<const std::byte> body) {
  WireReader r(body, "null message");
  NullFrame f;
  f.value = r.i64();
  f.wants = r.boolean();
  f.round = r.u64();
  f.need = r.i64();
  r.finish();
  return f;
}

std::vector<std::byte> encode(const ReportFrame& f) {
  std::vector<std::byte> out;
  WireWriter w(out);
  w.u64(f.epoch);
  w.i64(f.summary.k_min);
  w.i64(f.summary.k_arg);
  w.i64(f.summary.k_second);
  w.i64(f.summary.not_done);
  w.boolean(f.summary.needs_bound);
  w.u64(f.summary.activity);
  w.u32(static_cast<std::uint32_t>(f.sent.size()));
  for (auto v : f.sent)
    w.u64(v);
  for (auto v : f.received)
    w.u64(v);
  return out;
}

ReportFrame decode_report(std::span<const std::byte> body, int hosts) {
  WireReader r(body, "report");
  ReportFrame f;
  f.epoch = r.u64();
  f.summary.k_min = r.i64();
  f.summary.k_arg = r.i64();
  f.summary.k_second = r.i64();
  f.summary.not_done = r.i64();
  f.summary.needs_bound = r.boolean();
  f.summary.activity = r.u64();
  const auto n = r.u32();
  if (n != static_cast<std::uint32_t>(hosts))
    throw WireError("a report for " + std::to_string(n) + " hosts among " + std::to_string(hosts));
  for (std::uint32_t i = 0; i < n; ++i)
    f.sent.push_back(r.u64());
  for (std::uint32_t i = 0; i < n; ++i)
    f.received.push_back(r.u64());
  r.finish();
  return f;
}

std::vector<std::byte> encode(const Decision& f) {
  std::vector<std::byte> out;
  WireWriter w(out);
  w.u8(static_cast<std::uint8_t>(f.kind));
  w.u64(f.epoch);
  w.i64(f.g);
  w.i64(f.g2);
  w.i64(f.arg);
  w.i64(f.window);
  w.i64(f.alone);
  w.u32(static_cast<std::uint32_t>(f.activity_of_host.size()));
  for (std::uint64_t a : f.activity_of_host)
    w.u64(a);
  w.u32(static_cast<std::uint32_t>(f.k_of_host.size()));
  for (SimTime k : f.k_of_host)
    w.i64(k);
  return out;
}

Decision decode_decision(std::span<const std::byte> body) {
  WireReader r(body, "decision");
  Decision f;
  const auto kind = r.u8();
  if (kind > static_cast<std::uint8_t>(Decision::Kind::Finish))
    throw WireError("a decision of unknown kind between host processes");
  f.kind = static_cast<Decision::Kind>(kind);
  f.epoch = r.u64();
  f.g = r.i64();
  f.g2 = r.i64();
  f.arg = r.i64();
  f.window = r.i64();
  f.alone = r.i64();
  for (auto m = r.u32(); m > 0; --m)
    f.activity_of_host.push_back(r.u64());
  const auto n = r.u32();
  for (std::uint32_t i = 0; i < n; ++i)
    f.k_of_host.push_back(r.i64());
  r.finish();
  return f;
}

std::vector<std::byte> encode(const ReplyFrame& f) {
  std::vector<std::byte> out;
  WireWriter w(out);
  w.i32(f.to);
  w.u64(f.request);
  w.i64(f.ts);
  w.u32(static_cast<std::uint32_t>(f.path.size()));
  w.bytes(f.path.data(), f.path.size());
  return out;
}

ReplyFrame decode_reply(std::span<const std::byte> body) {
  WireReader r(body, "reply");
  ReplyFrame f;
  f.to = r.i32();
  f.request = r.u64();
  f.ts = r.i64();
  const std::span<const std::byte> path = r.bytes(r.u32());
  f.path.assign(path.begin(), path.end());
  r.finish();
  return f;
}

std::vector<std::byte> encode(const mpilite::Transfer& f) {
  std::vector<std::byte> out;
  WireWriter w(out);
  const mpilite::DataTransfer& d = f.data;
  w.i32(d.src);
  w.i32(d.dst);
  w.u64(d.recv_request);
  w.u64(d.reply_to);
  w.u64(d.seq);
  w.u64(d.bytes);
  w.i64(d.start);
  w.u8(static_cast<std::uint8_t>((f.clear_to_send ? 1 : 0) | (f.pending ? 2 : 0)));
  w.i64(f.ts);
  w.boolean(d.path != nullptr);
  if (d.path) {
    w.u32(static_cast<std::uint32_t>(d.path->start.size()));
    w.bytes(d.path->start.data(), d.path->start.size());
    w.i64(d.path->latency);
    w.i64(d.path->transfer);
  }
  return out;
}

mpilite::Transfer decode_transfer(std::span<const std::byte> body) {
  WireReader r(body, "transfer");
  mpilite::Transfer f;
  mpilite::DataTransfer& d = f.data;
  d.src = r.i32();
  d.dst = r.i32();
  d.recv_request = r.u64();
  d.reply_to = r.u64();
  d.seq = r.u64();
  d.bytes = r.u64();
  d.start = r.i64();
  const std::uint8_t flags = r.u8();
  f.clear_to_send = (flags & 1) != 0;
  f.pending = (flags & 2) != 0;
  f.ts = r.i64();
  if (r.boolean()) {
    d.path = std::make_shared<mpilite::DataPath>();
    const std::span<const std::byte> start = r.bytes(r.u32());
    d.path->start.assign(start.begin(), start.end());
    d.path->latency = r.i64();
    d.path->transfer = r.i64();
  }
  r.finish();
  return f;
}

std::vector<std::byte> encode(const DataHeader& h) {
  std::vector<std::byte> out;
  out.reserve(54);
  WireWriter w(out);
  w.i32(h.src);
  w.i32(h.dst);
  w.i32(h.context);
  w.i32(h.tag);
  w.u64(h.seq);
  w.i64(h.ts);
  w.u64(h.bytes);
  w.u64(h.reply_to);
  w.u8(h.protocol);
  w.i32(h.partitions);
  w.u8(h.pending ? 1 : 0);
  w.u32(h.path_bytes);
  return out;
}

DataHeader decode_data(std::span<const std::byte> body, std::span<const std::byte>& payload) {
  WireReader r(body, "message");
  DataHeader h;
  h.src = r.i32();
  h.dst = r.i32();
  h.context = r.i32();
  h.tag = r.i32();
  h.seq = r.u64();
  h.ts = r.i64();
  h.bytes = r.u64();
  h.reply_to = r.u64();
  h.protocol = r.u8();
  h.partitions = r.i32();
  h.pending = r.u8() != 0;
  h.path_bytes = r.u32();
  payload = r.bytes(h.bytes);
  // The critical path follows the payload: the span holds both.
  if (h.path_bytes) payload = {payload.data(), h.bytes + r.bytes(h.path_bytes).size()};
  r.finish();
  return h;
}

} // namespace mpisim::protocols
