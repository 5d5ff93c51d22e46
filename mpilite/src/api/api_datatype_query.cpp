// MPI entry points: what a datatype is (size, bounds, element counts, how it was made, name).
#include <algorithm>
#include <array>
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

/// Looks up `datatype` for `c`, an int form (`large_form` false) or a large-count form of the
/// decoding calls: the int forms cannot decode a type that has large counts (MPI-4.0 section
/// 5.1.13).
int lookup_decodable(ApiCall& c, MPI_Datatype datatype, bool large_form, const Datatype*& t) {
  if (int e = lookup_type(c, datatype, t)) return e;
  if (!large_form && t->contents && !t->contents->large_counts.empty())
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   "the datatype was made by a large-count constructor: decode it with {}_c",
                   c.name);
  return MPI_SUCCESS;
}

/// MPI_Type_get_envelope (N = int, no `num_large_counts`) and MPI_Type_get_envelope_c.
template <class N>
int envelope_call(const char* name, MPI_Datatype datatype, N* num_integers, N* num_addresses,
                  N* num_large_counts, N* num_datatypes, int* combiner) {
  ApiCall c(name);
  const Datatype* t;
  if (int e = lookup_decodable(c, datatype, num_large_counts != nullptr, t)) return e;
  const Contents* k = t->contents.get();
  auto entries = [](const auto& v) { return static_cast<N>(v.size()); };
  *num_integers = k ? entries(k->ints) : 0;
  *num_addresses = k ? entries(k->addresses) : 0;
  if (num_large_counts) *num_large_counts = k ? entries(k->large_counts) : 0;
  *num_datatypes = k ? entries(k->types) : 0;
  *combiner = k ? k->combiner : MPI_COMBINER_NAMED;
  return MPI_SUCCESS;
}

/// MPI_Type_get_contents (no `large_counts`) and MPI_Type_get_contents_c: `room` holds the
/// sizes of the integers, addresses, large counts and datatypes arrays.
int contents_call(const char* name, MPI_Datatype datatype, const std::array<MPI_Count, 4>& room,
                  int* integers, MPI_Aint* addresses, MPI_Count* large_counts,
                  MPI_Datatype* datatypes) {
  ApiCall c(name);
  const Datatype* t;
  if (int e = lookup_decodable(c, datatype, large_counts != nullptr, t)) return e;
  const Contents* k = t->contents.get();
  if (!k)
    return c.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   "{} is predefined (combiner MPI_COMBINER_NAMED): it has no contents",
                   t->name ? t->name : "datatype");
  const std::array<std::size_t, 4> need{k->ints.size(), k->addresses.size(), k->large_counts.size(),
                                        k->types.size()};
  for (std::size_t i = 0; i < need.size(); ++i)
    if (static_cast<MPI_Count>(need[i]) > room[i])
      return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "arrays too small: need {} integers, {} addresses, {} large counts, {} "
                     "datatypes, got room for {}, {}, {}, {} (ask {})",
                     need[0], need[1], need[2], need[3], room[0], room[1], room[2], room[3],
                     large_counts ? "MPI_Type_get_envelope_c" : "MPI_Type_get_envelope");
  std::copy(k->ints.begin(), k->ints.end(), integers);
  std::copy(k->addresses.begin(), k->addresses.end(), addresses);
  std::copy(k->large_counts.begin(), k->large_counts.end(), large_counts);
  // Derived old types come back as new handles, which the caller frees (MPI-3.1 4.1.13).
  for (std::size_t i = 0; i < k->types.size(); ++i)
    datatypes[i] =
        k->types[i]->predefined ? k->types[i]->handle : c.w.add_datatype(Datatype(*k->types[i]));
  return MPI_SUCCESS;
}

} // namespace

void mpilite::record_large_counts(MPI_Datatype h) {
  Datatype* t = const_cast<Datatype*>(World::get().datatype(h));
  if (!t || !t->contents) return;
  auto k = std::make_shared<Contents>(*t->contents);
  std::vector<int>& ints = k->ints;
  std::vector<MPI_Count>& large = k->large_counts;
  const auto at = [&ints](std::size_t i) { return ints.begin() + static_cast<std::ptrdiff_t>(i); };
  if (k->combiner == MPI_COMBINER_SUBARRAY) {
    // ndims, sizes, subsizes, starts, order: ndims and order stay.
    large.assign(at(1), ints.end() - 1);
    ints.erase(at(1), ints.end() - 1);
  } else if (k->combiner == MPI_COMBINER_DARRAY) {
    // size, rank, ndims, gsizes, distribs, dargs, psizes, order: the gsizes go.
    const auto ndims = static_cast<std::size_t>(ints[2]);
    large.assign(at(3), at(3 + ndims));
    ints.erase(at(3), at(3 + ndims));
  } else {
    // The others: counts and displacements, as the int form has them in order.
    large.assign(ints.begin(), ints.end());
    large.insert(large.end(), k->addresses.begin(), k->addresses.end());
    ints.clear();
    k->addresses.clear();
  }
  t->contents = std::move(k);
}

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
  return envelope_call<int>("MPI_Type_get_envelope", datatype, num_integers, num_addresses, nullptr,
                            num_datatypes, combiner);
}
MPISIM_WEAK_ALIAS(Type_get_envelope)

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers,
                             MPI_Count* num_addresses, MPI_Count* num_large_counts,
                             MPI_Count* num_datatypes, int* combiner) {
  return envelope_call("MPI_Type_get_envelope_c", datatype, num_integers, num_addresses,
                       num_large_counts, num_datatypes, combiner);
}
MPISIM_WEAK_ALIAS(Type_get_envelope_c)

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  return contents_call("MPI_Type_get_contents", datatype,
                       {max_integers, max_addresses, 0, max_datatypes}, array_of_integers,
                       array_of_addresses, nullptr, array_of_datatypes);
}
MPISIM_WEAK_ALIAS(Type_get_contents)

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes,
                             int array_of_integers[], MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]) {
  return contents_call("MPI_Type_get_contents_c", datatype,
                       {max_integers, max_addresses, max_large_counts, max_datatypes},
                       array_of_integers, array_of_addresses, array_of_large_counts,
                       array_of_datatypes);
}
MPISIM_WEAK_ALIAS(Type_get_contents_c)

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
