/* The tool information interface (MPI_T) of mpisim, which exports no variables, no categories,
 * no event types and no event sources (MPI-4.0): before MPI_T_init_thread every call returns
 * MPI_T_ERR_NOT_INITIALIZED; after it the counts are 0, queries by index, handle or name return
 * their MPI_T error codes, a performance session can be made and freed, and the initialization is
 * counted (two inits need two finalizes). Each rank checks; rank 0 prints the codes it got, every
 * rank the number of surprises. */
#include <mpi.h>
#include <stdio.h>

static int surprises;

static void expect(int rank, const char* what, int got, int want, const char* want_name) {
  if (got != want) ++surprises;
  if (rank == 0) printf("%s: %s%s\n", what, got == want ? "" : "NOT ", want_name);
}

int main(int argc, char** argv) {
  int provided, n = -1, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  expect(rank, "cvar_get_num before init", MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED,
         "MPI_T_ERR_NOT_INITIALIZED");
  expect(rank, "finalize before init", MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED,
         "MPI_T_ERR_NOT_INITIALIZED");
  expect(rank, "event_get_num before init", MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED,
         "MPI_T_ERR_NOT_INITIALIZED");
  expect(rank, "source_get_num before init", MPI_T_source_get_num(&n), MPI_T_ERR_NOT_INITIALIZED,
         "MPI_T_ERR_NOT_INITIALIZED");
  expect(rank, "init_thread", MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS,
         "MPI_SUCCESS");
  expect(rank, "init_thread again", MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS,
         "MPI_SUCCESS");
  int counts = 0;
  MPI_T_cvar_get_num(&n);
  counts += n;
  MPI_T_pvar_get_num(&n);
  counts += n;
  MPI_T_category_get_num(&n);
  counts += n;
  if (rank == 0) printf("cvars + pvars + categories: %d\n", counts);
  surprises += counts != 0;
  int events = -1, sources = -1;
  MPI_T_event_get_num(&events);
  MPI_T_source_get_num(&sources);
  if (rank == 0) printf("event types + sources: %d\n", events + sources);
  surprises += events != 0 || sources != 0;

  char name[64];
  int len = (int)sizeof name, verbosity, bind, scope, index, count;
  MPI_Datatype type;
  MPI_T_enum enumtype;
  expect(
      rank, "cvar_get_info(0)",
      MPI_T_cvar_get_info(0, name, &len, &verbosity, &type, &enumtype, NULL, NULL, &bind, &scope),
      MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "category_get_cvars(0)", MPI_T_category_get_cvars(0, 1, &index),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  MPI_T_cvar_handle cvar;
  expect(rank, "cvar_handle_alloc(0)", MPI_T_cvar_handle_alloc(0, NULL, &cvar, &count),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "cvar_read(MPI_T_CVAR_HANDLE_NULL)", MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, name),
         MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE");
  expect(rank, "cvar_get_index(\"eager_limit\")", MPI_T_cvar_get_index("eager_limit", &index),
         MPI_T_ERR_INVALID_NAME, "MPI_T_ERR_INVALID_NAME");

  /* Events (MPI-4.0 section 15.3.8): no type, no source, so no registration and no instance. */
  MPI_T_event_registration registration;
  MPI_T_source_order order;
  MPI_Count ticks, max_ticks, timestamp;
  MPI_Info info;
  expect(rank, "event_get_info(0)",
         MPI_T_event_get_info(0, name, &len, &verbosity, NULL, NULL, &count, &enumtype, &info, NULL,
                              NULL, &bind),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "event_handle_alloc(0)",
         MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &registration), MPI_T_ERR_INVALID_INDEX,
         "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "event_get_index(\"mpi_send\")", MPI_T_event_get_index("mpi_send", &index),
         MPI_T_ERR_INVALID_NAME, "MPI_T_ERR_INVALID_NAME");
  expect(rank, "source_get_info(0)",
         MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &ticks, &max_ticks, &info),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "source_get_timestamp(0)", MPI_T_source_get_timestamp(0, &timestamp),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "category_get_num_events(0)", MPI_T_category_get_num_events(0, &n),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "category_get_events(0)", MPI_T_category_get_events(0, 1, &index),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "event_handle_set_info(NULL)", MPI_T_event_handle_set_info(NULL, MPI_INFO_NULL),
         MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE");
  expect(rank, "event_register_callback(NULL)",
         MPI_T_event_register_callback(NULL, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL),
         MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE");
  expect(rank, "event_handle_free(NULL)", MPI_T_event_handle_free(NULL, NULL, NULL),
         MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE");
  expect(rank, "event_read(NULL)", MPI_T_event_read(NULL, 0, name), MPI_T_ERR_INVALID_HANDLE,
         "MPI_T_ERR_INVALID_HANDLE");
  expect(rank, "event_get_timestamp(NULL)", MPI_T_event_get_timestamp(NULL, &timestamp),
         MPI_T_ERR_INVALID_HANDLE, "MPI_T_ERR_INVALID_HANDLE");

  MPI_T_pvar_session session;
  MPI_T_pvar_handle pvar;
  expect(rank, "pvar_session_create", MPI_T_pvar_session_create(&session), MPI_SUCCESS,
         "MPI_SUCCESS");
  expect(rank, "pvar_handle_alloc(0)", MPI_T_pvar_handle_alloc(session, 0, NULL, &pvar, &count),
         MPI_T_ERR_INVALID_INDEX, "MPI_T_ERR_INVALID_INDEX");
  expect(rank, "pvar_start(all handles)", MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES),
         MPI_SUCCESS, "MPI_SUCCESS");
  expect(rank, "pvar_read(MPI_T_PVAR_HANDLE_NULL)",
         MPI_T_pvar_read(session, MPI_T_PVAR_HANDLE_NULL, name), MPI_T_ERR_INVALID_HANDLE,
         "MPI_T_ERR_INVALID_HANDLE");
  expect(rank, "pvar_session_free", MPI_T_pvar_session_free(&session), MPI_SUCCESS, "MPI_SUCCESS");
  expect(rank, "pvar_start on a freed session", MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES),
         MPI_T_ERR_INVALID_SESSION, "MPI_T_ERR_INVALID_SESSION");

  expect(rank, "finalize", MPI_T_finalize(), MPI_SUCCESS, "MPI_SUCCESS");
  expect(rank, "category_get_num after one of two finalizes", MPI_T_category_get_num(&n),
         MPI_SUCCESS, "MPI_SUCCESS");
  expect(rank, "finalize", MPI_T_finalize(), MPI_SUCCESS, "MPI_SUCCESS");
  expect(rank, "pvar_get_num after the last finalize", MPI_T_pvar_get_num(&n),
         MPI_T_ERR_NOT_INITIALIZED, "MPI_T_ERR_NOT_INITIALIZED");
  expect(rank, "event_handle_alloc(0) after the last finalize",
         MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &registration), MPI_T_ERR_NOT_INITIALIZED,
         "MPI_T_ERR_NOT_INITIALIZED");
  printf("rank %d: %d surprises\n", rank, surprises);
  MPI_Finalize();
  return 0;
}
