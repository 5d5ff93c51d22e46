#include "datatype.hpp"

#include <complex.h>
#include <wchar.h>

#include <array>
#include <cstring>
#include <memory>

namespace mpilite {
namespace {

template <class A, class B> struct Pair {
  A value;
  B index;
};

struct BuiltinSpec {
  MPI_Datatype handle;
  const char* name;
  std::size_t size;
  std::size_t align_extent;  ///< extent (sizeof the C type)
  std::vector<Block> blocks; ///< empty: one block of `size`
};

Datatype from_spec(const BuiltinSpec& s) {
  Datatype t;
  t.handle = s.handle;
  t.name = s.name;
  t.size = s.size;
  t.extent = static_cast<MPI_Aint>(s.align_extent);
  t.blocks = s.blocks.empty() ? std::vector<Block>{{0, s.size}} : s.blocks;
  t.true_lb = 0;
  t.true_extent = static_cast<MPI_Aint>(t.blocks.back().offset + t.blocks.back().length);
  t.basic = s.handle;
  t.basic_count = 1;
  t.basic_layout = true;
  t.predefined = true;
  t.committed = true;
  return t;
}

template <class A, class B> BuiltinSpec pair_spec(MPI_Datatype h, const char* name) {
  using P = Pair<A, B>;
  std::vector<Block> blocks{{offsetof(P, value), sizeof(A)}, {offsetof(P, index), sizeof(B)}};
  if (blocks[0].offset + static_cast<MPI_Aint>(blocks[0].length) == blocks[1].offset)
    blocks = {{0, sizeof(A) + sizeof(B)}};
  return {h, name, sizeof(A) + sizeof(B), sizeof(P), blocks};
}

#define MPISIM_SCALAR(h, T)                                                                        \
  BuiltinSpec {                                                                                    \
    h, #h, sizeof(T), sizeof(T), {}                                                                \
  }

std::array<std::unique_ptr<Datatype>, MPISIM_BUILTIN_TYPE_COUNT> make_builtins() {
  const BuiltinSpec specs[] = {
      MPISIM_SCALAR(MPI_CHAR, char),
      MPISIM_SCALAR(MPI_SIGNED_CHAR, signed char),
      MPISIM_SCALAR(MPI_UNSIGNED_CHAR, unsigned char),
      MPISIM_SCALAR(MPI_BYTE, unsigned char),
      MPISIM_SCALAR(MPI_WCHAR, wchar_t),
      MPISIM_SCALAR(MPI_SHORT, short),
      MPISIM_SCALAR(MPI_UNSIGNED_SHORT, unsigned short),
      MPISIM_SCALAR(MPI_INT, int),
      MPISIM_SCALAR(MPI_UNSIGNED, unsigned),
      MPISIM_SCALAR(MPI_LONG, long),
      MPISIM_SCALAR(MPI_UNSIGNED_LONG, unsigned long),
      MPISIM_SCALAR(MPI_LONG_LONG_INT, long long),
      MPISIM_SCALAR(MPI_UNSIGNED_LONG_LONG, unsigned long long),
      MPISIM_SCALAR(MPI_FLOAT, float),
      MPISIM_SCALAR(MPI_DOUBLE, double),
      MPISIM_SCALAR(MPI_LONG_DOUBLE, long double),
      MPISIM_SCALAR(MPI_C_BOOL, bool),
      MPISIM_SCALAR(MPI_INT8_T, int8_t),
      MPISIM_SCALAR(MPI_INT16_T, int16_t),
      MPISIM_SCALAR(MPI_INT32_T, int32_t),
      MPISIM_SCALAR(MPI_INT64_T, int64_t),
      MPISIM_SCALAR(MPI_UINT8_T, uint8_t),
      MPISIM_SCALAR(MPI_UINT16_T, uint16_t),
      MPISIM_SCALAR(MPI_UINT32_T, uint32_t),
      MPISIM_SCALAR(MPI_UINT64_T, uint64_t),
      MPISIM_SCALAR(MPI_C_FLOAT_COMPLEX, float _Complex),
      MPISIM_SCALAR(MPI_C_DOUBLE_COMPLEX, double _Complex),
      MPISIM_SCALAR(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
      MPISIM_SCALAR(MPI_AINT, MPI_Aint),
      MPISIM_SCALAR(MPI_OFFSET, MPI_Offset),
      MPISIM_SCALAR(MPI_COUNT, MPI_Count),
      MPISIM_SCALAR(MPI_PACKED, unsigned char),
      pair_spec<float, int>(MPI_FLOAT_INT, "MPI_FLOAT_INT"),
      pair_spec<double, int>(MPI_DOUBLE_INT, "MPI_DOUBLE_INT"),
      pair_spec<long, int>(MPI_LONG_INT, "MPI_LONG_INT"),
      pair_spec<int, int>(MPI_2INT, "MPI_2INT"),
      pair_spec<short, int>(MPI_SHORT_INT, "MPI_SHORT_INT"),
      pair_spec<long double, int>(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"),
  };
  std::array<std::unique_ptr<Datatype>, MPISIM_BUILTIN_TYPE_COUNT> table{};
  for (const BuiltinSpec& s : specs)
    table[static_cast<std::size_t>(s.handle & 0xff)] = std::make_unique<Datatype>(from_spec(s));
  return table;
}

#undef MPISIM_SCALAR

} // namespace

const Datatype* builtin_datatype(MPI_Datatype handle) {
  static const auto table = make_builtins();
  if ((handle & ~0xff) != 0x4c000000) return nullptr;
  const auto i = static_cast<std::size_t>(handle & 0xff);
  return i < table.size() ? table[i].get() : nullptr;
}

void pack(const void* buf, std::size_t count, const Datatype& type, std::byte* out) {
  const auto* base = static_cast<const std::byte*>(buf);
  if (type.contiguous()) {
    if (count * type.size > 0) std::memcpy(out, base, count * type.size);
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::byte* elem = base + static_cast<MPI_Aint>(i) * type.extent;
    for (const Block& b : type.blocks) {
      std::memcpy(out, elem + b.offset, b.length);
      out += b.length;
    }
  }
}

void unpack(const std::byte* in, std::size_t bytes, const Datatype& type, void* buf) {
  auto* base = static_cast<std::byte*>(buf);
  if (type.contiguous()) {
    if (bytes > 0) std::memcpy(base, in, bytes);
    return;
  }
  for (std::size_t i = 0; bytes > 0; ++i) {
    std::byte* elem = base + static_cast<MPI_Aint>(i) * type.extent;
    for (const Block& b : type.blocks) {
      const std::size_t n = std::min(bytes, b.length);
      std::memcpy(elem + b.offset, in, n);
      in += n;
      bytes -= n;
      if (bytes == 0) break;
    }
  }
}

Datatype make_contiguous(std::size_t count, const Datatype& old) {
  Datatype t;
  t.size = count * old.size;
  t.lb = old.lb;
  t.extent = static_cast<MPI_Aint>(count) * old.extent;
  t.true_lb = old.true_lb;
  t.true_extent =
      count == 0 ? 0 : (static_cast<MPI_Aint>(count) - 1) * old.extent + old.true_extent;
  for (std::size_t i = 0; i < count; ++i)
    for (const Block& b : old.blocks) {
      const MPI_Aint off = static_cast<MPI_Aint>(i) * old.extent + b.offset;
      if (!t.blocks.empty() &&
          t.blocks.back().offset + static_cast<MPI_Aint>(t.blocks.back().length) == off)
        t.blocks.back().length += b.length;
      else
        t.blocks.push_back({off, b.length});
    }
  t.basic = old.basic;
  t.basic_count = count * old.basic_count;
  t.basic_layout = old.basic_layout && old.lb == 0;
  return t;
}

} // namespace mpilite
