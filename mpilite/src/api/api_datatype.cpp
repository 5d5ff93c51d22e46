// MPI entry points: datatype constructors, commit and free.
#include "api_datatype.hpp"

#include <type_traits>
#include <unordered_map>
#include <vector>

#include "object_attributes.hpp"

using namespace mpilite;

namespace mpilite {

int lookup_type(ApiCall& c, MPI_Datatype h, const Datatype*& out, const char* what) {
  out = c.w.datatype(h);
  if (out) return MPI_SUCCESS;
  if (h == MPI_DATATYPE_NULL)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "{} is MPI_DATATYPE_NULL", what);
  return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "{} {:#x} is not a datatype (or was freed)", what,
                 static_cast<unsigned>(h));
}

int check_pointer(ApiCall& c, const void* p, const char* what) {
  if (p) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "{} is a null pointer", what);
}

int check_nonnegative_count(ApiCall& c, long count, const char* what) {
  if (count >= 0) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "invalid {} {} (must be >= 0)", what, count);
}

int check_blocklength(ApiCall& c, long length, long index) {
  if (length >= 0) return MPI_SUCCESS;
  if (index < 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid blocklength {} (must be >= 0)", length);
  return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                 "invalid array_of_blocklengths[{}] = {} (must be >= 0)", index, length);
}

std::shared_ptr<const Datatype> keep(const Datatype& old) {
  if (old.predefined) return std::shared_ptr<const Datatype>(std::shared_ptr<void>(), &old);
  auto copy = std::make_shared<Datatype>(old);
  copy->handle = MPI_DATATYPE_NULL;
  copy->users = 0;
  copy->freed = false;
  return copy;
}

int publish(ApiCall& c, Datatype&& t, Contents&& contents, MPI_Datatype* newtype) {
  if (int e = check_pointer(c, newtype, "newtype")) return e;
  t.contents = std::make_shared<const Contents>(std::move(contents));
  *newtype = c.w.add_datatype(std::move(t));
  return MPI_SUCCESS;
}

} // namespace mpilite

