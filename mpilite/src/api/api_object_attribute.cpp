// MPI entry points: attribute caching on datatypes and windows (MPI-3.1 sections 6.7.3, 6.7.4).
// MPI_Win_get_attr, which also answers the predefined window attributes, is in api_win.cpp.
#include "api_call.hpp"
#include "api_datatype.hpp"
#include "api_win.hpp"
#include "object_attributes.hpp"

using namespace mpilite;

namespace {

/// The datatype's handle check; faults of datatype calls go to MPI_COMM_WORLD's handler.
int check_type_object(ApiCall& c, MPI_Datatype type) {
  const Datatype* t;
  return lookup_type(c, type, t);
}

} // namespace

extern "C" {

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                            MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval,
                            void* extra_state) {
  ApiCall c("MPI_Type_create_keyval");
  return create_object_keyval(c, AttrObject::Type, type_copy_attr_fn, type_delete_attr_fn,
                              extra_state, type_keyval);
}
MPISIM_WEAK_ALIAS(Type_create_keyval)

int PMPI_Type_free_keyval(int* type_keyval) {
  ApiCall c("MPI_Type_free_keyval");
  return free_object_keyval(c, AttrObject::Type, type_keyval);
}
MPISIM_WEAK_ALIAS(Type_free_keyval)

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  ApiCall c("MPI_Type_set_attr");
  if (int e = check_type_object(c, datatype)) return e;
  return set_object_attr(c, AttrObject::Type, datatype, MPI_COMM_WORLD, type_keyval, attribute_val);
}
MPISIM_WEAK_ALIAS(Type_set_attr)

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  ApiCall c("MPI_Type_get_attr");
  if (int e = check_type_object(c, datatype)) return e;
  if (!attribute_val || !flag)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null attribute_val or flag argument");
  bool found = false;
  if (int e = get_object_attr(c, AttrObject::Type, datatype, MPI_COMM_WORLD, type_keyval,
                              static_cast<void**>(attribute_val), &found))
    return e;
  *flag = found;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Type_get_attr)

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  ApiCall c("MPI_Type_delete_attr");
  if (int e = check_type_object(c, datatype)) return e;
  return delete_object_attr(c, AttrObject::Type, datatype, MPI_COMM_WORLD, type_keyval);
}
MPISIM_WEAK_ALIAS(Type_delete_attr)

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                           MPI_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval,
                           void* extra_state) {
  ApiCall c("MPI_Win_create_keyval");
  return create_object_keyval(c, AttrObject::Win, win_copy_attr_fn, win_delete_attr_fn, extra_state,
                              win_keyval);
}
MPISIM_WEAK_ALIAS(Win_create_keyval)

int PMPI_Win_free_keyval(int* win_keyval) {
  ApiCall c("MPI_Win_free_keyval");
  return free_object_keyval(c, AttrObject::Win, win_keyval);
}
MPISIM_WEAK_ALIAS(Win_free_keyval)

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  ApiCall c("MPI_Win_set_attr");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  return set_object_attr(c, AttrObject::Win, win, w->comm, win_keyval, attribute_val);
}
MPISIM_WEAK_ALIAS(Win_set_attr)

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  ApiCall c("MPI_Win_delete_attr");
  Window* w;
  if (int e = check_window(c, win, w)) return e;
  return delete_object_attr(c, AttrObject::Win, win, w->comm, win_keyval);
}
MPISIM_WEAK_ALIAS(Win_delete_attr)

} // extern "C"
