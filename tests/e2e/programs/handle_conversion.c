/* The C side of a mixed C/Fortran code: every handle goes to Fortran as an INTEGER
 * (MPI_x_c2f) and comes back (MPI_x_f2c), and statuses are converted both ways. The handles
 * that come back are used: a reduction on the converted communicator and op, a type's size, a
 * group's size, a request waited on, a matched message received, a window fenced, an info read.
 * Prints what each use gives. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm comm = MPI_Comm_f2c(MPI_Comm_c2f(dup));
  MPI_Op op = MPI_Op_f2c(MPI_Op_c2f(MPI_MAX));
  int top = 0;
  MPI_Allreduce(&rank, &top, 1, MPI_INT, op, comm);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Datatype back_type = MPI_Type_f2c(MPI_Type_c2f(pair));
  int type_size;
  MPI_Type_size(back_type, &type_size);
  MPI_Group group, back_group;
  MPI_Comm_group(comm, &group);
  back_group = MPI_Group_f2c(MPI_Group_c2f(group));
  int group_size;
  MPI_Group_size(back_group, &group_size);
  MPI_Errhandler eh = MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN));
  MPI_Comm_set_errhandler(comm, eh);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "key", "value");
  MPI_Info back_info = MPI_Info_f2c(MPI_Info_c2f(info));
  char value[16] = "";
  int found;
  MPI_Info_get(back_info, "key", sizeof value - 1, value, &found);
  printf("rank %d: max %d, type size %d, group size %d, info %s\n", rank, top, type_size,
         group_size, value);
  /* A ring: the send request and the matched message cross to Fortran and back. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = 100 + rank, in = -1;
  MPI_Request req;
  MPI_Isend(&out, 1, MPI_INT, right, 7, comm, &req);
  MPI_Message msg;
  MPI_Status st;
  MPI_Mprobe(left, 7, comm, &msg, &st);
  MPI_Message back_msg = MPI_Message_f2c(MPI_Message_c2f(msg));
  MPI_Mrecv(&in, 1, MPI_INT, &back_msg, &st);
  MPI_Request back_req = MPI_Request_f2c(MPI_Request_c2f(req));
  MPI_Wait(&back_req, MPI_STATUS_IGNORE);
  MPI_Fint f_status[sizeof(MPI_Status) / sizeof(MPI_Fint)];
  MPI_Status back_status;
  MPI_Status_c2f(&st, f_status);
  MPI_Status_f2c(f_status, &back_status);
  int count;
  MPI_Get_count(&back_status, MPI_INT, &count);
  printf("rank %d: got %d from %d tag %d count %d, request null %d, message null %d\n", rank, in,
         back_status.MPI_SOURCE, back_status.MPI_TAG, count, back_req == MPI_REQUEST_NULL,
         back_msg == MPI_MESSAGE_NULL);
  /* A window converted and back is the same window, fenced through the converted handle. */
  int slot = rank;
  MPI_Win win;
  MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, comm, &win);
  MPI_Win back_win = MPI_Win_f2c(MPI_Win_c2f(win));
  MPI_Win_fence(0, back_win);
  MPI_Win_fence(0, back_win);
  printf("rank %d: same window %d; null handles %d\n", rank, back_win == win,
         MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL &&
             MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL &&
             MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
  MPI_Win_free(&win);
  /* MPI-4.0's copy of MPI_INFO_ENV: an info object of its own, whatever keys it holds. */
  MPI_Info env;
  int env_keys = -1;
  const int env_made = MPI_Info_create_env(argc, argv, &env) == MPI_SUCCESS;
  MPI_Info_get_nkeys(env, &env_keys);
  printf("rank %d: environment info made %d, keys counted %d, not MPI_INFO_ENV %d\n", rank,
         env_made, env_keys >= 0, env != MPI_INFO_ENV);
  MPI_Info_free(&env);
  MPI_Info_free(&info);
  MPI_Group_free(&group);
  MPI_Type_free(&pair);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
