/* What a mixed C/Fortran code asks to find the MPI type of a Fortran kind: MPI_Type_match_size
 * by typeclass and size, and MPI_Type_create_f90_integer/real/complex by precision and range
 * (SELECTED_INT_KIND / SELECTED_REAL_KIND). Prints each answer's name and size, or the error
 * class of an impossible request; the types found carry data in a reduction. */
#include <mpi.h>
#include <stdio.h>

static const char* class_name(int cls) {
  return cls == MPI_ERR_ARG ? "MPI_ERR_ARG" : cls == MPI_ERR_OTHER ? "MPI_ERR_OTHER" : "other";
}

/* The result of a call that returned `rc` and, on success, type `t` (named: print its name). */
static void show(const char* what, int rc, MPI_Datatype t, int named) {
  if (rc != MPI_SUCCESS) {
    int cls;
    MPI_Error_class(rc, &cls);
    printf("%s: %s\n", what, class_name(cls));
    return;
  }
  char name[MPI_MAX_OBJECT_NAME] = "";
  int len, size;
  if (named) MPI_Type_get_name(t, name, &len);
  MPI_Type_size(t, &size);
  printf("%s: %s %d bytes\n", what, name, size);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype t;
  char what[64];
  if (rank == 0) {
    const struct {
      int typeclass;
      const char* name;
      int sizes[5];
    } classes[3] = {{MPI_TYPECLASS_INTEGER, "integer", {1, 2, 4, 8, 3}},
                    {MPI_TYPECLASS_REAL, "real", {4, 8, 2, 6, 1}},
                    {MPI_TYPECLASS_COMPLEX, "complex", {8, 16, 4, 12, 2}}};
    for (int c = 0; c < 3; ++c)
      for (int s = 0; s < 5; ++s) {
        snprintf(what, sizeof what, "match_size %s %d", classes[c].name, classes[c].sizes[s]);
        const int rc = MPI_Type_match_size(classes[c].typeclass, classes[c].sizes[s], &t);
        show(what, rc, t, 1);
      }
    const int rc = MPI_Type_match_size(99, 4, &t);
    show("match_size typeclass 99", rc, t, 1);
    const int ranges[] = {1, 2, 3, 4, 5, 9, 10, 18, 19, 40};
    for (int k = 0; k < 10; ++k) {
      snprintf(what, sizeof what, "f90_integer r=%d", ranges[k]);
      const int rc = MPI_Type_create_f90_integer(ranges[k], &t);
      show(what, rc, t, 0);
    }
    const int p[] = {1, 6, 7, 15, 16, MPI_UNDEFINED, MPI_UNDEFINED, MPI_UNDEFINED, 6, 15};
    const int r[] = {MPI_UNDEFINED,
                     MPI_UNDEFINED,
                     MPI_UNDEFINED,
                     MPI_UNDEFINED,
                     MPI_UNDEFINED,
                     37,
                     38,
                     308,
                     300,
                     400};
    for (int k = 0; k < 10; ++k) {
      snprintf(what, sizeof what, "f90_real p=%d r=%d", p[k], r[k]);
      int rc = MPI_Type_create_f90_real(p[k], r[k], &t);
      show(what, rc, t, 0);
      snprintf(what, sizeof what, "f90_complex p=%d r=%d", p[k], r[k]);
      rc = MPI_Type_create_f90_complex(p[k], r[k], &t);
      show(what, rc, t, 0);
    }
  }
  /* A sum in the type of an 8-byte integer kind and one of a 15-digit real kind. */
  MPI_Datatype i8, r8;
  MPI_Type_create_f90_integer(15, &i8);
  MPI_Type_create_f90_real(15, MPI_UNDEFINED, &r8);
  long long big = 1000000000000LL * (rank + 1), big_sum = 0;
  double x = 0.5 * (rank + 1), x_sum = 0;
  MPI_Allreduce(&big, &big_sum, 1, i8, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &x_sum, 1, r8, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: sums %lld %g\n", rank, big_sum, x_sum);
  MPI_Finalize();
  return 0;
}
