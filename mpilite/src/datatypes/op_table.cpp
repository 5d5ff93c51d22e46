#include "op_table.hpp"

namespace mpilite {
namespace {

// Like MPICH's handles of user objects: kind "direct" in the top bits, then the object type.
constexpr MPI_Op kUserOpBase = static_cast<MPI_Op>(0x98000000);
constexpr std::uint32_t kIndexMask = 0x00ffffff;

} // namespace

MPI_Op OpTable::add(const Op& user) {
  std::size_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    i = ops_.size();
    ops_.emplace_back();
  }
  Op& op = ops_[i];
  op = user;
  op.handle = kUserOpBase | static_cast<int>(i);
  op.name = nullptr;
  return op.handle;
}

const Op* OpTable::find(MPI_Op h) const {
  if ((h & ~static_cast<int>(kIndexMask)) != kUserOpBase) return nullptr;
  const std::size_t i = static_cast<std::uint32_t>(h) & kIndexMask;
  if (i >= ops_.size() || ops_[i].handle != h) return nullptr;
  return &ops_[i];
}

bool OpTable::free(MPI_Op h) {
  if (!find(h)) return false;
  const std::size_t i = static_cast<std::uint32_t>(h) & kIndexMask;
  ops_[i] = Op{};
  free_.push_back(static_cast<std::uint32_t>(i));
  return true;
}

} // namespace mpilite
