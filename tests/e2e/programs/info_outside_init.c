/* Info objects before MPI_Init and after MPI_Finalize (MPI-4.0 section 11.4.1), as MPICH allows:
 * one made before MPI_Init keeps its pair through MPI and past MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Info info, copy;
  int e = MPI_Info_create(&info);
  printf("create before init: %d\n", e);
  MPI_Info_set(info, "key", "value");
  MPI_Init(&argc, &argv);
  char v[16];
  int flag, n;
  MPI_Info_get(info, "key", 15, v, &flag);
  printf("after init: %d %s\n", flag, flag ? v : "-");
  MPI_Info_dup(info, &copy);
  MPI_Info_free(&info);
  MPI_Finalize();
  MPI_Info_get_nkeys(copy, &n);
  MPI_Info_get(copy, "key", 15, v, &flag);
  printf("after finalize: %d keys, %d %s\n", n, flag, flag ? v : "-");
  printf("free after finalize: %d\n", MPI_Info_free(&copy));
  return 0;
}
