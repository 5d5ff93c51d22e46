#include "user_errors.hpp"

#include <unordered_map>
#include <vector>

#include "mpi.h"

namespace mpilite {
namespace {

/// One rank's additions: the i-th is numbered MPI_ERR_LASTCODE + 1 + i.
struct RankErrors {
  std::vector<UserError> added;
  int last_used = MPI_ERR_LASTCODE;
};

/// Per world rank. Ranks are fibers of one thread: no locking.
RankErrors& of(int rank) {
  static std::unordered_map<int, RankErrors> all;
  return all[rank];
}

int add(int rank, int error_class) {
  RankErrors& r = of(rank);
  const int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(r.added.size());
  r.added.push_back({error_class < 0 ? code : error_class, {}});
  r.last_used = code;
  return code;
}

} // namespace

int add_error_class(int rank) {
  return add(rank, -1);
}

int add_error_code(int rank, int error_class) {
  return add(rank, error_class);
}

UserError* find_user_error(int rank, int code) {
  if (code <= MPI_ERR_LASTCODE) return nullptr;
  RankErrors& r = of(rank);
  const auto i = static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1);
  return i < r.added.size() ? &r.added[i] : nullptr;
}

int* last_used_code(int rank) {
  return &of(rank).last_used;
}

} // namespace mpilite
