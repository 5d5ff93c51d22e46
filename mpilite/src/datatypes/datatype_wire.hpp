// A datatype's layout as bytes, so that a rank of another host process can place data with it:
// one-sided operations carry their target datatype this way (handles are per host process).
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "datatype.hpp"

namespace mpilite {

/// Appends the bytes of a trivially copyable `value` to `out`.
template <class T> void append_bytes(std::vector<std::byte>& out, const T& value) {
  // resize + memcpy rather than insert: GCC 12 warns falsely (-Wstringop-overflow) on a range
  // insert into an empty vector.
  const std::size_t at = out.size();
  out.resize(at + sizeof value);
  std::memcpy(out.data() + at, &value, sizeof value);
}

/// Appends the layout of `type` (bounds, sizes, basic type, type map) to `out`.
void encode_layout(const Datatype& type, std::vector<std::byte>& out);
/// Reads a layout written by encode_layout at `in`; `used` gets the bytes it took. The result
/// has no handle: it places and packs data, nothing else.
Datatype decode_layout(const std::byte* in, std::size_t& used);
/// How many bytes the layout at `in` takes, or 0 if that is more than the `available` bytes (a
/// layout from outside the run, cut short).
std::size_t layout_bytes(const std::byte* in, std::size_t available);
/// Why a layout from outside the run (decoded from a record) cannot be used, or "" when it can:
/// its tree must be well formed, its bytes add up to its size, and every byte it reaches lie
/// within its true bounds, so that packing with it stays inside the data its bounds promise.
std::string unsound_layout(const Datatype& type);

} // namespace mpilite
