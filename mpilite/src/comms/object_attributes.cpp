#include "object_attributes.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "api_call.hpp"
#include "attribute_callbacks.hpp"
#include "handle_table.hpp"

namespace mpilite {
namespace {

struct ObjectKeyval {
  AttrObject kind;
  Keyval k;
};

const char* kind_name(AttrObject kind) {
  return kind == AttrObject::Type ? "Type" : "Win";
}

/// The keyvals and values of the host process. Ranks are fibers of one thread: no locking.
struct Store {
  HandleTable<ObjectKeyval> keyvals{0xa5000000u};
  /// (kind, world rank, object handle) -> values in the order set.
  std::map<std::tuple<AttrObject, int, int>, std::vector<Attribute>> values;

  void retain(int keyval) { ++keyvals.find(keyval)->k.refs; }
  void release(int keyval) {
    ObjectKeyval* o = keyvals.find(keyval);
    if (o && --o->k.refs == 0) keyvals.erase(keyval);
  }
};

Store& store() {
  static Store s;
  return s;
}

/// The keyval of `kind` named `keyval`, or an error.
int check_keyval(ApiCall& c, AttrObject kind, MPI_Comm errors, int keyval, ObjectKeyval*& out) {
  out = store().keyvals.find(keyval);
  if (!out || out->kind != kind)
    return c.error(errors, MPI_ERR_KEYVAL,
                   "invalid keyval {:#x} (make one with MPI_{}_create_keyval)",
                   static_cast<unsigned>(keyval), kind_name(kind));
  return MPI_SUCCESS;
}

std::vector<Attribute>* values_of(ApiCall& c, AttrObject kind, int object) {
  auto it = store().values.find({kind, c.r.id, object});
  return it == store().values.end() ? nullptr : &it->second;
}

Attribute* find_value(ApiCall& c, AttrObject kind, int object, int keyval) {
  std::vector<Attribute>* v = values_of(c, kind, object);
  if (!v) return nullptr;
  auto it = std::find_if(v->begin(), v->end(),
                         [keyval](const Attribute& a) { return a.keyval == keyval; });
  return it == v->end() ? nullptr : &*it;
}

} // namespace

int create_object_keyval(ApiCall& c, AttrObject kind, MPI_Type_copy_attr_function* copy,
                         MPI_Type_delete_attr_function* del, void* extra_state, int* keyval) {
  if (int e = c.check_init()) return e;
  if (!keyval) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval argument");
  *keyval = store().keyvals.add({kind, {copy, del, extra_state, 1}});
  return MPI_SUCCESS;
}

int free_object_keyval(ApiCall& c, AttrObject kind, int* keyval) {
  if (int e = c.check_init()) return e;
  if (!keyval) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval argument");
  ObjectKeyval* o;
  if (int e = check_keyval(c, kind, MPI_COMM_WORLD, *keyval, o)) return e;
  if (!std::exchange(o->k.freed, true)) store().release(*keyval);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_object_attr(ApiCall& c, AttrObject kind, int object, MPI_Comm errors, int keyval,
                    void* value) {
  ObjectKeyval* o;
  if (int e = check_keyval(c, kind, errors, keyval, o)) return e;
  if (int e = delete_object_attr(c, kind, object, errors, keyval)) return e;
  store().retain(keyval);
  store().values[{kind, c.r.id, object}].push_back({keyval, value});
  return MPI_SUCCESS;
}

int get_object_attr(ApiCall& c, AttrObject kind, int object, MPI_Comm errors, int keyval,
                    void** value, bool* found) {
  ObjectKeyval* o;
  if (int e = check_keyval(c, kind, errors, keyval, o)) return e;
  const Attribute* a = find_value(c, kind, object, keyval);
  *found = a != nullptr;
  if (a) *value = a->value;
  return MPI_SUCCESS;
}

int delete_object_attr(ApiCall& c, AttrObject kind, int object, MPI_Comm errors, int keyval) {
  ObjectKeyval* o;
  if (int e = check_keyval(c, kind, errors, keyval, o)) return e;
  const Attribute* a = find_value(c, kind, object, keyval);
  if (!a) return MPI_SUCCESS;
  if (int e = run_delete_callback(c, errors, o->k, object, keyval, a->value)) return e;
  if (std::vector<Attribute>* v = values_of(c, kind, object)) {
    std::erase_if(*v, [keyval](const Attribute& x) { return x.keyval == keyval; });
    if (v->empty()) store().values.erase({kind, c.r.id, object});
  }
  store().release(keyval);
  return MPI_SUCCESS;
}

int copy_object_attrs(ApiCall& c, AttrObject kind, int from, int to, MPI_Comm errors) {
  const std::vector<Attribute>* v = values_of(c, kind, from);
  if (!v) return MPI_SUCCESS;
  const int e = run_copy_callbacks(
      c, errors, from, *v,
      [](int keyval) -> const Keyval* {
        const ObjectKeyval* o = store().keyvals.find(keyval);
        return o ? &o->k : nullptr;
      },
      [&](int keyval, void* copied) {
        store().retain(keyval);
        store().values[{kind, c.r.id, to}].push_back({keyval, copied});
      });
  // A failed copy callback fails the dup, whose object the caller then drops: the values copied
  // before it go with it, without delete callbacks, since the program never saw the object.
  if (e != MPI_SUCCESS) {
    if (const std::vector<Attribute>* copied = values_of(c, kind, to))
      for (const Attribute& a : *copied)
        store().release(a.keyval);
    store().values.erase({kind, c.r.id, to});
  }
  return e;
}

int delete_object_attrs(ApiCall& c, AttrObject kind, int object, MPI_Comm errors) {
  while (const std::vector<Attribute>* v = values_of(c, kind, object))
    if (int e = delete_object_attr(c, kind, object, errors, v->back().keyval)) return e;
  return MPI_SUCCESS;
}

} // namespace mpilite
