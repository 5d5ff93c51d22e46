// Reduction operations: MPI's predefined ops on predefined types, and user ops.
#pragma once

#include <cstddef>

#include "datatype.hpp"
#include "mpi.h"

namespace mpilite {

struct Op {
  MPI_Op handle = MPI_OP_NULL;
  /// The user's function (of MPI_Op_create), null for predefined ops and those of user_c.
  MPI_User_function* user = nullptr;
  bool commutative = true;
  const char* name = nullptr;
  /// The user's function of MPI_Op_create_c, whose length is an MPI_Count.
  MPI_User_function_c* user_c = nullptr;

  bool user_defined() const { return user || user_c; }
};

/// The predefined op of `handle`, or null.
const Op* builtin_op(MPI_Op handle);

/// Whether `op` may reduce `type`: user ops always; predefined ops when all of the type's data
/// is of one predefined type the op is defined for (MPI-3.1 section 5.9.2), whatever its layout.
bool op_applies_to(const Op& op, const Datatype& type);

/// inout[i] = in[i] op inout[i] for `count` elements of `type` (laid out with its extent).
/// Returns MPI_SUCCESS, or MPI_ERR_OP when `op` does not apply to the type.
int apply_op(const Op& op, const Datatype& type, const void* in, void* inout, std::size_t count);

/// Whether predefined `op` is defined on predefined type `basic` (MPI-3.1 section 5.9.2).
bool op_defined_for(MPI_Op op, MPI_Datatype basic);

} // namespace mpilite
