// The headers of folders given with -isystem are the program's: their globals are per rank.
#include <mpi.h>

#include <cstdio>
#include <hdronly/registry.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  hdronly::Registry::instance().set("rank", r);
  hdronly::global_level += r;
  int h = 0;
  for (int i = 0; i <= r; ++i)
    h = hdronly::next_handle();
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: registry %d, level %d, handle %d\n", r,
              hdronly::Registry::instance().get("rank"), hdronly::global_level, h);
  MPI_Finalize();
}
