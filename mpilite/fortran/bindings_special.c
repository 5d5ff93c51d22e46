/* Fortran bindings that are more than a conversion of arguments: MPI_Init has no argc/argv in
 * Fortran, CHARACTER arguments carry a hidden length (size_t for gfortran, int for f2c: only its
 * low 32 bits are read), attribute values are INTEGER(KIND=MPI_ADDRESS_KIND). */
#include "fortran_support.h"

/* One binding under its four names (see MPISIM_F_ALIAS). */
#define MPISIM_F_NAMES(name, params)                                                               \
  MPISIM_F_ALIAS(void, p##name##_, name##_, params)                                                \
  MPISIM_F_ALIAS(void, name##__, name##_, params)                                                  \
  MPISIM_F_ALIAS(void, p##name##__, name##_, params)

void mpi_init_(MPI_Fint* ierr) {
  *ierr = MPI_Init(NULL, NULL);
}
MPISIM_F_NAMES(mpi_init, (MPI_Fint * ierr))

void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  *ierr = MPI_Init_thread(NULL, NULL, *required, provided);
}
MPISIM_F_NAMES(mpi_init_thread, (MPI_Fint * required, MPI_Fint* provided, MPI_Fint* ierr))

void mpi_get_processor_name_(char* name, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len) {
  char c[MPI_MAX_PROCESSOR_NAME + 1];
  *ierr = MPI_Get_processor_name(c, resultlen);
  if (*ierr == MPI_SUCCESS) mpisim_f_string_out(c, name, (unsigned)len);
}
MPISIM_F_NAMES(mpi_get_processor_name,
               (char* name, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len))

void mpi_error_string_(MPI_Fint* code, char* string, MPI_Fint* resultlen, MPI_Fint* ierr,
                       size_t len) {
  char c[MPI_MAX_ERROR_STRING + 1];
  *ierr = MPI_Error_string(*code, c, resultlen);
  if (*ierr == MPI_SUCCESS) mpisim_f_string_out(c, string, (unsigned)len);
}
MPISIM_F_NAMES(mpi_error_string,
               (MPI_Fint * code, char* string, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len))

void mpi_get_library_version_(char* version, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len) {
  static char c[MPI_MAX_LIBRARY_VERSION_STRING + 1];
  *ierr = MPI_Get_library_version(c, resultlen);
  if (*ierr == MPI_SUCCESS) mpisim_f_string_out(c, version, (unsigned)len);
}
MPISIM_F_NAMES(mpi_get_library_version,
               (char* version, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len))

void mpi_comm_set_name_(MPI_Fint* comm, const char* name, MPI_Fint* ierr, size_t len) {
  char c[MPI_MAX_OBJECT_NAME + 1];
  *ierr = MPI_Comm_set_name(*comm, mpisim_f_string_in(name, (unsigned)len, c, sizeof c));
}
MPISIM_F_NAMES(mpi_comm_set_name, (MPI_Fint * comm, const char* name, MPI_Fint* ierr, size_t len))

void mpi_comm_get_name_(MPI_Fint* comm, char* name, MPI_Fint* resultlen, MPI_Fint* ierr,
                        size_t len) {
  char c[MPI_MAX_OBJECT_NAME + 1];
  *ierr = MPI_Comm_get_name(*comm, c, resultlen);
  if (*ierr == MPI_SUCCESS) mpisim_f_string_out(c, name, (unsigned)len);
}
MPISIM_F_NAMES(mpi_comm_get_name,
               (MPI_Fint * comm, char* name, MPI_Fint* resultlen, MPI_Fint* ierr, size_t len))

/* Predefined attributes are ints in C, reached through a pointer; attributes a Fortran program
 * sets are stored as the value itself (MPI-3.1 17.2.7). */
static int predefined_key(int key) {
  return key == MPI_TAG_UB || key == MPI_HOST || key == MPI_IO || key == MPI_WTIME_IS_GLOBAL ||
         key == MPI_UNIVERSE_SIZE || key == MPI_LASTUSEDCODE || key == MPI_APPNUM;
}

void mpi_comm_get_attr_(MPI_Fint* comm, MPI_Fint* key, MPI_Aint* value, MPI_Fint* flag,
                        MPI_Fint* ierr) {
  void* v = NULL;
  *ierr = MPI_Comm_get_attr(*comm, *key, &v, flag);
  if (*ierr == MPI_SUCCESS && *flag) *value = predefined_key(*key) ? *(int*)v : (MPI_Aint)v;
}
MPISIM_F_NAMES(mpi_comm_get_attr,
               (MPI_Fint * comm, MPI_Fint* key, MPI_Aint* value, MPI_Fint* flag, MPI_Fint* ierr))

void mpi_comm_set_attr_(MPI_Fint* comm, MPI_Fint* key, MPI_Aint* value, MPI_Fint* ierr) {
  *ierr = MPI_Comm_set_attr(*comm, *key, (void*)*value);
}
MPISIM_F_NAMES(mpi_comm_set_attr, (MPI_Fint * comm, MPI_Fint* key, MPI_Aint* value, MPI_Fint* ierr))

/* MPI-IO: file names and data representations are CHARACTER; a file is an INTEGER that
 * MPI_File_f2c converts (MPI_File_close sets it to MPI_FILE_NULL, 0). */
enum { kPathBytes = 4096 };

void mpi_file_open_(MPI_Fint* comm, const char* filename, MPI_Fint* amode, MPI_Fint* info,
                    MPI_Fint* fh, MPI_Fint* ierr, size_t len) {
  char c[kPathBytes];
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

void mpi_file_delete_(const char* filename, MPI_Fint* info, MPI_Fint* ierr, size_t len) {
  char c[kPathBytes];
  *ierr = MPI_File_delete(mpisim_f_string_in(filename, (unsigned)len, c, sizeof c), *info);
}
MPISIM_F_NAMES(mpi_file_delete, (const char* filename, MPI_Fint* info, MPI_Fint* ierr, size_t len))

void mpi_file_set_view_(MPI_Fint* fh, MPI_Offset* disp, MPI_Fint* etype, MPI_Fint* filetype,
                        const char* datarep, MPI_Fint* info, MPI_Fint* ierr, size_t len) {
  char c[MPI_MAX_DATAREP_STRING + 1];
  *ierr = MPI_File_set_view(MPI_File_f2c(*fh), *disp, *etype, *filetype,
                            mpisim_f_string_in(datarep, (unsigned)len, c, sizeof c), *info);
}
MPISIM_F_NAMES(mpi_file_set_view,
               (MPI_Fint * fh, MPI_Offset* disp, MPI_Fint* etype, MPI_Fint* filetype,
                const char* datarep, MPI_Fint* info, MPI_Fint* ierr, size_t len))

void mpi_file_get_view_(MPI_Fint* fh, MPI_Offset* disp, MPI_Fint* etype, MPI_Fint* filetype,
                        char* datarep, MPI_Fint* ierr, size_t len) {
  char c[MPI_MAX_DATAREP_STRING + 1];
  MPI_Datatype e = MPI_DATATYPE_NULL, f = MPI_DATATYPE_NULL;
  *ierr = MPI_File_get_view(MPI_File_f2c(*fh), disp, &e, &f, c);
  if (*ierr != MPI_SUCCESS) return;
  *etype = e;
  *filetype = f;
  mpisim_f_string_out(c, datarep, (unsigned)len);
}
MPISIM_F_NAMES(mpi_file_get_view, (MPI_Fint * fh, MPI_Offset* disp, MPI_Fint* etype,
                                   MPI_Fint* filetype, char* datarep, MPI_Fint* ierr, size_t len))
