/* Fortran bindings of the routines that take callbacks C cannot call as they are: a Fortran
 * subroutine takes every argument by reference and returns its error code in IERROR, and sees
 * attribute values and extra states as INTEGER(KIND=MPI_ADDRESS_KIND) (INTEGER for MPI-1's
 * MPI_KEYVAL_CREATE) and a file as an INTEGER. The C callbacks registered are the proxies below;
 * their extra state is a record that names the program's subroutines and its extra state.
 * (Error handlers of communicators, windows and sessions, and MPI_OP_CREATE's functions, C calls
 * as they are: the generator passes them on.) */
#include <stdlib.h>

#include "fortran_support.h"

/* An attribute value or extra state as a keyval's subroutines see it. */
typedef union {
  MPI_Aint wide;   /* INTEGER(KIND=MPI_ADDRESS_KIND) */
  MPI_Fint narrow; /* INTEGER: MPI_KEYVAL_CREATE's */
} FortranValue;

typedef void FortranCopy(MPI_Fint* object, MPI_Fint* keyval, FortranValue* extra_state,
                         FortranValue* value_in, FortranValue* value_out, MPI_Fint* flag,
                         MPI_Fint* ierr);
typedef void FortranDelete(MPI_Fint* object, MPI_Fint* keyval, FortranValue* value,
                           FortranValue* extra_state, MPI_Fint* ierr);

typedef struct FortranKeyval {
  FortranCopy* copy;
  FortranDelete* del;
  MPI_Aint extra_state;
  int narrow;
  struct FortranKeyval* next;
} FortranKeyval;

/* Every keyval made from Fortran. C does not say when a keyval goes (its attributes keep it after
 * the program frees it), so the records stay, reachable, for the run. */
static FortranKeyval* keyvals;

static FortranValue to_fortran(const FortranKeyval* k, MPI_Aint v) {
  FortranValue f;
  if (k->narrow)
    f.narrow = (MPI_Fint)v;
  else
    f.wide = v;
  return f;
}

static MPI_Aint from_fortran(const FortranKeyval* k, FortranValue f) {
  return k->narrow ? f.narrow : f.wide;
}

static int copy_proxy(MPI_Comm object, int keyval, void* extra_state, void* value_in,
                      void* value_out, int* flag) {
  const FortranKeyval* k = extra_state;
  MPI_Fint o = object, key = keyval, copied = 0, ierr = MPI_SUCCESS;
  FortranValue extra = to_fortran(k, k->extra_state), in = to_fortran(k, (MPI_Aint)value_in);
  FortranValue out = to_fortran(k, 0);
  k->copy(&o, &key, &extra, &in, &out, &copied, &ierr);
  *flag = copied != 0;
  if (*flag) *(void**)value_out = (void*)from_fortran(k, out);
  return ierr;
}

static int delete_proxy(MPI_Comm object, int keyval, void* value, void* extra_state) {
  const FortranKeyval* k = extra_state;
  MPI_Fint o = object, key = keyval, ierr = MPI_SUCCESS;
  FortranValue extra = to_fortran(k, k->extra_state), v = to_fortran(k, (MPI_Aint)value);
  k->del(&o, &key, &v, &extra, &ierr);
  return ierr;
}

/* MPI_Comm_create_keyval, MPI_Type_create_keyval, MPI_Win_create_keyval, MPI_Keyval_create:
 * handles are ints, so their callbacks have one C type. */
typedef int CreateKeyval(MPI_Comm_copy_attr_function*, MPI_Comm_delete_attr_function*, int*, void*);

static void create_keyval(CreateKeyval* create, FortranCopy* copy, FortranDelete* del,
                          MPI_Fint* keyval, MPI_Aint extra_state, int narrow, MPI_Fint* ierr) {
  FortranKeyval* k = malloc(sizeof *k);
  if (!k) {
    *ierr = MPI_ERR_NO_MEM;
    return;
  }
  *k = (FortranKeyval){copy, del, extra_state, narrow, keyvals};
  keyvals = k;
  *ierr = create(copy_proxy, delete_proxy, keyval, k);
}