namespace {

/// MPI_Type_vector (`stride` in elements of `oldtype`) and the hvectors (`stride` in bytes).
int vector_call(const char* name, int count, int blocklength, MPI_Aint stride, bool in_bytes,
                MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall c(name);
  const Datatype* old;
  if (int e = check_nonnegative_count(c, count)) return e;
  if (int e = check_blocklength(c, blocklength)) return e;
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  Contents contents =
      in_bytes ? Contents{MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {keep(*old)}}
               : Contents{MPI_COMBINER_VECTOR,
                          {count, blocklength, static_cast<int>(stride)},
                          {},
                          {keep(*old)}};
  return publish(c,
                 make_hvector(static_cast<std::size_t>(count),
                              static_cast<std::size_t>(blocklength),
                              in_bytes ? stride : stride * old->extent, *old),
                 std::move(contents), newtype);
}

/// The four indexed constructors. Block lengths come from `lengths`, or are all `blocklength`
/// for the _block variants (`uniform`); displacements are in elements of `oldtype` when `Disp`
/// is int and in bytes when it is MPI_Aint. The contents follow MPI-3.1 section 4.1.13.
template <class Disp>
int indexed(const char* name, int combiner, int count, bool uniform, const int* lengths,
            int blocklength, const Disp* displacements, MPI_Datatype oldtype,
            MPI_Datatype* newtype) {
  constexpr bool in_bytes = std::is_same_v<Disp, MPI_Aint>;
  ApiCall c(name);
  const Datatype* old;
  if (int e = check_nonnegative_count(c, count)) return e;
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  if (uniform) {
    if (int e = check_blocklength(c, blocklength)) return e;
  } else if (count > 0) {
    if (int e = check_pointer(c, lengths, "array_of_blocklengths")) return e;
  }
  if (count > 0)
    if (int e = check_pointer(c, displacements, "array_of_displacements")) return e;
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::size_t> block(n);
  std::vector<MPI_Aint> disp(n);
  Contents contents{combiner, {count}, {}, {keep(*old)}};
  if (uniform) contents.ints.push_back(blocklength);
  for (std::size_t i = 0; i < n; ++i) {
    const int length = uniform ? blocklength : lengths[i];
    if (!uniform)
      if (int e = check_blocklength(c, length, static_cast<long>(i))) return e;
    block[i] = static_cast<std::size_t>(length);
    disp[i] = in_bytes ? displacements[i] : displacements[i] * old->extent;
    if (!uniform) contents.ints.push_back(length);
  }
  if constexpr (in_bytes)
    contents.addresses.assign(displacements, displacements + n);
  else
    contents.ints.insert(contents.ints.end(), displacements, displacements + n);
  return publish(c, make_hindexed(block, disp, *old), std::move(contents), newtype);
}

int structure(const char* name, int count, const int* lengths, const MPI_Aint* displacements,
              const MPI_Datatype* types, MPI_Datatype* newtype) {
  ApiCall c(name);
  if (int e = check_nonnegative_count(c, count)) return e;
  if (count > 0) {
    if (int e = check_pointer(c, lengths, "array_of_blocklengths")) return e;
    if (int e = check_pointer(c, displacements, "array_of_displacements")) return e;
    if (int e = check_pointer(c, types, "array_of_types")) return e;
  }
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::size_t> block(n);
  std::vector<const Datatype*> old(n);
  Contents contents{MPI_COMBINER_STRUCT, {count}, {}, {}};
  std::unordered_map<MPI_Datatype, std::shared_ptr<const Datatype>> kept;
  for (std::size_t i = 0; i < n; ++i) {
    if (int e = check_blocklength(c, lengths[i], static_cast<long>(i))) return e;
    old[i] = c.w.datatype(types[i]);
    if (!old[i])
      if (int e = lookup_type(c, types[i], old[i], fmt::format("array_of_types[{}]", i).c_str()))
        return e;
    block[i] = static_cast<std::size_t>(lengths[i]);
    contents.ints.push_back(lengths[i]);
    auto& k = kept[types[i]];
    if (!k) k = keep(*old[i]);
    contents.types.push_back(k);
  }
  contents.addresses.assign(displacements, displacements + n);
  return publish(c, make_struct(block, contents.addresses, old), std::move(contents), newtype);
}

} // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall c("MPI_Type_contiguous");
  const Datatype* old;
  if (int e = check_nonnegative_count(c, count)) return e;
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  return publish(c, make_contiguous(static_cast<std::size_t>(count), *old),
                 {MPI_COMBINER_CONTIGUOUS, {count}, {}, {keep(*old)}}, newtype);
}
MPISIM_WEAK_ALIAS(Type_contiguous)

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return vector_call("MPI_Type_vector", count, blocklength, stride, false, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_vector)

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return vector_call("MPI_Type_create_hvector", count, blocklength, stride, true, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_hvector)

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return vector_call("MPI_Type_hvector", count, blocklength, stride, true, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_hvector)

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, false, array_of_blocklengths, 0,
                 array_of_displacements, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_indexed)

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count, false,
                 array_of_blocklengths, 0, array_of_displacements, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_hindexed)

