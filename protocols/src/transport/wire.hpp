// The one encoding of everything that crosses between host processes: fixed-width integers in
// little-endian order, field by field, so that no struct padding or host layout reaches the wire.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::protocols {

/// A frame or a message that does not decode: truncated, or a field out of range.
class WireError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Appends fields to a byte buffer.
class WireWriter {
public:
  explicit WireWriter(std::vector<std::byte>& out) : out_(out) {}
  void u8(std::uint8_t v) { out_.push_back(static_cast<std::byte>(v)); }
  void u32(std::uint32_t v) { fixed(v, 4); }
  void u64(std::uint64_t v) { fixed(v, 8); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void f64(double v);
  /// A length (u64) and the bytes.
  void text(std::string_view s);
  /// Raw bytes, without a length (the frame's remainder).
  void bytes(const void* p, std::size_t n);

private:
  void fixed(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      out_.push_back(static_cast<std::byte>(v >> (8 * i)));
  }
  std::vector<std::byte>& out_;
};

/// Reads fields back; every read checks the remaining length and throws WireError naming
/// `what` (the kind of frame) when it is short.
class WireReader {
public:
  WireReader(std::span<const std::byte> in, const char* what) : in_(in), what_(what) {}
  std::uint8_t u8() { return static_cast<std::uint8_t>(fixed(1)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(fixed(4)); }
  std::uint64_t u64() { return fixed(8); }
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  bool boolean();
  double f64();
  std::string text();
  /// The next `n` bytes, in place.
  std::span<const std::byte> bytes(std::size_t n);
  std::size_t remaining() const { return in_.size() - at_; }
  /// Throws unless everything was read: a longer frame than expected is as wrong as a shorter.
  void finish() const;

private:
  std::uint64_t fixed(int n);
  void need(std::size_t n) const;
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
  const char* what_;
};

} // namespace mpisim::protocols
