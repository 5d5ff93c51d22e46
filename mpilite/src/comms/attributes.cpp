#include "attributes.hpp"

#include <algorithm>

#include "api_call.hpp"
#include "attribute_callbacks.hpp"
#include "user_errors.hpp"

namespace mpilite {

Keyvals::Keyvals(int world_size)
    : values_{kTagUpperBound, MPI_PROC_NULL, MPI_ANY_SOURCE, 1, world_size, MPI_ERR_LASTCODE, 0} {}

void* Keyvals::predefined(int keyval) {
  // MPI_HOST: no process is a host; MPI_IO: every process can do I/O; MPI_WTIME_IS_GLOBAL:
  // simulated clocks are synchronized; MPI_UNIVERSE_SIZE: no processes beyond the world.
  switch (keyval) {
  case MPI_TAG_UB:
    return &values_[0];
  case MPI_HOST:
    return &values_[1];
  case MPI_IO:
    return &values_[2];
  case MPI_WTIME_IS_GLOBAL:
    return &values_[3];
  case MPI_UNIVERSE_SIZE:
    return &values_[4];
  case MPI_LASTUSEDCODE:
    return &values_[5];
  case MPI_APPNUM:
    return &values_[6];
  default:
    return nullptr;
  }
}

namespace {

Attribute* find_attribute(Rank& r, MPI_Comm comm, int keyval) {
  CommLocal* l = r.comms.find(comm);
  if (!l) return nullptr;
  auto it = std::find_if(l->attributes.begin(), l->attributes.end(),
                         [keyval](const Attribute& a) { return a.keyval == keyval; });
  return it == l->attributes.end() ? nullptr : &*it;
}

/// Checks that `keyval` is one the program may set or delete.
int check_writable(ApiCall& c, const Comm& comm, int keyval) {
  if (c.w.keyvals().predefined(keyval))
    return c.error(comm.handle, MPI_ERR_KEYVAL,
                   "keyval {:#x} is a predefined attribute, which the program cannot change",
                   static_cast<unsigned>(keyval));
  if (!c.w.keyvals().find(keyval))
    return c.error(comm.handle, MPI_ERR_KEYVAL,
                   "invalid keyval {:#x} (make one with MPI_Comm_create_keyval)",
                   static_cast<unsigned>(keyval));
  return MPI_SUCCESS;
}

} // namespace

int run_delete_callback(ApiCall& c, MPI_Comm errors, const Keyval& k, int object, int keyval,
                        void* value) {
  if (!k.del) return MPI_SUCCESS;
  const int rc = k.del(object, keyval, value, k.extra_state);
  if (rc != MPI_SUCCESS)
    return c.error(errors, rc, "the delete callback of keyval {:#x} returned error {}",
                   static_cast<unsigned>(keyval), rc);
  return MPI_SUCCESS;
}

int run_copy_callbacks(ApiCall& c, MPI_Comm errors, int from, const std::vector<Attribute>& values,
                       const std::function<const Keyval*(int)>& find,
                       const std::function<void(int, void*)>& keep) {
  const std::vector<Attribute> copy = values; // callbacks may change the list
  for (const Attribute& a : copy) {
    const Keyval* k = find(a.keyval);
    if (!k || !k->copy) continue;
    void* copied = nullptr;
    int flag = 0;
    const int rc = k->copy(from, a.keyval, k->extra_state, a.value, &copied, &flag);
    if (rc != MPI_SUCCESS)
      return c.error(errors, rc, "the copy callback of keyval {:#x} returned error {}",
                     static_cast<unsigned>(a.keyval), rc);
    if (flag) keep(a.keyval, copied);
  }
  return MPI_SUCCESS;
}

int set_attribute(ApiCall& c, const Comm& comm, int keyval, void* value) {
  if (int e = check_writable(c, comm, keyval)) return e;
  if (int e = delete_attribute(c, comm, keyval)) return e;
  c.w.keyvals().retain(keyval);
  c.r.comms.at(comm.handle).attributes.push_back({keyval, value});
  return MPI_SUCCESS;
}

int get_attribute(ApiCall& c, const Comm& comm, int keyval, void** value, bool* found) {
  if (void* v = c.w.keyvals().predefined(keyval)) {
    // MPI_LASTUSEDCODE follows the error codes this rank added.
    *value = keyval == MPI_LASTUSEDCODE ? last_used_code(c.r.id) : v;
    *found = true;
    return MPI_SUCCESS;
  }
  if (!c.w.keyvals().find(keyval))
    return c.error(comm.handle, MPI_ERR_KEYVAL, "invalid keyval {:#x}",
                   static_cast<unsigned>(keyval));
  const Attribute* a = find_attribute(c.r, comm.handle, keyval);
  *found = a != nullptr;
  if (a) *value = a->value;
  return MPI_SUCCESS;
}

int delete_attribute(ApiCall& c, const Comm& comm, int keyval) {
  if (int e = check_writable(c, comm, keyval)) return e;
  const Attribute* a = find_attribute(c.r, comm.handle, keyval);
  if (!a) return MPI_SUCCESS;
  const Keyval k = *c.w.keyvals().find(keyval);
  if (int e = run_delete_callback(c, comm.handle, k, comm.handle, keyval, a->value)) return e;
  if (CommLocal* l = c.r.comms.find(comm.handle))
    std::erase_if(l->attributes, [keyval](const Attribute& x) { return x.keyval == keyval; });
  c.w.keyvals().release(keyval);
  return MPI_SUCCESS;
}

int copy_attributes(ApiCall& c, const Comm& from, const Comm& to) {
  const CommLocal* l = c.r.comms.find(from.handle);
  if (!l) return MPI_SUCCESS;
  return run_copy_callbacks(
      c, from.handle, from.handle, l->attributes,
      [&](int keyval) { return c.w.keyvals().find(keyval); },
      [&](int keyval, void* copied) {
        c.w.keyvals().retain(keyval);
        c.r.comms.at(to.handle).attributes.push_back({keyval, copied});
      });
}

int delete_attributes(ApiCall& c, const Comm& comm) {
  for (;;) {
    const CommLocal* l = c.r.comms.find(comm.handle);
    if (!l || l->attributes.empty()) return MPI_SUCCESS;
    if (int e = delete_attribute(c, comm, l->attributes.back().keyval)) return e;
  }
}

} // namespace mpilite
