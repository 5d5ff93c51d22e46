// MPI entry point MPI_Type_create_darray: the checks of a distributed array's description and
// the resolution of its distributions into block sizes (MPI-3.1 section 4.1.4).
#include <vector>

#include "api_datatype.hpp"

using namespace mpilite;

namespace {

/// Resolves dimension `d` of the description into the blocks of process coordinate `coord`.
int resolve_dim(ApiCall& c, int d, int gsize, int distrib, int darg, int psize, int coord,
                DarrayDim& out) {
  if (gsize <= 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "array_of_gsizes[{}] = {} (must be > 0)", d, gsize);
  if (darg <= 0 && darg != MPI_DISTRIBUTE_DFLT_DARG)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "array_of_dargs[{}] = {} (must be > 0 or MPI_DISTRIBUTE_DFLT_DARG)", d, darg);
  const bool dflt = darg == MPI_DISTRIBUTE_DFLT_DARG;
  int block = 0;
  switch (distrib) {
  case MPI_DISTRIBUTE_NONE:
    if (psize != 1)
      return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "dimension {} is MPI_DISTRIBUTE_NONE but array_of_psizes[{}] = {} (must be 1)",
                     d, d, psize);
    block = gsize;
    break;
  case MPI_DISTRIBUTE_BLOCK:
    block = dflt ? (gsize + psize - 1) / psize : darg;
    if (static_cast<long long>(block) * psize < gsize)
      return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "dimension {}: blocks of {} on {} processes do not cover {} elements", d,
                     block, psize, gsize);
    break;
  case MPI_DISTRIBUTE_CYCLIC:
    block = dflt ? 1 : darg;
    break;
  default:
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "array_of_distribs[{}] = {} (must be MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE)", d,
                   distrib);
  }
  out = {gsize, psize, coord, block};
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  ApiCall c("MPI_Type_create_darray");
  const Datatype* old;
  if (size <= 0 || rank < 0 || rank >= size)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid rank {} of size {}", rank, size);
  if (ndims <= 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid ndims {} (must be > 0)", ndims);
  for (auto [p, what] : {std::pair{array_of_gsizes, "array_of_gsizes"},
                         {array_of_distribs, "array_of_distribs"},
                         {array_of_dargs, "array_of_dargs"},
                         {array_of_psizes, "array_of_psizes"}})
    if (int e = check_pointer(c, p, what)) return e;
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "invalid order {} (must be MPI_ORDER_C or MPI_ORDER_FORTRAN)", order);
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  long long processes = 1;
  for (int d = 0; d < ndims; ++d) {
    if (array_of_psizes[d] <= 0)
      return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "array_of_psizes[{}] = {} (must be > 0)", d,
                     array_of_psizes[d]);
    processes *= array_of_psizes[d];
  }
  if (processes != size)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "the process grid has {} processes but size is {}",
                   processes, size);
  // The process grid is in row-major order whatever the array's order (as in MPI_Cart_create).
  std::vector<DarrayDim> dims(static_cast<std::size_t>(ndims));
  for (int d = ndims - 1, rest = rank; d >= 0; rest /= array_of_psizes[d], --d)
    if (int e = resolve_dim(c, d, array_of_gsizes[d], array_of_distribs[d], array_of_dargs[d],
                            array_of_psizes[d], rest % array_of_psizes[d],
                            dims[static_cast<std::size_t>(d)]))
      return e;
  Contents contents{MPI_COMBINER_DARRAY, {size, rank, ndims}, {}, {keep(*old)}};
  for (const int* v : {array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes})
    contents.ints.insert(contents.ints.end(), v, v + ndims);
  contents.ints.push_back(order);
  return publish(c, make_darray(dims, order == MPI_ORDER_C, *old), std::move(contents), newtype);
}
MPISIM_WEAK_ALIAS(Type_create_darray)

} // extern "C"