/* MPI_COMM_CREATE_KEYVAL, MPI_TYPE_CREATE_KEYVAL, MPI_WIN_CREATE_KEYVAL. */
#define CREATE_KEYVAL(name, create)                                                                \
  void name##_(FortranCopy* copy, FortranDelete* del, MPI_Fint* keyval, MPI_Aint* extra_state,     \
               MPI_Fint* ierr) {                                                                   \
    create_keyval(create, copy, del, keyval, *extra_state, 0, ierr);                               \
  }                                                                                                \
  MPISIM_F_NAMES(name, (FortranCopy * copy, FortranDelete * del, MPI_Fint * keyval,                \
                        MPI_Aint * extra_state, MPI_Fint * ierr))

CREATE_KEYVAL(mpi_comm_create_keyval, MPI_Comm_create_keyval)
CREATE_KEYVAL(mpi_type_create_keyval, MPI_Type_create_keyval)
CREATE_KEYVAL(mpi_win_create_keyval, MPI_Win_create_keyval)

/* MPI-1: INTEGER values and extra state. */
void mpi_keyval_create_(FortranCopy* copy, FortranDelete* del, MPI_Fint* keyval,
                        MPI_Fint* extra_state, MPI_Fint* ierr) {
  create_keyval(MPI_Keyval_create, copy, del, keyval, *extra_state, 1, ierr);
}
MPISIM_F_NAMES(mpi_keyval_create, (FortranCopy * copy, FortranDelete* del, MPI_Fint* keyval,
                                   MPI_Fint* extra_state, MPI_Fint* ierr))

/* The predefined callbacks as Fortran subroutines (mpif.h declares them EXTERNAL). The program
 * passes them as its own: they run through the proxies like any other. */
static void null_copy(MPI_Fint* object, MPI_Fint* keyval, FortranValue* extra_state,
                      FortranValue* value_in, FortranValue* value_out, MPI_Fint* flag,
                      MPI_Fint* ierr) {
  (void)object, (void)keyval, (void)extra_state, (void)value_in, (void)value_out;
  *flag = 0;
  *ierr = MPI_SUCCESS;
}

static void dup_wide(MPI_Fint* object, MPI_Fint* keyval, FortranValue* extra_state,
                     FortranValue* value_in, FortranValue* value_out, MPI_Fint* flag,
                     MPI_Fint* ierr) {
  (void)object, (void)keyval, (void)extra_state;
  value_out->wide = value_in->wide;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}

static void dup_narrow(MPI_Fint* object, MPI_Fint* keyval, FortranValue* extra_state,
                       FortranValue* value_in, FortranValue* value_out, MPI_Fint* flag,
                       MPI_Fint* ierr) {
  (void)object, (void)keyval, (void)extra_state;
  value_out->narrow = value_in->narrow;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}

static void null_delete(MPI_Fint* object, MPI_Fint* keyval, FortranValue* value,
                        FortranValue* extra_state, MPI_Fint* ierr) {
  (void)object, (void)keyval, (void)value, (void)extra_state;
  *ierr = MPI_SUCCESS;
}

