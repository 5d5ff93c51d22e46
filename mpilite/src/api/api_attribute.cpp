// MPI entry points: attribute caching on communicators, in the MPI-2 names and the deprecated
// MPI-1 ones (same semantics in C).
#include <utility>

#include "api_call.hpp"
#include "attributes.hpp"

using namespace mpilite;

namespace {

int create_keyval(const char* name, MPI_Comm_copy_attr_function* copy_fn,
                  MPI_Comm_delete_attr_function* delete_fn, int* keyval, void* extra_state) {
  ApiCall c(name);
  if (int e = c.check_init()) return e;
  if (!keyval) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval argument");
  *keyval = c.w.keyvals().add({copy_fn, delete_fn, extra_state, 1});
  return MPI_SUCCESS;
}

int free_keyval(const char* name, int* keyval) {
  ApiCall c(name);
  if (int e = c.check_init()) return e;
  if (!keyval) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval argument");
  if (c.w.keyvals().predefined(*keyval))
    return c.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "keyval {:#x} is predefined",
                   static_cast<unsigned>(*keyval));
  Keyval* k = c.w.keyvals().find(*keyval);
  if (!k)
    return c.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "invalid keyval {:#x}",
                   static_cast<unsigned>(*keyval));
  // Attributes set with it keep it alive (and get their delete callbacks) until they go.
  if (!std::exchange(k->freed, true)) c.w.keyvals().release(*keyval);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(const char* name, MPI_Comm comm, int keyval, void* value) {
  ApiCall c(name);
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  return set_attribute(c, *cm, keyval, value);
}

int get_attr(const char* name, MPI_Comm comm, int keyval, void* value, int* flag) {
  ApiCall c(name);
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  if (!value || !flag) return c.error(comm, MPI_ERR_ARG, "null attribute_val or flag argument");
  bool found = false;
  if (int e = get_attribute(c, *cm, keyval, static_cast<void**>(value), &found)) return e;
  *flag = found;
  return MPI_SUCCESS;
}

int delete_attr(const char* name, MPI_Comm comm, int keyval) {
  ApiCall c(name);
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  return delete_attribute(c, *cm, keyval);
}

} // namespace

extern "C" {

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
                            void* extra_state) {
  return create_keyval("MPI_Comm_create_keyval", comm_copy_attr_fn, comm_delete_attr_fn,
                       comm_keyval, extra_state);
}
MPISIM_WEAK_ALIAS(Comm_create_keyval)

int PMPI_Comm_free_keyval(int* comm_keyval) {
  return free_keyval("MPI_Comm_free_keyval", comm_keyval);
}
MPISIM_WEAK_ALIAS(Comm_free_keyval)

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  return set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}
MPISIM_WEAK_ALIAS(Comm_set_attr)

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  return get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}
MPISIM_WEAK_ALIAS(Comm_get_attr)

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  return delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}
MPISIM_WEAK_ALIAS(Comm_delete_attr)

int PMPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval,
                       void* extra_state) {
  return create_keyval("MPI_Keyval_create", copy_fn, delete_fn, keyval, extra_state);
}
MPISIM_WEAK_ALIAS(Keyval_create)

int PMPI_Keyval_free(int* keyval) {
  return free_keyval("MPI_Keyval_free", keyval);
}
MPISIM_WEAK_ALIAS(Keyval_free)

int PMPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  return set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}
MPISIM_WEAK_ALIAS(Attr_put)

int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}
MPISIM_WEAK_ALIAS(Attr_get)

int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
  return delete_attr("MPI_Attr_delete", comm, keyval);
}
MPISIM_WEAK_ALIAS(Attr_delete)

} // extern "C"
