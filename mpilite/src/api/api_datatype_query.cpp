// MPI entry points: what a datatype is (size, bounds, element counts, how it was made, name).
#include <algorithm>
#include <climits>
#include <cstring>

#include "api_datatype.hpp"

using namespace mpilite;

namespace {

/// `value` as an int, or MPI_UNDEFINED when it does not fit (MPI-3.1 section 4.1.5).
int int_or_undefined(long long value) {
  return value < INT_MIN || value > INT_MAX ? MPI_UNDEFINED : static_cast<int>(value);
}

int lookup_status(ApiCall& c, const MPI_Status* status) {
  if (status && status != MPI_STATUS_IGNORE) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "status is {}",
                 status ? "MPI_STATUS_IGNORE" : "a null pointer");
}

/// Basic elements received, as MPI_Get_elements_x reports them.
int elements_call(const char* name, const MPI_Status* status, MPI_Datatype datatype,
                  MPI_Count* count) {
  ApiCall c(name);
  const Datatype* t;
  if (int e = lookup_status(c, status)) return e;
  if (int e = lookup_type(c, datatype, t)) return e;
  if (int e = check_pointer(c, count, "count")) return e;
  const long long n = elements_in(*t, status_bytes(*status));
  *count = n < 0 ? MPI_UNDEFINED : n;
  return MPI_SUCCESS;
}

/// Which pair of bounds a call reports.
enum class Bounds { Extent, TrueExtent };

int bounds_call(const char* name, MPI_Datatype datatype, Bounds which, MPI_Aint* lb,
                MPI_Aint* extent) {
  ApiCall c(name);
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  const bool true_bounds = which == Bounds::TrueExtent;
  if (lb) *lb = true_bounds ? t->true_lb : t->lb;
  if (extent) *extent = true_bounds ? t->true_extent : t->extent;
  return MPI_SUCCESS;
}

int bounds_x(const char* name, MPI_Datatype datatype, Bounds which, MPI_Count* lb,
             MPI_Count* extent) {
  MPI_Aint l, e;
  if (int rc = bounds_call(name, datatype, which, &l, &e)) return rc;
  *lb = l;
  *extent = e;
  return MPI_SUCCESS;
}

} // namespace

extern "C" {

int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  ApiCall c("MPI_Type_size");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  *size = int_or_undefined(static_cast<long long>(t->size));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_size)

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  ApiCall c("MPI_Type_size_x");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_size_x)

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return bounds_call("MPI_Type_get_extent", datatype, Bounds::Extent, lb, extent);
}
MPISIM_WEAK_ALIAS(Type_get_extent)

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return bounds_x("MPI_Type_get_extent_x", datatype, Bounds::Extent, lb, extent);
}
MPISIM_WEAK_ALIAS(Type_get_extent_x)

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return bounds_call("MPI_Type_get_true_extent", datatype, Bounds::TrueExtent, true_lb,
                     true_extent);
}
MPISIM_WEAK_ALIAS(Type_get_true_extent)

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return bounds_x("MPI_Type_get_true_extent_x", datatype, Bounds::TrueExtent, true_lb, true_extent);
}
MPISIM_WEAK_ALIAS(Type_get_true_extent_x)

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  return bounds_call("MPI_Type_extent", datatype, Bounds::Extent, nullptr, extent);
}
MPISIM_WEAK_ALIAS(Type_extent)

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  return bounds_call("MPI_Type_lb", datatype, Bounds::Extent, displacement, nullptr);
}
MPISIM_WEAK_ALIAS(Type_lb)

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  MPI_Aint lb, extent;
  if (int e = bounds_call("MPI_Type_ub", datatype, Bounds::Extent, &lb, &extent)) return e;
  *displacement = lb + extent;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_ub)

int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  MPI_Count n;
  if (int e = elements_call("MPI_Get_elements", status, datatype, &n)) return e;
  *count = int_or_undefined(n);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Get_elements)

int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return elements_call("MPI_Get_elements_x", status, datatype, count);
}
MPISIM_WEAK_ALIAS(Get_elements_x)

int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                           int* num_datatypes, int* combiner) {
  ApiCall c("MPI_Type_get_envelope");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  const Contents* k = t->contents.get();
  *num_integers = k ? static_cast<int>(k->ints.size()) : 0;
  *num_addresses = k ? static_cast<int>(k->addresses.size()) : 0;
  *num_datatypes = k ? static_cast<int>(k->types.size()) : 0;
  *combiner = k ? k->combiner : MPI_COMBINER_NAMED;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_get_envelope)

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  ApiCall c("MPI_Type_get_contents");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  const Contents* k = t->contents.get();
  if (!k)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   "{} is predefined (combiner MPI_COMBINER_NAMED): it has no contents",
                   t->name ? t->name : "datatype");
  if (static_cast<std::size_t>(std::max(max_integers, 0)) < k->ints.size() ||
      static_cast<std::size_t>(std::max(max_addresses, 0)) < k->addresses.size() ||
      static_cast<std::size_t>(std::max(max_datatypes, 0)) < k->types.size())
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "arrays too small: need {} integers, {} addresses, {} datatypes, got room for "
                   "{}, {}, {} (ask MPI_Type_get_envelope)",
                   k->ints.size(), k->addresses.size(), k->types.size(), max_integers,
                   max_addresses, max_datatypes);
  std::copy(k->ints.begin(), k->ints.end(), array_of_integers);
  std::copy(k->addresses.begin(), k->addresses.end(), array_of_addresses);
  // Derived old types come back as new handles, which the caller frees (MPI-3.1 4.1.13).
  for (std::size_t i = 0; i < k->types.size(); ++i)
    array_of_datatypes[i] =
        k->types[i]->predefined ? k->types[i]->handle : c.w.add_datatype(Datatype(*k->types[i]));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_get_contents)

int PMPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  ApiCall c("MPI_Type_set_name");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  if (int e = check_pointer(c, type_name, "type_name")) return e;
  if (t->predefined)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   "the name of predefined datatype {} cannot be changed (name a MPI_Type_dup of "
                   "it instead)",
                   t->name);
  const_cast<Datatype*>(t)->label.assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_set_name)

int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  ApiCall c("MPI_Type_get_name");
  const Datatype* t;
  if (int e = lookup_type(c, datatype, t)) return e;
  if (int e = check_pointer(c, type_name, "type_name")) return e;
  if (int e = check_pointer(c, resultlen, "resultlen")) return e;
  const std::string_view name = t->predefined ? std::string_view(t->name) : t->label;
  std::memcpy(type_name, name.data(), name.size());
  type_name[name.size()] = '\0';
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_get_name)

} // extern "C"
