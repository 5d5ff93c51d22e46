// The type constructors: every derived type is a list of pieces (copies of an old type at
// displacements) whose trees are joined and whose bounds are combined by MPI's rules.
#include <algorithm>
#include <limits>

#include "datatype.hpp"

namespace mpilite {
namespace {

/// `count` copies of `type`, the first at `disp`, `stride` bytes apart.
struct Piece {
  const Datatype* type;
  MPI_Aint disp;
  std::size_t count;
  MPI_Aint stride;
};

bool is_marker(const Datatype& t) {
  return t.handle == MPI_LB || t.handle == MPI_UB;
}

bool is_pair(MPI_Datatype h) {
  return (h >= MPI_FLOAT_INT && h <= MPI_LONG_DOUBLE_INT) || (h >= MPI_2REAL && h <= MPI_2INTEGER);
}

/// Builds the top-level node list of a type map, keeping it small: repetition of one node
/// becomes a count, adjacent runs of one element size become one run, and runs of equal size
/// at equal distances become one strided run.
class MapBuilder {
public:
  /// Appends `count` copies, `stride` apart, of the node list `nodes` displaced by `disp`.
  void add(const TypeMap& nodes, MPI_Aint disp, std::size_t count, MPI_Aint stride) {
    if (count == 0 || nodes.empty()) return;
    const Node& first = nodes.front();
    const bool single = first.skip == nodes.size();
    if (count == 1) {
      for (std::size_t i = 0; i < nodes.size(); i += nodes[i].skip)
        append(nodes.data() + i, disp, nodes[i].count, nodes[i].stride);
    } else if (single && first.count == 1) {
      append(&first, disp, count, stride);
    } else if (single && stride == static_cast<MPI_Aint>(first.count) * first.stride) {
      append(&first, disp, count * first.count, first.stride);
    } else {
      Node wrap;
      wrap.offset = disp;
      wrap.count = count;
      wrap.stride = stride;
      for (std::size_t i = 0; i < nodes.size(); i += nodes[i].skip) {
        wrap.size += nodes[i].count * nodes[i].size;
        wrap.elements += nodes[i].count * nodes[i].elements;
      }
      wrap.skip = static_cast<std::uint32_t>(1 + nodes.size());
      last_ = map_.size();
      map_.push_back(wrap);
      map_.insert(map_.end(), nodes.begin(), nodes.end());
    }
  }

  TypeMap take() { return std::move(map_); }

private:
  /// Appends the subtree at `root` with its offset moved by `disp` and the given repetition.
  void append(const Node* root, MPI_Aint disp, std::size_t count, MPI_Aint stride) {
    Node n = *root;
    n.offset += disp;
    n.count = count;
    n.stride = count > 1 ? stride : 0;
    if (n.leaf() && n.count > 1 && n.stride == static_cast<MPI_Aint>(n.size)) {
      n.size *= n.count;
      n.elements *= n.count;
      n.count = 1;
      n.stride = 0;
    }
    if (n.leaf() && merge(n)) return;
    last_ = map_.size();
    map_.push_back(n);
    map_.insert(map_.end(), root + 1, root + root->skip);
  }

