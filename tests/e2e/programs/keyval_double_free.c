/* A keyval freed several times while attributes keep it alive: by the attribute's delete
 * callback (once per attribute), and twice by the program (through two copies of the handle).
 * MPICH accepts each free (its test attr/keyval_double_free does this); the callbacks run once
 * per attribute. */
#include <mpi.h>
#include <stdio.h>

static int deletes;

static int delete_fn(MPI_Comm comm, int keyval, void* attr, void* extra) {
  (void)comm, (void)attr, (void)extra;
  ++deletes;
  return MPI_Keyval_free(&keyval);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, keyval = MPI_KEYVAL_INVALID, keyval_copy, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm duped;
  MPI_Comm_dup(MPI_COMM_SELF, &duped);
  MPI_Keyval_create(MPI_NULL_COPY_FN, delete_fn, &keyval, NULL);
  keyval_copy = keyval;
  errors += MPI_Attr_put(MPI_COMM_SELF, keyval, NULL) != MPI_SUCCESS;
  errors += MPI_Attr_put(duped, keyval, NULL) != MPI_SUCCESS;
  errors += MPI_Comm_free(&duped) != MPI_SUCCESS;         /* first free, in the callback */
  errors += MPI_Keyval_free(&keyval) != MPI_SUCCESS;      /* second */
  errors += MPI_Keyval_free(&keyval_copy) != MPI_SUCCESS; /* third */
  errors += keyval != MPI_KEYVAL_INVALID || keyval_copy != MPI_KEYVAL_INVALID;
  if (rank == 0)
    printf("keyval_double_free: %d errors, %d delete callbacks before finalize\n", errors, deletes);
  MPI_Finalize(); /* fourth, in the callback of MPI_COMM_SELF's attribute */
  return 0;
}
