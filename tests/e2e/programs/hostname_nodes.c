/* A code written before MPI_COMM_TYPE_SHARED finds the ranks of its node by host name: it hashes
 * gethostname() into a color for MPI_Comm_split, takes its node-local rank from the split (to
 * pick a device or a node leader), and prints uname()'s node name in its banner. Prints, per
 * rank, its host name, its node-local rank, whether uname and MPI_Get_processor_name agree with
 * gethostname, and whether the split by name has the ranks that MPI_COMM_TYPE_SHARED gives. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static int color_of(const char* name) {
  unsigned long h = 5381;
  for (const char* c = name; *c; ++c)
    h = h * 33 + (unsigned char)*c;
  return (int)(h % 1000003);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char host[256];
  if (gethostname(host, sizeof host) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  struct utsname u;
  uname(&u);
  char processor[MPI_MAX_PROCESSOR_NAME];
  int length;
  MPI_Get_processor_name(processor, &length);

  MPI_Comm by_name, shared;
  MPI_Comm_split(MPI_COMM_WORLD, color_of(host), rank, &by_name);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
  int local, local_size, same;
  MPI_Comm_rank(by_name, &local);
  MPI_Comm_size(by_name, &local_size);
  MPI_Comm_compare(by_name, shared, &same);

  char tiny[4];
  const int too_small = gethostname(tiny, sizeof tiny);
  printf("rank %d: host %s, local rank %d of %d, uname %d, processor name %d, split by name is "
         "the shared split %d, short buffer refused %d\n",
         rank, host, local, local_size, strcmp(u.nodename, host) == 0, strcmp(processor, host) == 0,
         same == MPI_CONGRUENT, too_small == -1);
  MPI_Comm_free(&by_name);
  MPI_Comm_free(&shared);
  MPI_Finalize();
  return 0;
}
