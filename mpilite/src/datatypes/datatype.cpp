#include "datatype.hpp"

#include <complex.h>
#include <wchar.h>

#include <array>
#include <complex>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace mpilite {
namespace {

template <class A, class B> struct Pair {
  A value;
  B index;
};

Datatype scalar(MPI_Datatype h, std::size_t size, std::size_t align) {
  Datatype t;
  t.size = size;
  t.extent = static_cast<MPI_Aint>(size);
  t.true_extent = t.extent;
  t.align = align;
  t.elements = 1;
  t.dense = true;
  Node leaf;
  leaf.size = size;
  leaf.elements = 1;
  leaf.elem_size = static_cast<std::uint32_t>(size);
  leaf.elem_type = h;
  t.map = std::make_shared<const TypeMap>(TypeMap{leaf});
  t.basic = h;
  return t;
}

/// MPI_LB and MPI_UB: no data, only a marked bound at displacement 0.
Datatype marker(bool upper) {
  Datatype t;
  t.lb_marked = !upper;
  t.ub_marked = upper;
  t.map = std::make_shared<const TypeMap>();
  return t;
}

// The pair types are the structs MPI-3.1 section 5.9.4 defines them as; the struct padding
// rule must reproduce the C layout, which is checked.
template <class A, class B>
Datatype pair(const Datatype& value, const Datatype& index, const char* name) {
  using P = Pair<A, B>;
  Datatype t = make_struct({1, 1}, {offsetof(P, value), offsetof(P, index)}, {&value, &index});
  if (t.extent != static_cast<MPI_Aint>(sizeof(P)))
    throw std::logic_error(std::string("struct padding does not reproduce the layout of ") + name);
  return t;
}

std::array<std::unique_ptr<Datatype>, MPISIM_BUILTIN_TYPE_COUNT> make_builtins() {
  std::array<std::unique_ptr<Datatype>, MPISIM_BUILTIN_TYPE_COUNT> table{};
  auto put = [&](MPI_Datatype h, const char* name, Datatype t) {
    t.handle = h;
    t.name = name;
    t.predefined = true;
    t.committed = true;
    if (t.size > 0) {
      t.basic = h;
      t.basic_count = 1;
      t.basic_layout = true;
    }
    table[static_cast<std::size_t>(h & 0xff)] = std::make_unique<Datatype>(std::move(t));
  };
  auto get = [&](MPI_Datatype h) -> const Datatype& { return *table[h & 0xff]; };
#define MPISIM_SCALAR(h, T) put(h, #h, scalar(h, sizeof(T), alignof(T)))
  MPISIM_SCALAR(MPI_CHAR, char);
  MPISIM_SCALAR(MPI_SIGNED_CHAR, signed char);
  MPISIM_SCALAR(MPI_UNSIGNED_CHAR, unsigned char);
  MPISIM_SCALAR(MPI_BYTE, unsigned char);
  MPISIM_SCALAR(MPI_WCHAR, wchar_t);
  MPISIM_SCALAR(MPI_SHORT, short);
  MPISIM_SCALAR(MPI_UNSIGNED_SHORT, unsigned short);
  MPISIM_SCALAR(MPI_INT, int);
  MPISIM_SCALAR(MPI_UNSIGNED, unsigned);
  MPISIM_SCALAR(MPI_LONG, long);
  MPISIM_SCALAR(MPI_UNSIGNED_LONG, unsigned long);
  MPISIM_SCALAR(MPI_LONG_LONG_INT, long long);
  MPISIM_SCALAR(MPI_UNSIGNED_LONG_LONG, unsigned long long);
  MPISIM_SCALAR(MPI_FLOAT, float);
  MPISIM_SCALAR(MPI_DOUBLE, double);
  MPISIM_SCALAR(MPI_LONG_DOUBLE, long double);
  MPISIM_SCALAR(MPI_C_BOOL, bool);
  MPISIM_SCALAR(MPI_INT8_T, int8_t);
  MPISIM_SCALAR(MPI_INT16_T, int16_t);
  MPISIM_SCALAR(MPI_INT32_T, int32_t);
  MPISIM_SCALAR(MPI_INT64_T, int64_t);
  MPISIM_SCALAR(MPI_UINT8_T, uint8_t);
  MPISIM_SCALAR(MPI_UINT16_T, uint16_t);
  MPISIM_SCALAR(MPI_UINT32_T, uint32_t);
  MPISIM_SCALAR(MPI_UINT64_T, uint64_t);
  // MPI_C_COMPLEX is the same handle; MPICH's MPI_Type_get_name names it so.
  put(MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX",
      scalar(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), alignof(float _Complex)));
  MPISIM_SCALAR(MPI_C_DOUBLE_COMPLEX, double _Complex);
  MPISIM_SCALAR(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex);
  MPISIM_SCALAR(MPI_CXX_BOOL, bool);
  MPISIM_SCALAR(MPI_CXX_FLOAT_COMPLEX, std::complex<float>);
  MPISIM_SCALAR(MPI_CXX_DOUBLE_COMPLEX, std::complex<double>);
  MPISIM_SCALAR(MPI_CXX_LONG_DOUBLE_COMPLEX, std::complex<long double>);
  MPISIM_SCALAR(MPI_AINT, MPI_Aint);
  MPISIM_SCALAR(MPI_OFFSET, MPI_Offset);
  MPISIM_SCALAR(MPI_COUNT, MPI_Count);
  MPISIM_SCALAR(MPI_PACKED, unsigned char);
  // Fortran types as gfortran lays them out (default INTEGER, REAL and LOGICAL: 4 bytes).
  MPISIM_SCALAR(MPI_INTEGER, int32_t);
  MPISIM_SCALAR(MPI_REAL, float);
  MPISIM_SCALAR(MPI_DOUBLE_PRECISION, double);
  MPISIM_SCALAR(MPI_COMPLEX, float _Complex);
  MPISIM_SCALAR(MPI_DOUBLE_COMPLEX, double _Complex);
  MPISIM_SCALAR(MPI_LOGICAL, int32_t);
  MPISIM_SCALAR(MPI_CHARACTER, char);
  MPISIM_SCALAR(MPI_INTEGER1, int8_t);
  MPISIM_SCALAR(MPI_INTEGER2, int16_t);
  MPISIM_SCALAR(MPI_INTEGER4, int32_t);
  MPISIM_SCALAR(MPI_INTEGER8, int64_t);
  MPISIM_SCALAR(MPI_REAL4, float);
  MPISIM_SCALAR(MPI_REAL8, double);
  MPISIM_SCALAR(MPI_COMPLEX8, float _Complex);
  MPISIM_SCALAR(MPI_COMPLEX16, double _Complex);
  MPISIM_SCALAR(MPI_REAL16, __float128); // gfortran's REAL(16): IEEE quadruple precision
  MPISIM_SCALAR(MPI_COMPLEX32, __float128 _Complex);
#undef MPISIM_SCALAR
  const Datatype& i = get(MPI_INT);
  put(MPI_FLOAT_INT, "MPI_FLOAT_INT", pair<float, int>(get(MPI_FLOAT), i, "MPI_FLOAT_INT"));
  put(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", pair<double, int>(get(MPI_DOUBLE), i, "MPI_DOUBLE_INT"));
  put(MPI_LONG_INT, "MPI_LONG_INT", pair<long, int>(get(MPI_LONG), i, "MPI_LONG_INT"));
  put(MPI_2INT, "MPI_2INT", pair<int, int>(i, i, "MPI_2INT"));
  put(MPI_SHORT_INT, "MPI_SHORT_INT", pair<short, int>(get(MPI_SHORT), i, "MPI_SHORT_INT"));
  put(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT",
      pair<long double, int>(get(MPI_LONG_DOUBLE), i, "MPI_LONG_DOUBLE_INT"));
  put(MPI_2REAL, "MPI_2REAL", pair<float, float>(get(MPI_REAL), get(MPI_REAL), "MPI_2REAL"));
  put(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION",
      pair<double, double>(get(MPI_DOUBLE_PRECISION), get(MPI_DOUBLE_PRECISION),
                           "MPI_2DOUBLE_PRECISION"));
  put(MPI_2INTEGER, "MPI_2INTEGER",
      pair<int32_t, int32_t>(get(MPI_INTEGER), get(MPI_INTEGER), "MPI_2INTEGER"));
  put(MPI_UB, "MPI_UB", marker(true));
  put(MPI_LB, "MPI_LB", marker(false));
  return table;
}

/// Calls run(address, leaf) for every copy of a leaf of the nodes [first, last) of one copy
/// whose origin is `origin`, in type-map order, until run returns false.
template <class Run> bool walk(const Node* first, const Node* last, MPI_Aint origin, Run& run) {
  for (const Node* n = first; n != last; n += n->skip) {
    MPI_Aint at = origin + n->offset;
    for (std::size_t k = 0; k < n->count; ++k, at += n->stride)
      if (n->leaf() ? !run(at, *n) : !walk(n + 1, n + n->skip, at, run)) return false;
  }
  return true;
}

/// Calls emit(address, n) for the runs that hold packed bytes [skip, skip + bytes) of a
/// sequence of elements of `type` whose first element's origin is `base`, in type-map order.
/// Runs that follow each other in memory are merged.
template <class Emit>
void merged_runs(const Datatype& type, MPI_Aint base, std::size_t skip, std::size_t bytes,
                 Emit&& emit) {
  if (bytes == 0 || type.size == 0) return;
  if (type.contiguous()) {
    emit(base + static_cast<MPI_Aint>(skip), bytes);
    return;
  }
  MPI_Aint pending = 0;
  std::size_t pending_bytes = 0;
  auto run = [&](MPI_Aint at, const Node& leaf) {
    std::size_t n = leaf.size;
    if (skip >= n) {
      skip -= n;
      return true;
    }
    at += static_cast<MPI_Aint>(skip);
    n = std::min(n - skip, bytes);
    skip = 0;
    bytes -= n;
    if (pending_bytes > 0 && pending + static_cast<MPI_Aint>(pending_bytes) == at) {
      pending_bytes += n;
    } else {
      if (pending_bytes > 0) emit(pending, pending_bytes);
      pending = at;
      pending_bytes = n;
    }
    return bytes > 0;
  };
  const TypeMap& map = *type.map;
  std::size_t i = skip / type.size;
  skip %= type.size;
  for (; bytes > 0; ++i)
    walk(map.data(), map.data() + map.size(), base + static_cast<MPI_Aint>(i) * type.extent, run);
  if (pending_bytes > 0) emit(pending, pending_bytes);
}

/// Moves at most `bytes` bytes between the type map of elements at `buf` and the packed
/// stream at `packed`, in the direction `to_packed`.
void transfer(void* buf, const Datatype& type, std::byte* packed, std::size_t bytes,
              bool to_packed) {
  merged_runs(type, reinterpret_cast<MPI_Aint>(buf), 0, bytes, [&](MPI_Aint at, std::size_t n) {
    auto* user = reinterpret_cast<std::byte*>(at);
    if (to_packed)
      std::memcpy(packed, user, n);
    else
      std::memcpy(user, packed, n);
    packed += n;
  });
}

/// Basic elements in the first `bytes` bytes of one copy of the nodes [first, last), where
/// `bytes` is less than their size; -1 when it ends inside a basic element.
long long prefix_elements(const Node* first, const Node* last, std::size_t bytes) {
  long long n = 0;
  for (const Node* node = first; node != last && bytes > 0; node += node->skip) {
    const std::size_t whole = std::min(bytes / node->size, node->count);
    n += static_cast<long long>(whole * node->elements);
    bytes -= whole * node->size;
    if (whole == node->count || bytes == 0) continue;
    if (!node->leaf()) return n + prefix_elements(node + 1, node + node->skip, bytes);
    if (bytes % node->elem_size != 0) return -1;
    return n + static_cast<long long>(bytes / node->elem_size);
  }
  return n;
}

} // namespace

