// Error classes, codes and strings the program adds, in the style of MPICH's adderr test: each
// rank adds its own number of classes, a code per class and strings for both, then checks what
// MPI_Error_class, MPI_Error_string and MPI_LASTUSEDCODE answer, and that a user handler gets the
// code back. Only relations are printed (the numbers are the library's own), and must equal
// MPICH's lines.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int handled; // the code the handler last saw

static void record(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  handled = *code;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, errs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = 2 + rank; // ranks add different numbers: additions are local
  int classes[8], codes[8];
  for (int i = 0; i < n; ++i) {
    char text[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&classes[i]);
    MPI_Add_error_code(classes[i], &codes[i]);
    snprintf(text, sizeof text, "class %d of rank %d", i, rank);
    MPI_Add_error_string(classes[i], text);
    snprintf(text, sizeof text, "code %d of rank %d", i, rank);
    MPI_Add_error_string(codes[i], text);
  }
  int* last;
  int flag;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
  for (int i = 0; i < n; ++i) {
    int cls, len;
    char text[MPI_MAX_ERROR_STRING], want[MPI_MAX_ERROR_STRING];
    if (classes[i] <= MPI_ERR_LASTCODE || codes[i] <= MPI_ERR_LASTCODE) ++errs;
    // MPICH's MPI_LASTUSEDCODE follows the classes only.
    if (classes[i] > *last || codes[i] == classes[i]) ++errs;
    MPI_Error_class(codes[i], &cls);
    if (cls != classes[i]) ++errs;
    MPI_Error_class(classes[i], &cls);
    if (cls != classes[i]) ++errs;
    MPI_Error_string(codes[i], text, &len);
    snprintf(want, sizeof want, "code %d of rank %d", i, rank);
    if (strcmp(text, want) != 0 || len != (int)strlen(want)) ++errs;
    MPI_Error_string(classes[i], text, &len);
    snprintf(want, sizeof want, "class %d of rank %d", i, rank);
    if (strcmp(text, want) != 0) ++errs;
  }
  // A code of a predefined class.
  int other, other_class;
  MPI_Add_error_code(MPI_ERR_OTHER, &other);
  MPI_Error_class(other, &other_class);
  if (other_class != MPI_ERR_OTHER) ++errs;
  // A handler the program calls with an added code gets it back.
  MPI_Errhandler h;
  MPI_Comm_create_errhandler(record, &h);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, h);
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, codes[n - 1]);
  if (handled != codes[n - 1]) ++errs;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  printf("rank %d: added %d classes and codes, %d errors\n", rank, n, errs);
  MPI_Errhandler_free(&h);
  MPI_Finalize();
  return 0;
}
