// MPI entry points: user-defined reduction operations and local reductions.
#include "api_call.hpp"

using namespace mpilite;

namespace {

/// MPI_Op_create and MPI_Op_create_c: `user` holds the function.
int create_op(const char* name, const Op& user, MPI_Op* op) {
  ApiCall c(name);
  if (int e = c.check_init()) return e;
  if (!user.user_defined()) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null user function");
  if (!op) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer for the new operation");
  *op = c.w.ops().add(user);
  return MPI_SUCCESS;
}

int lookup_op(ApiCall& c, MPI_Op h, const Op*& out) {
  out = c.w.op(h);
  if (out) return MPI_SUCCESS;
  return c.error(MPI_COMM_WORLD, MPI_ERR_OP, "invalid operation {:#x}", static_cast<unsigned>(h));
}

} // namespace

extern "C" {

int PMPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return create_op("MPI_Op_create", {.user = user_fn, .commutative = commute != 0}, op);
}
MPISIM_WEAK_ALIAS(Op_create)

// MPI-4.0: the same op, whose function takes its length as an MPI_Count (apply_op passes one).
int PMPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  return create_op("MPI_Op_create_c", {.commutative = commute != 0, .user_c = user_fn}, op);
}
MPISIM_WEAK_ALIAS(Op_create_c)

int PMPI_Op_free(MPI_Op* op) {
  ApiCall c("MPI_Op_free");
  if (int e = c.check_init()) return e;
  if (!op) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null pointer to the operation");
  const Op* o;
  if (int e = lookup_op(c, *op, o)) return e;
  if (!o->user_defined())
    return c.error(MPI_COMM_WORLD, MPI_ERR_OP, "cannot free predefined operation {}", o->name);
  // Operations in progress keep their own copy (Schedule::set_op), as MPI allows.
  c.w.ops().free(*op);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Op_free)

int PMPI_Op_commutative(MPI_Op op, int* commute) {
  ApiCall c("MPI_Op_commutative");
  const Op* o;
  if (int e = lookup_op(c, op, o)) return e;
  *commute = o->commutative ? 1 : 0;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Op_commutative)

int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op) {
  ApiCall c("MPI_Reduce_local");
  Comm* world;
  if (int e = c.check_comm(MPI_COMM_WORLD, world)) return e;
  const Datatype* type;
  const Op* o;
  if (int e = c.check_count(*world, count)) return e;
  if (int e = c.check_type(*world, datatype, type)) return e;
  if (int e = c.check_op(*world, op, *type, o)) return e;
  if (int e = c.check_buffer(*world, inbuf, count)) return e;
  if (int e = c.check_buffer(*world, inoutbuf, count)) return e;
  if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
    return c.error(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                   "MPI_IN_PLACE is not allowed in MPI_Reduce_local");
  if (count == 0) return MPI_SUCCESS;
  const int error = apply_op(*o, *type, inbuf, inoutbuf, static_cast<std::size_t>(count));
  if (error == MPI_SUCCESS) return error;
  return c.error(MPI_COMM_WORLD, error, "{} cannot be applied to datatype {}",
                 o->name ? o->name : "the user operation", type->name ? type->name : "(derived)");
}
MPISIM_WEAK_ALIAS(Reduce_local)

} // extern "C"
