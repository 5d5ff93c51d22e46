#include "datatype_wire.hpp"

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

} // namespace

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
