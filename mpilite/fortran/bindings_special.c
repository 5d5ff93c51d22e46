/* Fortran bindings whose Fortran form differs from C's beyond what the generator converts:
 * MPI_Init has no argc/argv in Fortran, MPI_Buffer_detach returns no address, MPI_Pcontrol has
 * no variable arguments, MPI-4's string lengths count no NUL, a file is an INTEGER that
 * MPI_File_c2f gives, and the indices of requests in an array count from 1. CHARACTER arguments
 * carry a hidden length (size_t for gfortran, int for f2c: only its low 32 bits are read). */
#include <string.h>

#include "fortran_support.h"

void mpi_init_(MPI_Fint* ierr) {
  *ierr = MPI_Init(NULL, NULL);
}
MPISIM_F_NAMES(mpi_init, (MPI_Fint * ierr))

void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  *ierr = MPI_Init_thread(NULL, NULL, *required, provided);
}
MPISIM_F_NAMES(mpi_init_thread, (MPI_Fint * required, MPI_Fint* provided, MPI_Fint* ierr))

/* Static: 8 KiB is much for a rank's stack. */
void mpi_get_library_version_(char* version, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len) {
  static char c[MPI_MAX_LIBRARY_VERSION_STRING + 1];
  *ierr = MPI_Get_library_version(c, resultlen);
  if (*ierr == MPI_SUCCESS) mpisim_f_string_out(c, version, (unsigned)len);
}
MPISIM_F_NAMES(mpi_get_library_version,
               (char* version, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len))

/* MPI_Buffer_detach's address is C's: Fortran has no use for it (MPI-3.1 3.6.1). */
void mpi_buffer_detach_(void* buffer_addr, MPI_Fint* size, MPI_Fint* ierr) {
  void* c;
  (void)buffer_addr;
  *ierr = MPI_Buffer_detach(&c, size);
}
MPISIM_F_NAMES(mpi_buffer_detach, (void* buffer_addr, MPI_Fint* size, MPI_Fint* ierr))

/* C's MPI_Pcontrol takes variable arguments; Fortran's only the level. */
void mpi_pcontrol_(MPI_Fint* level, MPI_Fint* ierr) {
  *ierr = MPI_Pcontrol(*level);
}
MPISIM_F_NAMES(mpi_pcontrol, (MPI_Fint * level, MPI_Fint* ierr))

/* MPI-4's CHARACTER results with a length in and out, which in Fortran counts no NUL: `*len`
 * characters of the C string `c` (none if 0) go into the Fortran string, and `*len` becomes the
 * whole string's length. */
static void string_with_length(char* c, MPI_Fint* len, char* f, size_t f_len) {
  const size_t n = strlen(c);
  if (*len > 0) {
    if ((size_t)*len < n) c[*len] = '\0';
    mpisim_f_string_out(c, f, (unsigned)f_len);
  }
  *len = (MPI_Fint)n;
}

void mpi_info_get_string_(MPI_Fint* info, const char* key, MPI_Fint* buflen, char* value,
                          MPI_Fint* flag, MPI_Fint* ierr, size_t key_len, size_t value_len) {
  char k[(unsigned)key_len + 1];
  char v[MPI_MAX_INFO_VAL + 1];
  int c_len = sizeof v;
  *ierr = MPI_Info_get_string(*info, mpisim_f_string_in(key, (unsigned)key_len, k, sizeof k),
                              &c_len, v, flag);
  if (*ierr == MPI_SUCCESS && *flag) string_with_length(v, buflen, value, value_len);
}
MPISIM_F_NAMES(mpi_info_get_string,
               (MPI_Fint * info, const char* key, MPI_Fint* buflen, char* value, MPI_Fint* flag,
                MPI_Fint* ierr, size_t key_len, size_t value_len))

