// The "external32" data representation (MPI-3.1 section 13.5.2): big-endian, IEEE formats, and
// the fixed sizes of the standard's table, whatever the host's.
#pragma once

#include <cstddef>
#include <optional>

#include "datatype.hpp"

namespace mpilite {

/// Bytes of one element of `type` in external32; none when a predefined type it holds has no
/// external32 form.
std::optional<std::size_t> external32_size(const Datatype& type);

/// Writes `count` elements of `type` at `buf` to `out` in external32 (count *
/// external32_size(type) bytes).
void pack_external32(const void* buf, std::size_t count, const Datatype& type, std::byte* out);

/// Reads `count` elements of `type` from external32 at `in` into `buf`.
void unpack_external32(const std::byte* in, std::size_t count, const Datatype& type, void* buf);

} // namespace mpilite