  /// Folds leaf `n` into the previous top-level node when that keeps the type-map order.
  bool merge(const Node& n) {
    if (last_ == kNone || n.count != 1) return false;
    Node& p = map_[last_];
    if (!p.leaf() || p.elem_size != n.elem_size || p.elem_type != n.elem_type) return false;
    if (p.count == 1 && p.offset + static_cast<MPI_Aint>(p.size) == n.offset) {
      p.size += n.size;
      p.elements += n.elements;
      return true;
    }
    if (p.size != n.size) return false;
    if (p.count == 1) {
      p.count = 2;
      p.stride = n.offset - p.offset;
      return true;
    }
    if (n.offset != p.offset + static_cast<MPI_Aint>(p.count) * p.stride) return false;
    ++p.count;
    return true;
  }

  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  TypeMap map_;
  std::size_t last_ = kNone;
};

/// Whether the nodes [first, last) of one copy are consecutive bytes from `start` in type-map
/// order; advances `start` past them.
bool dense_from(const Node* first, const Node* last, MPI_Aint& start) {
  for (const Node* n = first; n != last; n += n->skip) {
    if (n->offset != start) return false;
    if (n->count > 1 && n->stride != static_cast<MPI_Aint>(n->size)) return false;
    if (!n->leaf()) {
      MPI_Aint inner = 0;
      if (!dense_from(n + 1, n + n->skip, inner)) return false;
    }
    start += static_cast<MPI_Aint>(n->count * n->size);
  }
  return true;
}

/// Whether `t` is laid out as an array of its (pair) basic type.
bool is_array_of(const Datatype& t, const Datatype& unit) {
  if (t.extent != static_cast<MPI_Aint>(t.basic_count) * unit.extent) return false;
  MapBuilder canonical;
  canonical.add(*unit.map, 0, t.basic_count, unit.extent);
  const TypeMap a = canonical.take();
  const TypeMap& b = *t.map;
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Node& x, const Node& y) {
    return x.offset == y.offset && x.stride == y.stride && x.count == y.count && x.size == y.size &&
           x.skip == y.skip && x.elem_size == y.elem_size && x.elem_type == y.elem_type;
  });
}

/// Sets basic_count and basic_layout from the type's basic type and layout.
void set_basic_layout(Datatype& t) {
  if (t.basic == MPI_DATATYPE_NULL) return;
  // A scalar basic type counts one basic element per element. The builtins are built with
  // this function, but their pieces mix basic types or are scalars, so builtin_datatype (for
  // the pair types) is only reached once they exist.
  const Datatype* unit = is_pair(t.basic) ? builtin_datatype(t.basic) : nullptr;
  t.basic_count = unit ? t.size / unit->size : t.elements;
  t.basic_layout = unit ? is_array_of(t, *unit) : t.contiguous();
}

/// Running minimum or maximum that knows whether it has seen a value.
struct Bound {
  bool found = false;
  MPI_Aint value = 0;
  void lower(MPI_Aint v) {
    value = found ? std::min(value, v) : v;
    found = true;
  }
  void upper(MPI_Aint v) {
    value = found ? std::max(value, v) : v;
    found = true;
  }
};

Datatype combine(const std::vector<Piece>& pieces, bool struct_padding) {
  Datatype t;
  MapBuilder map;
  Bound lb, ub, marked_lb, marked_ub, true_lb, true_ub;
  bool first_data = true;
  for (const Piece& p : pieces) {
    if (p.count == 0) continue;
    const Datatype& o = *p.type;
    // MPI's bounds of a block of copies: the extreme copies' bounds (strides may be negative).
    const MPI_Aint span = static_cast<MPI_Aint>(p.count - 1) * p.stride;
    const MPI_Aint lo = p.disp + std::min<MPI_Aint>(0, span);
    const MPI_Aint hi = p.disp + std::max<MPI_Aint>(0, span);
    if (o.lb_marked) marked_lb.lower(lo + o.lb);
    if (o.ub_marked) marked_ub.upper(hi + o.lb + o.extent);
    if (!is_marker(o)) {
      lb.lower(lo + o.lb);
      ub.upper(hi + o.lb + o.extent);
      t.align = std::max(t.align, o.align);
    }
    if (o.size > 0) {
      true_lb.lower(lo + o.true_lb);
      true_ub.upper(hi + o.true_lb + o.true_extent);
      if (first_data) t.basic = o.basic;
      if (o.basic != t.basic) t.basic = MPI_DATATYPE_NULL;
      first_data = false;
    }
    t.size += p.count * o.size;
    t.elements += p.count * o.elements;
    map.add(*o.map, p.disp, p.count, p.stride);
  }
  t.lb_marked = marked_lb.found;
  t.ub_marked = marked_ub.found;
  t.lb = t.lb_marked ? marked_lb.value : lb.value;
  const MPI_Aint upper = t.ub_marked ? marked_ub.value : ub.value;
  t.extent = upper - t.lb;
  const auto align = static_cast<MPI_Aint>(t.align);
  if (struct_padding && !t.lb_marked && !t.ub_marked && t.extent % align > 0)
    t.extent += align - t.extent % align;
  t.true_lb = true_lb.value;
  t.true_extent = true_ub.value - true_lb.value;
  t.map = std::make_shared<const TypeMap>(map.take());
  MPI_Aint end = 0;
  t.dense = dense_from(t.map->data(), t.map->data() + t.map->size(), end);
  set_basic_layout(t);
  return t;
}

} // namespace

