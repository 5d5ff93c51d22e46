/* MPI_Type_get_name of predefined types: the names MPICH gives (an alias such as MPI_LONG_LONG is
 * the same handle as MPI_LONG_LONG_INT and has its name). */
#include <mpi.h>
#include <stdio.h>

#define TYPE(t)                                                                                    \
  { t, #t }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const struct {
    MPI_Datatype type;
    const char* spelled;
  } types[] = {
      TYPE(MPI_CHAR),
      TYPE(MPI_SIGNED_CHAR),
      TYPE(MPI_UNSIGNED_CHAR),
      TYPE(MPI_BYTE),
      TYPE(MPI_WCHAR),
      TYPE(MPI_SHORT),
      TYPE(MPI_UNSIGNED_SHORT),
      TYPE(MPI_INT),
      TYPE(MPI_UNSIGNED),
      TYPE(MPI_LONG),
      TYPE(MPI_UNSIGNED_LONG),
      TYPE(MPI_LONG_LONG_INT),
      TYPE(MPI_LONG_LONG),
      TYPE(MPI_UNSIGNED_LONG_LONG),
      TYPE(MPI_FLOAT),
      TYPE(MPI_DOUBLE),
      TYPE(MPI_LONG_DOUBLE),
      TYPE(MPI_PACKED),
      TYPE(MPI_LB),
      TYPE(MPI_UB),
      TYPE(MPI_FLOAT_INT),
      TYPE(MPI_DOUBLE_INT),
      TYPE(MPI_LONG_INT),
      TYPE(MPI_SHORT_INT),
      TYPE(MPI_2INT),
      TYPE(MPI_LONG_DOUBLE_INT),
      TYPE(MPI_INT8_T),
      TYPE(MPI_UINT8_T),
      TYPE(MPI_INT64_T),
      TYPE(MPI_UINT64_T),
      TYPE(MPI_C_BOOL),
      TYPE(MPI_C_COMPLEX),
      TYPE(MPI_C_FLOAT_COMPLEX),
      TYPE(MPI_C_DOUBLE_COMPLEX),
      TYPE(MPI_AINT),
      TYPE(MPI_OFFSET),
      TYPE(MPI_COUNT),
      TYPE(MPI_CHARACTER),
      TYPE(MPI_LOGICAL),
      TYPE(MPI_INTEGER),
      TYPE(MPI_REAL),
      TYPE(MPI_DOUBLE_PRECISION),
      TYPE(MPI_COMPLEX),
      TYPE(MPI_DOUBLE_COMPLEX),
      TYPE(MPI_2REAL),
      TYPE(MPI_2DOUBLE_PRECISION),
      TYPE(MPI_2INTEGER),
      TYPE(MPI_INTEGER4),
      TYPE(MPI_REAL8),
  };
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0)
    for (unsigned i = 0; i < sizeof types / sizeof types[0]; ++i) {
      char name[MPI_MAX_OBJECT_NAME] = "";
      int len = -1;
      const int e = MPI_Type_get_name(types[i].type, name, &len);
      printf("type_get_name: %s: error %d, '%s' (%d)\n", types[i].spelled, e, name, len);
    }
  MPI_Finalize();
  return 0;
}
