#include "rma_apply.hpp"

#include <cstring>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "collective_buffers.hpp"
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

bool attached_covers(const Window& w, const TouchedBytes& b) {
  auto after = w.attached.upper_bound(static_cast<std::uintptr_t>(b.first));
  if (after == w.attached.begin()) return false;
  const auto& [start, bytes] = *std::prev(after);
  return static_cast<std::uintptr_t>(b.end) <= start + static_cast<std::uintptr_t>(bytes);
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
  // The target's memory the operation touches must lie inside its window. A dynamic window's
  // displacements are addresses (MPI_Get_address), inside memory this rank attached: only it
  // knows what that is when the operation arrives.
  const bool dynamic = w.flavor == MPI_WIN_FLAVOR_DYNAMIC;
  if (h.target_count > 0) {
    const TouchedBytes b = touched_bytes(h.disp, dynamic ? 1 : w.disp_unit, h.target_count, t,
                                         dynamic ? std::numeric_limits<MPI_Aint>::max() : w.size);
    if (dynamic && !(b.inside && attached_covers(w, b))) {
      why = fmt::format("an operation of rank {} reaches addresses {:#x} to {:#x} of a dynamic "
                        "window, outside the memory this rank attached to it",
                        source, b.first, b.end);
      return MPI_ERR_RMA_RANGE;
    }
    if (!b.inside) {
      why = fmt::format("an operation of rank {} reaches bytes {} to {} of a window of {} bytes",
                        source, b.first, b.end, w.size);
      return MPI_ERR_RMA_RANGE;
    }
  }
  // An empty operation touches nothing (a window of size 0 may have no base).
  std::byte* target = nullptr;
  if (h.target_count > 0)
    target = dynamic ? reinterpret_cast<std::byte*>(h.disp)
                     : static_cast<std::byte*>(w.base) + h.disp * w.disp_unit;
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
    const std::size_t n = bytes / basic.size;
    if (static_cast<MPI_Aint>(basic.size) == basic.extent) {
      apply_op(*builtin_op(h.op), basic, data, current.data(), n);
    } else {
      // The pair types of MINLOC and MAXLOC (MPI_DOUBLE_INT: 12 bytes of data in a 16-byte C
      // struct): their kernels step by the struct, so both operands are laid out as arrays of
      // it, as the collectives' scratch buffers are.
      TypedBuffer in(n, basic), inout(n, basic);
      unpack(data, bytes, basic, in.get());
      unpack(current.data(), bytes, basic, inout.get());
      apply_op(*builtin_op(h.op), basic, in.get(), inout.get(), n);
      pack(inout.get(), n, basic, current.data());
    }
    unpack(current.data(), bytes, t, target);
  }
  return MPI_SUCCESS;
}

} // namespace mpilite
