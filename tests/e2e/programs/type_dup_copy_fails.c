/* Attribute callbacks that fail, on a datatype (a library that tags its types with an attribute
 * and refuses to let them be copied): the dup fails and leaves MPI_DATATYPE_NULL, a failing
 * delete callback keeps the value (set and delete fail), and freeing the type runs the delete
 * callback once it succeeds. Each rank prints what it saw; MPICH prints the same. */
#include <mpi.h>
#include <stdio.h>

static int refuse_delete = 1, deletes = 0, copies = 0;

static int copy_refuses(MPI_Datatype type, int keyval, void* extra, void* in, void* out,
                        int* flag) {
  (void)type, (void)keyval, (void)extra, (void)in, (void)out;
  ++copies;
  *flag = 1;
  return MPI_ERR_OTHER;
}

static int delete_may_refuse(MPI_Datatype type, int keyval, void* value, void* extra) {
  (void)type, (void)keyval, (void)value, (void)extra;
  ++deletes;
  return refuse_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype tagged, copy = MPI_INT;
  MPI_Type_contiguous(3, MPI_DOUBLE, &tagged);
  int key;
  MPI_Type_create_keyval(copy_refuses, delete_may_refuse, &key, NULL);
  int first = MPI_Type_set_attr(tagged, key, (void*)(MPI_Aint)(rank + 1));
  int replace = MPI_Type_set_attr(tagged, key, (void*)(MPI_Aint)(rank + 2));
  int del = MPI_Type_delete_attr(tagged, key);
  void* value = NULL;
  int found = 0;
  MPI_Type_get_attr(tagged, key, &value, &found);
  int dup = MPI_Type_dup(tagged, &copy);
  refuse_delete = 0;
  deletes = 0;
  if (copy != MPI_DATATYPE_NULL) MPI_Type_free(&copy);
  MPI_Type_free(&tagged);
  MPI_Type_free_keyval(&key);
  printf("rank %d: set %s, replace %s, delete %s, value kept %s (%ld), dup %s after %d copy "
         "call(s), new type %s, free ran %d delete(s)\n",
         rank, first == MPI_SUCCESS ? "ok" : "failed", replace == MPI_SUCCESS ? "ok" : "failed",
         del == MPI_SUCCESS ? "ok" : "failed", found ? "yes" : "no", (long)(MPI_Aint)value,
         dup == MPI_SUCCESS ? "ok" : "failed", copies,
         copy == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "left", deletes);
  MPI_Finalize();
  return 0;
}
