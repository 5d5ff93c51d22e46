/* Uses the constants, types and callbacks of MPI-3.1's mpi.h; valid C99 and C++11, compiled with
   -Wall -Wextra -pedantic -Werror as both. Run, it calls a function mpisim does not implement. */
#include <mpi.h>

#include <stdio.h>

static int copy_attr(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)comm, (void)keyval, (void)extra;
  *(void**)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

static void on_error(MPI_Comm* comm, int* code, ...) {
  (void)comm, (void)code;
}

static int query(void* extra_state, MPI_Status* status) {
  (void)extra_state;
  return MPI_Status_set_cancelled(status, 0);
}

int main(int argc, char** argv) {
  MPI_Comm_copy_attr_function* copies[] = {copy_attr, MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN};
  MPI_Type_copy_attr_function* type_copy = MPI_TYPE_DUP_FN;
  MPI_Win_delete_attr_function* win_delete = MPI_WIN_NULL_DELETE_FN;
  MPI_Comm_errhandler_function* handler = on_error;
  MPI_Grequest_query_function* query_fn = query;
  MPI_Datarep_conversion_function* conversion = MPI_CONVERSION_FN_NULL;
  MPI_T_pvar_handle all = MPI_T_PVAR_ALL_HANDLES;
  MPI_F08_status f08;
  MPI_Status status;
  MPI_Aint extent = MPI_DISPLACEMENT_CURRENT;
  MPI_Offset offset = MPI_SEEK_END;
  MPI_Count count = MPI_LOCK_SHARED;
  MPI_File file = MPI_FILE_NULL;
  MPI_Win win = MPI_WIN_NULL;
  MPI_Comm children = MPI_COMM_NULL;
  const MPI_Datatype types[] = {MPI_CXX_BOOL, MPI_INTEGER,   MPI_DOUBLE_PRECISION,
                                MPI_2INTEGER, MPI_COMPLEX16, MPI_AINT,
                                MPI_COUNT,    MPI_OFFSET};
  const int modes = MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_NOCHECK | MPI_MODE_NOPRECEDE;
  char command[] = "worker";
  int rank = -1;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  f08.MPI_SOURCE = rank;
  /* The completion calls take MPI_STATUSES_IGNORE without a warning: GCC 11 and later warn of
     an access "in a region of size 0" where the statuses are declared as an array. */
  MPI_Request none[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int done = 0, which[2];
  MPI_Waitall(2, none, MPI_STATUSES_IGNORE);
  MPI_Testall(2, none, &done, MPI_STATUSES_IGNORE);
  MPI_Waitsome(2, none, &done, which, MPI_STATUSES_IGNORE);
  MPI_Testsome(2, none, &done, which, MPI_STATUSES_IGNORE);
  status.MPI_TAG = MPI_T_SCOPE_ALL_EQ;
  if (rank == 0)
    printf("mpi_interface: %d copy callbacks, %d types, modes %#x, %d %d %d %d %d %d %d %d %d\n",
           (int)(sizeof copies / sizeof copies[0]), (int)(sizeof types / sizeof types[0]), modes,
           type_copy != 0, win_delete == 0, handler != 0, query_fn != 0, conversion == 0,
           all != MPI_T_PVAR_HANDLE_NULL, f08.MPI_SOURCE + status.MPI_TAG > 0,
           extent + offset + count != 0, file == MPI_FILE_NULL && win == MPI_WIN_NULL);
  fflush(stdout);
  MPI_Comm_spawn(command, MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children,
                 MPI_ERRCODES_IGNORE);
  MPI_Finalize();
  return 0;
}
