// external32 conversion, element by element along the type map: each basic element is
// converted by the rule of its predefined type (a byte swap of each part, or a change of size).
#include "external32.hpp"

#include <algorithm>
#include <cstring>

namespace mpilite {
namespace {

/// How one predefined type converts.
enum class Rule {
  Swap,     ///< same size: reverse the bytes of each of `parts` parts
  Signed,   ///< a wider native integer whose low bytes are kept, sign-extended back
  Unsigned, ///< the same, zero-extended back
  Quad,     ///< x87 long double, as IEEE binary128
};

struct Form {
  std::size_t size = 0; ///< external32 bytes; 0: no external32 form
  Rule rule = Rule::Swap;
  std::size_t parts = 1; ///< complex numbers: 2
};

Form form_of(MPI_Datatype t) {
  switch (t) {
  // The standard's table gives C long 4 bytes and wchar_t 2, narrower than on LP64 Linux.
  case MPI_LONG:
    return {4, Rule::Signed};
  case MPI_UNSIGNED_LONG:
    return {4, Rule::Unsigned};
  case MPI_WCHAR:
    return {2, Rule::Unsigned};
  case MPI_LONG_DOUBLE:
    return {16, Rule::Quad};
  case MPI_C_LONG_DOUBLE_COMPLEX:
  case MPI_CXX_LONG_DOUBLE_COMPLEX:
    return {32, Rule::Quad, 2};
  case MPI_C_FLOAT_COMPLEX:
  case MPI_C_DOUBLE_COMPLEX:
  case MPI_CXX_FLOAT_COMPLEX:
  case MPI_CXX_DOUBLE_COMPLEX:
  case MPI_COMPLEX:
  case MPI_DOUBLE_COMPLEX:
  case MPI_COMPLEX8:
  case MPI_COMPLEX16:
  case MPI_COMPLEX32:
    return {builtin_datatype(t)->size, Rule::Swap, 2};
  default: {
    const Datatype* b = builtin_datatype(t);
    return b && b->size > 0 ? Form{b->size} : Form{};
  }
  }
}

void reverse_parts(const std::byte* from, std::byte* to, std::size_t size, std::size_t parts) {
  const std::size_t part = size / parts;
  for (std::size_t p = 0; p < size; p += part)
    std::reverse_copy(from + p, from + p + part, to + p);
}

/// Converts one element of native size `native` at `from` into external32 at `to`.
void to_external(const std::byte* from, std::byte* to, std::size_t native, const Form& f) {
  switch (f.rule) {
  case Rule::Swap:
    reverse_parts(from, to, f.size, f.parts);
    break;
  case Rule::Signed:
  case Rule::Unsigned:
    std::reverse_copy(from, from + f.size, to);
    break; // the low bytes
  case Rule::Quad:
    for (std::size_t p = 0; p < f.parts; ++p) {
      long double x;
      std::memcpy(&x, from + p * native / f.parts, sizeof x);
      const __float128 q = x;
      reverse_parts(reinterpret_cast<const std::byte*>(&q), to + p * 16, 16, 1);
    }
    break;
  }
}

/// Converts one external32 element at `from` into native size `native` at `to`.
void from_external(const std::byte* from, std::byte* to, std::size_t native, const Form& f) {
  switch (f.rule) {
  case Rule::Swap:
    reverse_parts(from, to, f.size, f.parts);
    break;
  case Rule::Signed:
  case Rule::Unsigned: {
    const bool negative = f.rule == Rule::Signed && (std::to_integer<unsigned>(from[0]) & 0x80);
    std::fill(to + f.size, to + native, negative ? std::byte{0xff} : std::byte{0});
    std::reverse_copy(from, from + f.size, to);
    break;
  }
  case Rule::Quad:
    for (std::size_t p = 0; p < f.parts; ++p) {
      __float128 q;
      reverse_parts(from + p * 16, reinterpret_cast<std::byte*>(&q), 16, 1);
      const long double x = static_cast<long double>(q);
      std::memcpy(to + p * native / f.parts, &x, sizeof x);
    }
    break;
  }
}

/// Calls convert(native element, external element, native size, form) for every basic element
/// of `count` elements of `type` at `buf`, the external ones consecutive from `external`.
template <class Convert>
void each_element(const void* buf, std::size_t count, const Datatype& type, std::byte* external,
                  Convert&& convert) {
  for_each_leaf(buf, count, type, [&](MPI_Aint at, const Node& leaf) {
    const Form f = form_of(leaf.elem_type);
    auto* native = reinterpret_cast<std::byte*>(at);
    for (std::size_t k = 0; k < leaf.size; k += leaf.elem_size, external += f.size)
      convert(native + k, external, leaf.elem_size, f);
  });
}

} // namespace

std::optional<std::size_t> external32_size(const Datatype& type) {
  std::size_t bytes = 0;
  bool convertible = true;
  for_each_leaf(nullptr, 1, type, [&](MPI_Aint, const Node& leaf) {
    const std::size_t size = form_of(leaf.elem_type).size;
    convertible = convertible && size > 0;
    bytes += leaf.size / leaf.elem_size * size;
  });
  if (!convertible) return std::nullopt;
  return bytes;
}

void pack_external32(const void* buf, std::size_t count, const Datatype& type, std::byte* out) {
  each_element(buf, count, type, out,
               [](std::byte* native, std::byte* ext, std::size_t n, const Form& f) {
                 to_external(native, ext, n, f);
               });
}

void unpack_external32(const std::byte* in, std::size_t count, const Datatype& type, void* buf) {
  each_element(buf, count, type, const_cast<std::byte*>(in),
               [](std::byte* native, std::byte* ext, std::size_t n, const Form& f) {
                 from_external(ext, native, n, f);
               });
}

} // namespace mpilite
