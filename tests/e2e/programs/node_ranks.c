/* How a hybrid code finds the ranks of its node, the three ways codes do it: MPI_Comm_split_type
 * with MPI_COMM_TYPE_SHARED, comparing MPI_Get_processor_name across MPI_COMM_WORLD (codes older
 * than MPI-3), and the launcher's MPI_LOCALRANKID and MPI_LOCALNRANKS (read before MPI_Init, to
 * pick a device). The node leaders then sum the node sizes over their own communicator. Each
 * rank prints its node's size, its rank there, its processor name, how many ranks share that
 * name, whether the launcher's variables agree, and (leaders) the sum of node sizes, which is
 * the world size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int launcher(const char* name) {
  const char* v = getenv(name);
  return v ? atoi(v) : -1;
}

int main(int argc, char** argv) {
  const int local_rank = launcher("MPI_LOCALRANKID");
  const int local_ranks = launcher("MPI_LOCALNRANKS");
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank, node_size;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);

  char name[MPI_MAX_PROCESSOR_NAME];
  int len;
  MPI_Get_processor_name(name, &len);
  static char names[64][MPI_MAX_PROCESSOR_NAME];
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                MPI_COMM_WORLD);
  int same = 0;
  for (int r = 0; r < size; ++r)
    same += strcmp(names[r], name) == 0;

  MPI_Comm leaders;
  MPI_Comm_split(MPI_COMM_WORLD, node_rank == 0 ? 0 : MPI_UNDEFINED, rank, &leaders);
  int total = -1;
  if (leaders != MPI_COMM_NULL) {
    MPI_Allreduce(&node_size, &total, 1, MPI_INT, MPI_SUM, leaders);
    MPI_Comm_free(&leaders);
  }
  const int agree = local_rank == node_rank && local_ranks == node_size;
  printf("rank %d: node of %d, rank %d there, name %s shared by %d, launcher %s, leaders' sum "
         "%d\n",
         rank, node_size, node_rank, name, same, agree ? "agrees" : "differs", total);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
