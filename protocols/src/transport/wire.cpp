#include "wire.hpp"

#include <bit>
#include <string>

namespace mpisim::protocols {

void WireWriter::f64(double v) {
  u64(std::bit_cast<std::uint64_t>(v));
}

void WireWriter::text(std::string_view s) {
  u64(s.size());
  bytes(s.data(), s.size());
}

void WireWriter::bytes(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::byte*>(p);
  out_.insert(out_.end(), b, b + n);
}

void WireReader::need(std::size_t n) const {
  if (n > in_.size() - at_)
    throw WireError(std::string("truncated ") + what_ + " between host processes");
}

std::uint64_t WireReader::fixed(int n) {
  need(static_cast<std::size_t>(n));
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i)
    v |= static_cast<std::uint64_t>(in_[at_ + static_cast<std::size_t>(i)]) << (8 * i);
  at_ += static_cast<std::size_t>(n);
  return v;
}

bool WireReader::boolean() {
  const auto v = u8();
  if (v > 1) throw WireError(std::string("bad flag in ") + what_ + " between host processes");
  return v == 1;
}

double WireReader::f64() {
  return std::bit_cast<double>(u64());
}

std::string WireReader::text() {
  const auto n = u64();
  const auto b = bytes(n);
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

std::span<const std::byte> WireReader::bytes(std::size_t n) {
  need(n);
  const auto b = in_.subspan(at_, n);
  at_ += n;
  return b;
}

void WireReader::finish() const {
  if (at_ != in_.size())
    throw WireError(std::string("over-long ") + what_ + " between host processes");
}

} // namespace mpisim::protocols