int PMPI_Type_hindexed(int count, const int array_of_blocklengths[],
                       const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
  return indexed("MPI_Type_hindexed", MPI_COMBINER_HINDEXED, count, false, array_of_blocklengths, 0,
                 array_of_displacements, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK, count, true, nullptr,
                 blocklength, array_of_displacements, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_indexed_block)

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, count, true,
                 nullptr, blocklength, array_of_displacements, oldtype, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_hindexed_block)

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return structure("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                   array_of_types, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_struct)

int PMPI_Type_struct(int count, const int array_of_blocklengths[],
                     const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                     MPI_Datatype* newtype) {
  return structure("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                   array_of_types, newtype);
}
MPISIM_WEAK_ALIAS(Type_struct)

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype* newtype) {
  ApiCall c("MPI_Type_create_resized");
  const Datatype* old;
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  return publish(c, make_resized(*old, lb, extent),
                 {MPI_COMBINER_RESIZED, {}, {lb, extent}, {keep(*old)}}, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_resized)

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  ApiCall c("MPI_Type_create_subarray");
  const Datatype* old;
  if (ndims <= 0)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid ndims {} (must be > 0)", ndims);
  if (int e = check_pointer(c, array_of_sizes, "array_of_sizes")) return e;
  if (int e = check_pointer(c, array_of_subsizes, "array_of_subsizes")) return e;
  if (int e = check_pointer(c, array_of_starts, "array_of_starts")) return e;
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "invalid order {} (must be MPI_ORDER_C or MPI_ORDER_FORTRAN)", order);
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  const auto n = static_cast<std::size_t>(ndims);
  const std::vector<int> sizes(array_of_sizes, array_of_sizes + n);
  const std::vector<int> subsizes(array_of_subsizes, array_of_subsizes + n);
  const std::vector<int> starts(array_of_starts, array_of_starts + n);
  // A subsize of 0 is allowed (MPI-4.0, and MPICH): the face of a rank whose part is empty.
  for (std::size_t d = 0; d < n; ++d)
    if (sizes[d] <= 0 || subsizes[d] < 0 || subsizes[d] > sizes[d] || starts[d] < 0 ||
        starts[d] > sizes[d] - subsizes[d])
      return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "dimension {}: size {}, subsize {}, start {} (need 0 <= subsize <= size and "
                     "0 <= start <= size - subsize)",
                     d, sizes[d], subsizes[d], starts[d]);
  Contents contents{MPI_COMBINER_SUBARRAY, {ndims}, {}, {keep(*old)}};
  for (const std::vector<int>* v : {&sizes, &subsizes, &starts})
    contents.ints.insert(contents.ints.end(), v->begin(), v->end());
  contents.ints.push_back(order);
  return publish(c, make_subarray(sizes, subsizes, starts, order == MPI_ORDER_C, *old),
                 std::move(contents), newtype);
}
MPISIM_WEAK_ALIAS(Type_create_subarray)

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall c("MPI_Type_dup");
  const Datatype* old;
  if (int e = lookup_type(c, oldtype, old, "oldtype")) return e;
  Datatype t = make_dup(*old);
  t.committed = old->committed;
  if (int e = publish(c, std::move(t), {MPI_COMBINER_DUP, {}, {}, {keep(*old)}}, newtype)) return e;
  if (int e = copy_object_attrs(c, AttrObject::Type, oldtype, *newtype, MPI_COMM_WORLD)) {
    // As MPICH: a failed copy callback leaves no new type behind.
    c.w.free_datatype(*newtype);
    *newtype = MPI_DATATYPE_NULL;
    return e;
  }
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_dup)

int PMPI_Type_commit(MPI_Datatype* datatype) {
  ApiCall c("MPI_Type_commit");
  const Datatype* t;
  if (int e = check_pointer(c, datatype, "datatype")) return e;
  if (int e = lookup_type(c, *datatype, t)) return e;
  if (!t->predefined) const_cast<Datatype*>(t)->committed = true;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_commit)

int PMPI_Type_free(MPI_Datatype* datatype) {
  ApiCall c("MPI_Type_free");
  const Datatype* t;
  if (int e = check_pointer(c, datatype, "datatype")) return e;
  if (int e = lookup_type(c, *datatype, t)) return e;
  if (t->predefined)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "cannot free predefined datatype {}", t->name);
  if (int e = delete_object_attrs(c, AttrObject::Type, *datatype, MPI_COMM_WORLD)) return e;
  c.w.free_datatype(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_free)

} // extern "C"
