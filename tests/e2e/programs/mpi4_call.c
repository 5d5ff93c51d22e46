/* MPI_Info_create_env is MPI-4; mpisim's mpi.h does not declare it. Without a declaration the
   wrapper's compiler refuses the call; with one of the program's own (DECLARE_IT), the link
   does. */
#include <mpi.h>

#ifdef DECLARE_IT
int MPI_Info_create_env(int, char*[], MPI_Info*);
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Info info;
  MPI_Info_create_env(argc, argv, &info);
  MPI_Info_free(&info);
  MPI_Finalize();
  return 0;
}
