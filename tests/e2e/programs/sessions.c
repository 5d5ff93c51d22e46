/* MPI-4.0 sessions: each rank opens a session (alongside MPI_Init, or with "alone" without it, as
 * MPI-4.0 allows), lists its process sets and their sizes, makes a communicator from the group of
 * mpi://WORLD with MPI_Comm_create_from_group and runs an allreduce, a ring exchange and a
 * broadcast on it; a second communicator from mpi://SELF has one rank. Rank 0 prints what every
 * rank saw. With MPI_Init, the errors of an invalid session and of an unknown pset name return
 * their classes (MPICH's), and a session's own error handler is called. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int handler_calls, handler_code;

static void on_session_error(MPI_Session* session, int* code, ...) {
  (void)session;
  ++handler_calls;
  handler_code = *code;
}

static const char* class_name(int code) {
  int cls;
  MPI_Error_class(code, &cls);
  switch (cls) {
  case MPI_SUCCESS:
    return "MPI_SUCCESS";
  case MPI_ERR_ARG:
    return "MPI_ERR_ARG";
  case MPI_ERR_SESSION:
    return "MPI_ERR_SESSION";
  case MPI_ERR_OTHER:
    return "MPI_ERR_OTHER";
  default:
    return "another class";
  }
}

/* Errors, printed by rank 0 only: all of them are local. */
static void errors(MPI_Session session) {
  MPI_Group g;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Session_set_errhandler(session, MPI_ERRORS_RETURN);
  printf("unknown pset: %s\n", class_name(MPI_Group_from_session_pset(session, "mpi://NONE", &g)));
  MPI_Info info;
  printf("info of an unknown pset: %s\n",
         class_name(MPI_Session_get_pset_info(session, "mpi://NONE", &info)));
  MPI_Errhandler mine;
  MPI_Session_create_errhandler(on_session_error, &mine);
  MPI_Session_set_errhandler(session, mine);
  MPI_Errhandler got;
  MPI_Session_get_errhandler(session, &got);
  printf("get_errhandler gives the one set: %d\n", got == mine);
  MPI_Errhandler_free(&got);
  MPI_Session_call_errhandler(session, MPI_ERR_OTHER);
  printf("session handler called %d times, last with %s\n", handler_calls,
         class_name(handler_code));
  MPI_Session_set_errhandler(session, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&mine);
  MPI_Session dead;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &dead);
  MPI_Session_finalize(&dead);
  printf("finalize gives MPI_SESSION_NULL: %d\n", dead == MPI_SESSION_NULL);
  int n;
  printf("MPI_SESSION_NULL: %s\n", class_name(MPI_Session_get_num_psets(dead, MPI_INFO_NULL, &n)));
}

int main(int argc, char** argv) {
  const int alone = argc > 1 && strcmp(argv[1], "alone") == 0;
  if (!alone) MPI_Init(&argc, &argv);
  MPI_Session session;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);

  int npsets;
  MPI_Session_get_num_psets(session, MPI_INFO_NULL, &npsets);
  char names[2][MPI_MAX_PSET_NAME_LEN];
  int sizes[2];
  for (int i = 0; i < npsets && i < 2; ++i) {
    int len = 0;
    MPI_Session_get_nth_pset(session, MPI_INFO_NULL, i, &len, NULL);
    MPI_Session_get_nth_pset(session, MPI_INFO_NULL, i, &len, names[i]);
    MPI_Info info;
    MPI_Session_get_pset_info(session, names[i], &info);
    char value[32];
    int flag;
    MPI_Info_get(info, "mpi_size", (int)sizeof value - 1, value, &flag);
    sizes[i] = flag ? atoi(value) : -1;
    MPI_Info_free(&info);
  }

  MPI_Group world_group, self_group;
  MPI_Group_from_session_pset(session, "mpi://WORLD", &world_group);
  MPI_Group_from_session_pset(session, "mpi://SELF", &self_group);
  MPI_Comm comm, self;
  MPI_Comm_create_from_group(world_group, "mpisim.sessions.world", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                             &comm);
  MPI_Comm_create_from_group(self_group, "mpisim.sessions.self", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                             &self);
  int rank, size, self_size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_size(self, &self_size);

  int sum;
  const int mine = 10 * (rank + 1);
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm);
  int from_left;
  MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 7, &from_left, 1, MPI_INT,
               (rank + size - 1) % size, 7, comm, MPI_STATUS_IGNORE);
  int word = rank == 0 ? 4242 : 0;
  MPI_Bcast(&word, 1, MPI_INT, 0, comm);
  int same_as_world = -1;
  if (!alone) MPI_Comm_compare(comm, MPI_COMM_WORLD, &same_as_world);

  int line[5] = {sum, from_left, word, self_size, same_as_world}, all[5 * 64];
  MPI_Gather(line, 5, MPI_INT, all, 5, MPI_INT, 0, comm);
  if (rank == 0) {
    printf("sessions: %d psets:", npsets);
    for (int i = 0; i < npsets && i < 2; ++i)
      printf(" %s (mpi_size %d)", names[i], sizes[i]);
    printf("\n");
    for (int r = 0; r < size; ++r)
      printf("rank %d: sum %d, from left %d, bcast %d, self size %d, congruent to world %d\n", r,
             all[5 * r], all[5 * r + 1], all[5 * r + 2], all[5 * r + 3],
             all[5 * r + 4] == MPI_CONGRUENT);
    if (!alone) errors(session);
  }

  MPI_Comm_free(&comm);
  MPI_Comm_free(&self);
  MPI_Group_free(&world_group);
  MPI_Group_free(&self_group);
  MPI_Session_finalize(&session);
  if (rank == 0)
    printf("sessions: %d ranks, %s, finalized\n", size,
           alone ? "without MPI_Init" : "with MPI_Init");
  if (!alone) MPI_Finalize();
  return 0;
}