Datatype make_contiguous(std::size_t count, const Datatype& old) {
  return combine({{&old, 0, count, old.extent}}, false);
}

Datatype make_hvector(std::size_t count, std::size_t blocklength, MPI_Aint stride_bytes,
                      const Datatype& old) {
  const Datatype block = make_contiguous(blocklength, old);
  return combine({{&block, 0, count, stride_bytes}}, false);
}

Datatype make_hindexed(const std::vector<std::size_t>& blocklengths,
                       const std::vector<MPI_Aint>& displacements_bytes, const Datatype& old) {
  std::vector<Piece> pieces;
  pieces.reserve(blocklengths.size());
  for (std::size_t i = 0; i < blocklengths.size(); ++i)
    pieces.push_back({&old, displacements_bytes[i], blocklengths[i], old.extent});
  return combine(pieces, false);
}

Datatype make_struct(const std::vector<std::size_t>& blocklengths,
                     const std::vector<MPI_Aint>& displacements,
                     const std::vector<const Datatype*>& types) {
  std::vector<Piece> pieces;
  pieces.reserve(blocklengths.size());
  for (std::size_t i = 0; i < blocklengths.size(); ++i)
    pieces.push_back({types[i], displacements[i], blocklengths[i], types[i]->extent});
  return combine(pieces, true);
}

Datatype make_dup(const Datatype& old) {
  Datatype t = old;
  t.handle = MPI_DATATYPE_NULL;
  t.predefined = false;
  t.committed = false;
  t.name = nullptr;
  t.label.clear();
  t.contents = nullptr;
  t.users = 0;
  t.freed = false;
  return t;
}

Datatype make_resized(const Datatype& old, MPI_Aint lb, MPI_Aint extent) {
  Datatype t = make_dup(old);
  t.lb = lb;
  t.extent = extent;
  // The new bounds replace any marker of `old`, and are ordinary bounds from then on, as in
  // MPICH: a struct that holds a resized type (an inner struct resized to its C size, a
  // subarray) takes its bounds from all its members and is padded. Marked bounds, the letter
  // of MPI-3.1's type maps, made such a struct start at the resized member and skip the members
  // before it, so that a count above one read the wrong bytes.
  t.lb_marked = t.ub_marked = false;
  set_basic_layout(t);
  return t;
}

Datatype make_subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                       const std::vector<int>& starts, bool c_order, const Datatype& old) {
  const std::size_t n = sizes.size();
  // Dimension d in memory order (fastest first): C order reverses the index order.
  auto dim = [&](std::size_t d) { return c_order ? n - 1 - d : d; };
  Datatype t = make_contiguous(static_cast<std::size_t>(subsizes[dim(0)]), old);
  MPI_Aint stride = old.extent;
  MPI_Aint disp = starts[dim(0)] * old.extent;
  for (std::size_t d = 1; d < n; ++d) {
    stride *= sizes[dim(d - 1)];
    t = make_hvector(static_cast<std::size_t>(subsizes[dim(d)]), 1, stride, t);
    disp += starts[dim(d)] * stride;
  }
  const Datatype placed = combine({{&t, disp, 1, 0}}, false);
  return make_resized(placed, 0, stride * sizes[dim(n - 1)]);
}

} // namespace mpilite