/* A predefined callback under gfortran's name and f2c's. */
#define PREDEFINED(name, target, params)                                                           \
  MPISIM_F_ALIAS(void, name##_, target, params)                                                    \
  MPISIM_F_ALIAS(void, name##__, target, params)
#define COPY_PARAMS                                                                                \
  (MPI_Fint * object, MPI_Fint * keyval, FortranValue * extra_state, FortranValue * value_in,      \
   FortranValue * value_out, MPI_Fint * flag, MPI_Fint * ierr)
#define DELETE_PARAMS                                                                              \
  (MPI_Fint * object, MPI_Fint * keyval, FortranValue * value, FortranValue * extra_state,         \
   MPI_Fint * ierr)

/* MPI_<KIND>_NULL_COPY_FN, MPI_<KIND>_DUP_FN, MPI_<KIND>_NULL_DELETE_FN. */
#define PREDEFINED_OF(kind, dup)                                                                   \
  PREDEFINED(mpi_##kind##null_copy_fn, null_copy, COPY_PARAMS)                                     \
  PREDEFINED(mpi_##kind##dup_fn, dup, COPY_PARAMS)                                                 \
  PREDEFINED(mpi_##kind##null_delete_fn, null_delete, DELETE_PARAMS)

PREDEFINED_OF(comm_, dup_wide)
PREDEFINED_OF(type_, dup_wide)
PREDEFINED_OF(win_, dup_wide)
PREDEFINED_OF(, dup_narrow) /* MPI-1's MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN */

/* File error handlers: C passes the MPI_File (a pointer), Fortran takes MPI_File_c2f's INTEGER.
 * The proxy has no extra state: it finds the subroutine by the file's handler. Handler handles
 * are reused once freed, so the newest record of a handle is the live one. */
typedef void FortranFileHandler(MPI_Fint* file, MPI_Fint* code);

typedef struct FileHandler {
  MPI_Errhandler handler;
  FortranFileHandler* fn;
  struct FileHandler* next;
} FileHandler;

static FileHandler* file_handlers; /* newest first */

static void file_handler_proxy(MPI_File* fh, int* code, ...) {
  MPI_Errhandler h = MPI_ERRHANDLER_NULL;
  if (MPI_File_get_errhandler(*fh, &h) != MPI_SUCCESS) return;
  const FileHandler* f = file_handlers;
  while (f && f->handler != h)
    f = f->next;
  MPI_Errhandler_free(&h);
  MPI_Fint file = MPI_File_c2f(*fh);
  if (f) f->fn(&file, code);
}

void mpi_file_create_errhandler_(FortranFileHandler* fn, MPI_Fint* errhandler, MPI_Fint* ierr) {
  FileHandler* f = malloc(sizeof *f);
  if (!f) {
    *ierr = MPI_ERR_NO_MEM;
    return;
  }
  *ierr = MPI_File_create_errhandler(file_handler_proxy, errhandler);
  if (*ierr != MPI_SUCCESS) {
    free(f);
    return;
  }
  *f = (FileHandler){*errhandler, fn, file_handlers};
  file_handlers = f;
}
MPISIM_F_NAMES(mpi_file_create_errhandler,
               (FortranFileHandler * fn, MPI_Fint* errhandler, MPI_Fint* ierr))

/* Generalized requests: MPI calls the free callback once, when the request goes, and the record
 * goes with it. */
typedef void FortranQuery(MPI_Aint* extra_state, MPI_Fint* status, MPI_Fint* ierr);
typedef void FortranFree(MPI_Aint* extra_state, MPI_Fint* ierr);
typedef void FortranCancel(MPI_Aint* extra_state, MPI_Fint* complete, MPI_Fint* ierr);

typedef struct {
  FortranQuery* query;
  FortranFree* free;
  FortranCancel* cancel;
  MPI_Aint extra_state;
} FortranGrequest;

static int query_proxy(void* extra_state, MPI_Status* status) {
  FortranGrequest* g = extra_state;
  MPI_Fint ierr = MPI_SUCCESS;
  g->query(&g->extra_state, (MPI_Fint*)status, &ierr);
  return ierr;
}

static int free_proxy(void* extra_state) {
  FortranGrequest* g = extra_state;
  MPI_Fint ierr = MPI_SUCCESS;
  g->free(&g->extra_state, &ierr);
  free(g);
  return ierr;
}

static int cancel_proxy(void* extra_state, int complete) {
  FortranGrequest* g = extra_state;
  MPI_Fint c = complete != 0, ierr = MPI_SUCCESS;
  g->cancel(&g->extra_state, &c, &ierr);
  return ierr;
}

void mpi_grequest_start_(FortranQuery* query, FortranFree* free_fn, FortranCancel* cancel,
                         MPI_Aint* extra_state, MPI_Fint* request, MPI_Fint* ierr) {
  FortranGrequest* g = malloc(sizeof *g);
  if (!g) {
    *ierr = MPI_ERR_NO_MEM;
    return;
  }
  *g = (FortranGrequest){query, free_fn, cancel, *extra_state};
  *ierr = MPI_Grequest_start(query_proxy, free_proxy, cancel_proxy, g, request);
  if (*ierr != MPI_SUCCESS) free(g);
}
MPISIM_F_NAMES(mpi_grequest_start,
               (FortranQuery * query, FortranFree* free_fn, FortranCancel* cancel,
                MPI_Aint* extra_state, MPI_Fint* request, MPI_Fint* ierr))
