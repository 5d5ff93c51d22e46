#include "rma_apply.hpp"

#include <cstring>

#include <fmt/format.h>

#include "datatype_wire.hpp"
#include "op.hpp"

namespace mpilite {

TouchedBytes touched_bytes(MPI_Aint disp, int disp_unit, int count, const Datatype& type,
                           MPI_Aint size) {
  const MPI_Aint start = disp * disp_unit;
  const MPI_Aint first = start + type.true_lb;
  const MPI_Aint end = start + (count - 1) * type.extent + type.true_lb + type.true_extent;
  return {first, end, disp >= 0 && first >= 0 && end <= size};
}

bool rma_returns_data(RmaKind kind) {
  return kind == RmaKind::Get || kind == RmaKind::GetAccumulate || kind == RmaKind::CompareSwap;
}

int apply_rma(Window& w, int source, std::span<const std::byte> message,
              std::vector<std::byte>& reply, std::string& why) {
  RmaHeader h;
  std::memcpy(&h, message.data(), sizeof h);
  std::size_t used = 0;
  const Datatype t = decode_layout(message.data() + sizeof h, used);
  const std::byte* data = message.data() + sizeof h + used;
  const std::size_t bytes = static_cast<std::size_t>(h.target_count) * t.size;
  // The target's memory the operation touches must lie inside its window.
  if (h.target_count > 0) {
    const TouchedBytes b = touched_bytes(h.disp, w.disp_unit, h.target_count, t, w.size);
    if (!b.inside) {
      why = fmt::format("an operation of rank {} reaches bytes {} to {} of a window of {} bytes",
                        source, b.first, b.end, w.size);
      return MPI_ERR_RMA_RANGE;
    }
  }
  // An empty operation touches nothing (a window of size 0 may have no base).
  auto* target =
      h.target_count > 0 ? static_cast<std::byte*>(w.base) + h.disp * w.disp_unit : nullptr;
  const auto count = static_cast<std::size_t>(h.target_count);
  if (rma_returns_data(h.kind)) {
    const std::size_t at = reply.size();
    reply.resize(at + bytes);
    pack(target, count, t, reply.data() + at);
    if (h.kind == RmaKind::CompareSwap) {
      if (std::memcmp(reply.data() + at, data + bytes, bytes) == 0)
        std::memcpy(target, data, bytes);
      return MPI_SUCCESS;
    }
  }
  if (h.op == MPI_NO_OP || h.kind == RmaKind::Get) return MPI_SUCCESS;
  if (h.op == MPI_REPLACE) {
    unpack(data, bytes, t, target);
  } else {
    std::vector<std::byte> current(bytes);
    pack(target, count, t, current.data());
    const Datatype& basic = *builtin_datatype(t.basic);
    apply_op(*builtin_op(h.op), basic, data, current.data(), bytes / basic.size);
    unpack(current.data(), bytes, t, target);
  }
  return MPI_SUCCESS;
}

} // namespace mpilite