const Datatype* builtin_datatype(MPI_Datatype handle) {
  static const auto table = make_builtins();
  if ((handle & ~0xff) != 0x4c000000) return nullptr;
  const auto i = static_cast<std::size_t>(handle & 0xff);
  return i < table.size() ? table[i].get() : nullptr;
}

const Datatype& size_only_bytes() {
  static const Datatype type = [] {
    Datatype t = *builtin_datatype(MPI_BYTE);
    t.name = "bytes counted, not carried";
    t.size_only = true;
    return t;
  }();
  return type;
}

void pack(const void* buf, std::size_t count, const Datatype& type, std::byte* out) {
  transfer(const_cast<void*>(buf), type, out, count * type.size, true);
}

void unpack(const std::byte* in, std::size_t bytes, const Datatype& type, void* buf) {
  transfer(buf, type, const_cast<std::byte*>(in), bytes, false);
}

void for_each_run(const Datatype& type, std::size_t skip, std::size_t bytes,
                  const std::function<void(MPI_Aint, std::size_t)>& run) {
  merged_runs(type, 0, skip, bytes, run);
}

void for_each_leaf(const void* buf, std::size_t count, const Datatype& type,
                   const std::function<void(MPI_Aint, const Node&)>& leaf) {
  auto run = [&](MPI_Aint at, const Node& n) {
    leaf(at, n);
    return true;
  };
  const TypeMap& map = *type.map;
  for (std::size_t i = 0; i < count; ++i)
    walk(map.data(), map.data() + map.size(),
         reinterpret_cast<MPI_Aint>(buf) + static_cast<MPI_Aint>(i) * type.extent, run);
}

long long elements_in(const Datatype& type, std::size_t bytes) {
  if (type.size == 0) return 0;
  const long long whole = static_cast<long long>(bytes / type.size * type.elements);
  const std::size_t rest = bytes % type.size;
  if (rest == 0) return whole;
  const long long part =
      prefix_elements(type.map->data(), type.map->data() + type.map->size(), rest);
  return part < 0 ? -1 : whole + part;
}

} // namespace mpilite