void mpi_session_get_nth_pset_(MPI_Fint* session, MPI_Fint* info, MPI_Fint* n, MPI_Fint* pset_len,
                               char* pset_name, MPI_Fint* ierr, size_t name_len) {
  char c[MPI_MAX_PSET_NAME_LEN + 1];
  int c_len = sizeof c;
  *ierr = MPI_Session_get_nth_pset(*session, *info, *n, &c_len, c);
  if (*ierr == MPI_SUCCESS) string_with_length(c, pset_len, pset_name, name_len);
}
MPISIM_F_NAMES(mpi_session_get_nth_pset,
               (MPI_Fint * session, MPI_Fint* info, MPI_Fint* n, MPI_Fint* pset_len,
                char* pset_name, MPI_Fint* ierr, size_t name_len))

/* A file is an INTEGER that MPI_File_f2c converts (MPI_File_close sets it to MPI_FILE_NULL, 0). */
void mpi_file_open_(MPI_Fint* comm, const char* filename, MPI_Fint* amode, MPI_Fint* info,
                    MPI_Fint* fh, MPI_Fint* ierr, size_t len) {
  char c[(unsigned)len + 1];
  MPI_File f = MPI_FILE_NULL;
  *ierr = MPI_File_open(*comm, mpisim_f_string_in(filename, (unsigned)len, c, sizeof c), *amode,
                        *info, &f);
  *fh = MPI_File_c2f(f);
}
MPISIM_F_NAMES(mpi_file_open, (MPI_Fint * comm, const char* filename, MPI_Fint* amode,
                               MPI_Fint* info, MPI_Fint* fh, MPI_Fint* ierr, size_t len))

void mpi_file_close_(MPI_Fint* fh, MPI_Fint* ierr) {
  MPI_File f = MPI_File_f2c(*fh);
  *ierr = MPI_File_close(&f);
  if (*ierr == MPI_SUCCESS) *fh = MPI_File_c2f(f);
}
MPISIM_F_NAMES(mpi_file_close, (MPI_Fint * fh, MPI_Fint* ierr))

/* Fortran numbers the requests of an array from 1: the indices MPI_Waitany and the others
 * return are C's plus 1, except MPI_UNDEFINED (no active request). */
static void from_one(MPI_Fint* indices, MPI_Fint n) {
  for (MPI_Fint i = 0; i < n; ++i)
    if (indices[i] >= 0) ++indices[i];
}

void mpi_waitany_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status,
                  MPI_Fint* ierr) {
  *ierr = MPI_Waitany(*count, requests, index, mpisim_f_status(status));
  from_one(index, 1);
}
MPISIM_F_NAMES(mpi_waitany, (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* index,
                             MPI_Fint* status, MPI_Fint* ierr))

void mpi_testany_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                  MPI_Fint* status, MPI_Fint* ierr) {
  *ierr = MPI_Testany(*count, requests, index, flag, mpisim_f_status(status));
  from_one(index, 1);
}
MPISIM_F_NAMES(mpi_testany, (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                             MPI_Fint* status, MPI_Fint* ierr))

void mpi_waitsome_(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierr) {
  *ierr = MPI_Waitsome(*incount, requests, outcount, indices, mpisim_f_status(statuses));
  if (*outcount != MPI_UNDEFINED) from_one(indices, *outcount);
}
MPISIM_F_NAMES(mpi_waitsome, (MPI_Fint * incount, MPI_Fint* requests, MPI_Fint* outcount,
                              MPI_Fint* indices, MPI_Fint* statuses, MPI_Fint* ierr))

void mpi_testsome_(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierr) {
  *ierr = MPI_Testsome(*incount, requests, outcount, indices, mpisim_f_status(statuses));
  if (*outcount != MPI_UNDEFINED) from_one(indices, *outcount);
}
MPISIM_F_NAMES(mpi_testsome, (MPI_Fint * incount, MPI_Fint* requests, MPI_Fint* outcount,
                              MPI_Fint* indices, MPI_Fint* statuses, MPI_Fint* ierr))
