// MPI entry points: datatypes.
#include "api_call.hpp"

using namespace mpilite;

namespace {

int lookup_type(ApiCall& c, MPI_Datatype h, const Datatype*& out) {
  out = c.w.datatype(h);
  if (out) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "invalid datatype {:#x}", static_cast<unsigned>(h));
}

} // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall c("MPI_Type_contiguous");
  const Datatype* old;
  if (int e = lookup_type(c, oldtype, old)) return e;
  if (count < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "invalid count {}", count);
  *newtype = c.w.add_datatype(make_contiguous(static_cast<std::size_t>(count), *old));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_contiguous)

int PMPI_Type_commit(MPI_Datatype* datatype) {
  ApiCall c("MPI_Type_commit");
  const Datatype* t;
  if (int e = lookup_type(c, *datatype, t)) return e;
  const_cast<Datatype*>(t)->committed = true;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_commit)

int PMPI_Type_free(MPI_Datatype* datatype) {
  ApiCall c("MPI_Type_free");
  const Datatype* t;
  if (int e = lookup_type(c, *datatype, t)) return e;
  if (t->predefined)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "cannot free predefined datatype {}", t->name);
  c.w.free_datatype(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_free)

int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  ApiCall c("MPI_Type_size");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  *size = static_cast<int>(t->size);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_size)

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  ApiCall c("MPI_Type_get_extent");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  *lb = t->lb;
  *extent = t->extent;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_get_extent)

} // extern "C"
