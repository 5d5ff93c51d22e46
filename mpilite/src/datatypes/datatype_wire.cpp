#include "datatype_wire.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace mpilite {
namespace {

/// The scalar part of a layout; the nodes of the type map follow it.
struct Header {
  std::uint64_t size, elements, basic_count, nodes;
  MPI_Aint lb, extent, true_lb, true_extent;
  MPI_Datatype basic;
  std::uint8_t dense, basic_layout;
};

/// What a subtree of a type map reaches: its packed bytes, the first and one past the last byte
/// of one copy relative to its origin, and how many node copies walking it visits.
struct Reach {
  std::uint64_t bytes = 0;
  MPI_Aint lo = 0, hi = 0;
  std::uint64_t visits = 0;
};

/// Walks are bounded: a type of at most 2^31 - 1 bytes never needs more node visits than this.
constexpr std::uint64_t kMaxVisits = std::uint64_t{1} << 33;

/// The reach of the nodes [first, last), or false if they do not form a sound tree.
bool reach(const Node* first, const Node* last, Reach& out, std::string& why) {
  out = {};
  bool any = false;
  for (const Node* n = first; n < last; n += n->skip) {
    if (n->skip < 1 || n->skip > last - n) {
      why = "a node's subtree runs past its parent";
      return false;
    }
    Reach body;
    if (n->leaf()) {
      if (n->size > 0 && (n->elem_size == 0 || n->size % n->elem_size != 0)) {
        why = "a leaf's bytes are not whole elements";
        return false;
      }
      body = {n->size, 0, static_cast<MPI_Aint>(n->size), 0};
    } else if (!reach(n + 1, n + n->skip, body, why)) {
      return false;
    } else if (body.bytes != n->size) {
      why = "a node's size is not its children's";
      return false;
    }
    std::uint64_t bytes = 0, visits = 0;
    MPI_Aint last_copy = 0, lo = 0, hi = 0, first_lo = 0, first_hi = 0, last_lo = 0, last_hi = 0;
    if (__builtin_mul_overflow(n->count, n->size, &bytes) ||
        __builtin_add_overflow(out.bytes, bytes, &out.bytes) ||
        __builtin_mul_overflow(n->count, body.visits + 1, &visits) ||
        __builtin_add_overflow(out.visits, visits, &out.visits) || out.visits > kMaxVisits ||
        n->count > static_cast<std::size_t>(PTRDIFF_MAX) ||
        __builtin_mul_overflow(static_cast<MPI_Aint>(n->count > 0 ? n->count - 1 : 0), n->stride,
                               &last_copy) ||
        __builtin_add_overflow(n->offset, body.lo, &first_lo) ||
        __builtin_add_overflow(n->offset, body.hi, &first_hi) ||
        __builtin_add_overflow(first_lo, last_copy, &last_lo) ||
        __builtin_add_overflow(first_hi, last_copy, &last_hi)) {
      why = "its counts, strides or offsets overflow";
      return false;
    }
    if (bytes == 0) continue;
    lo = std::min(first_lo, last_lo);
    hi = std::max(first_hi, last_hi);
    out.lo = any ? std::min(out.lo, lo) : lo;
    out.hi = any ? std::max(out.hi, hi) : hi;
    any = true;
  }
  return true;
}

} // namespace

std::string unsound_layout(const Datatype& t) {
  std::string why;
  Reach r;
  const TypeMap& map = *t.map;
  if (!reach(map.data(), map.data() + map.size(), r, why)) return why;
  if (r.bytes != t.size || t.size > static_cast<std::size_t>(INT32_MAX))
    return "its nodes' bytes are not its size";
  MPI_Aint end = 0;
  if (__builtin_add_overflow(t.true_lb, t.true_extent, &end)) return "its true bounds overflow";
  // Packing a dense type copies `size` bytes from its origin; any other walks the nodes.
  if (t.size > 0 && (r.lo < t.true_lb || r.hi > end ||
                     (t.dense && (t.true_lb > 0 || static_cast<MPI_Aint>(t.size) > end))))
    return "it reaches bytes outside its true bounds";
  const Datatype* basic = t.basic == MPI_DATATYPE_NULL ? nullptr : builtin_datatype(t.basic);
  if (t.basic != MPI_DATATYPE_NULL && (!basic || basic->size * t.basic_count != t.size))
    return "its basic type does not make up its size";
  return "";
}

void encode_layout(const Datatype& type, std::vector<std::byte>& out) {
  Header h{};
  h.size = type.size;
  h.elements = type.elements;
  h.basic_count = type.basic_count;
  h.nodes = type.map ? type.map->size() : 0;
  h.lb = type.lb;
  h.extent = type.extent;
  h.true_lb = type.true_lb;
  h.true_extent = type.true_extent;
  h.basic = type.basic;
  h.dense = type.dense;
  h.basic_layout = type.basic_layout;
  append_bytes(out, h);
  if (type.map)
    for (const Node& n : *type.map)
      append_bytes(out, n);
}

std::size_t layout_bytes(const std::byte* in, std::size_t available) {
  Header h;
  if (available < sizeof h) return 0;
  std::memcpy(&h, in, sizeof h);
  if (h.nodes > (available - sizeof h) / sizeof(Node)) return 0;
  return sizeof h + h.nodes * sizeof(Node);
}

Datatype decode_layout(const std::byte* in, std::size_t& used) {
  Header h;
  std::memcpy(&h, in, sizeof h);
  auto map = std::make_shared<TypeMap>(h.nodes);
  if (h.nodes) std::memcpy(map->data(), in + sizeof h, h.nodes * sizeof(Node));
  used = sizeof h + h.nodes * sizeof(Node);
  Datatype t;
  t.size = h.size;
  t.elements = h.elements;
  t.basic_count = h.basic_count;
  t.lb = h.lb;
  t.extent = h.extent;
  t.true_lb = h.true_lb;
  t.true_extent = h.true_extent;
  t.basic = h.basic;
  t.dense = h.dense != 0;
  t.basic_layout = h.basic_layout != 0;
  t.map = std::move(map);
  t.committed = true;
  return t;
}

} // namespace mpilite
