// The wire codec of the frames between host processes: every frame decodes to what was encoded,
// with no byte of host layout on the wire, and a short or long frame is refused.
#include <gtest/gtest.h>

#include <memory>

#include "frames.hpp"

namespace {

using namespace mpisim::protocols;

TEST(Wire, DataFrameRoundTripsFieldByField) {
  DataHeader h;
  h.src = 3;
  h.dst = -7;
  h.context = 0x12345678;
  h.partitions = 12;
  h.tag = -1;
  h.seq = 0x0102030405060708ull;
  h.ts = -42;
  h.bytes = 5;
  h.reply_to = 99;
  h.protocol = 2;
  h.pending = true;
  const char payload[] = "hello";
  auto body = encode(h);
  body.insert(body.end(), reinterpret_cast<const std::byte*>(payload),
              reinterpret_cast<const std::byte*>(payload) + 5);
  // Little-endian fields, no padding: 4 x 4 + 8 x 4 + 1 + 4 + 1 + 4 bytes of header.
  ASSERT_EQ(body.size(), 58u + 5u);
  EXPECT_EQ(body[0], std::byte{3});
  EXPECT_EQ(body[12], std::byte{0xff});
  EXPECT_EQ(body[16], std::byte{0x08});
  std::span<const std::byte> got;
  const DataHeader d = decode_data(body, got);
  EXPECT_EQ(d.src, 3);
  EXPECT_EQ(d.dst, -7);
  EXPECT_EQ(d.context, 0x12345678);
  EXPECT_EQ(d.partitions, 12);
  EXPECT_EQ(d.tag, -1);
  EXPECT_EQ(d.seq, 0x0102030405060708ull);
  EXPECT_EQ(d.ts, -42);
  EXPECT_EQ(d.reply_to, 99u);
  EXPECT_EQ(d.protocol, 2);
  EXPECT_TRUE(d.pending);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(got.data()), got.size()), "hello");
}

TEST(Wire, ProtocolFramesRoundTrip) {
  const NullFrame n{123456789, true, 42, 987654321};
  const auto nb = decode_null(encode(n));
  EXPECT_EQ(nb.value, 123456789);
  EXPECT_TRUE(nb.wants);
  EXPECT_EQ(nb.round, 42u);
  EXPECT_EQ(nb.need, 987654321);

  ReportFrame r;
  r.epoch = 4;
  r.summary = {10, 3, 20, 5, true, 0x1122334455667788ull};
  r.sent = {1, 2, 3};
  r.received = {4, 5, 6};
  EXPECT_EQ(decode_report(encode(r), 3), r);
  EXPECT_THROW(decode_report(encode(r), 4), WireError);

  Decision d;
  d.kind = Decision::Kind::Window;
  d.epoch = 9;
  d.g = 1;
  d.g2 = 2;
  d.arg = 3;
  d.window = 77;
  d.k_of_host = {5, kTimeInfinity, 8};
  d.alone = 6;
  d.activity_of_host = {11, 0, 0xffffffffffull};
  const Decision e = decode_decision(encode(d));
  EXPECT_EQ(e.k_of_host, d.k_of_host);
  EXPECT_EQ(e.alone, 6);
  EXPECT_EQ(e.activity_of_host, d.activity_of_host);
  EXPECT_EQ(e.kind, Decision::Kind::Window);
  EXPECT_EQ(e.epoch, 9u);
  EXPECT_EQ(e.window, 77);
  EXPECT_EQ(e.arg, 3);

  const ReplyFrame rep{5, 6, 7, {std::byte{1}, std::byte{2}}};
  const ReplyFrame q = decode_reply(encode(rep));
  EXPECT_EQ(q.to, 5);
  EXPECT_EQ(q.request, 6u);
  EXPECT_EQ(q.ts, 7);
  EXPECT_EQ(q.path, rep.path); // a critical path's bytes, carried as they are

  // A rendezvous's data planned at the sender's host, still to be delivered by the receiver's.
  const auto path = std::make_shared<mpilite::DataPath>(
      mpilite::DataPath{{std::byte{3}, std::byte{4}, std::byte{5}}, 60, 70});
  const mpilite::Transfer t{{4, 9, 11, 12, 13, 1u << 20, 500, path}, false, true, 900};
  const mpilite::Transfer u = decode_transfer(encode(t));
  EXPECT_EQ(u.data.src, 4);
  EXPECT_EQ(u.data.dst, 9);
  EXPECT_EQ(u.data.recv_request, 11u);
  EXPECT_EQ(u.data.reply_to, 12u);
  EXPECT_EQ(u.data.seq, 13u);
  EXPECT_EQ(u.data.bytes, 1u << 20);
  EXPECT_EQ(u.data.start, 500);
  EXPECT_FALSE(u.clear_to_send);
  EXPECT_TRUE(u.pending);
  EXPECT_EQ(u.ts, 900);
  ASSERT_TRUE(u.data.path);
  EXPECT_EQ(u.data.path->start, path->start);
  EXPECT_EQ(u.data.path->latency, 60);
  EXPECT_EQ(u.data.path->transfer, 70);
  EXPECT_TRUE(decode_transfer(encode(mpilite::Transfer{{}, true, false, 1})).clear_to_send);
}

TEST(Wire, ShortLongAndBadFramesAreRefused) {
  auto body = encode(NullFrame{1, false});
  body.pop_back();
  EXPECT_THROW(decode_null(body), WireError);
  body = encode(NullFrame{1, false});
  body.push_back(std::byte{0});
  EXPECT_THROW(decode_null(body), WireError);
  body = encode(NullFrame{1, false});
  body[8] = std::byte{2}; // the flag after the 8-byte value: neither false nor true
  EXPECT_THROW(decode_null(body), WireError);
  Decision d;
  auto db = encode(d);
  db[0] = std::byte{9};
  EXPECT_THROW(decode_decision(db), WireError);
  DataHeader h;
  h.bytes = 1000; // claims more payload than the frame holds
  const std::string payload(1000, 'x');
  auto data = encode(h);
  data.resize(data.size() + 10);
  std::span<const std::byte> p;
  EXPECT_THROW(decode_data(data, p), WireError);
}

} // namespace
