// Buffered sends below the eager limit, then MPI_Buffer_detach: detach returns once the
// buffered messages have been transmitted (MPI-4.0 3.6.1), so its time is that of the network
// sending them one after another, not of the copies into the buffer.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int count = argc > 1 ? atoi(argv[1]) : 64;
  const int bytes = argc > 2 ? atoi(argv[2]) : 65536;
  char* data = malloc((size_t)bytes);
  for (int i = 0; i < bytes; ++i)
    data[i] = (char)(i * 7);
  if (rank == 0) {
    const int size = count * (bytes + MPI_BSEND_OVERHEAD);
    char* buffer = malloc((size_t)size);
    MPI_Buffer_attach(buffer, size);
    for (int i = 0; i < count; ++i)
      MPI_Bsend(data, bytes, MPI_CHAR, 1, i, MPI_COMM_WORLD);
    const double sent = MPI_Wtime();
    void* back;
    int back_size;
    MPI_Buffer_detach(&back, &back_size);
    printf("rank 0: %d buffered sends of %d bytes returned at %.9f s, detach at %.9f s\n", count,
           bytes, sent, MPI_Wtime());
    free(back);
  } else if (rank == 1) {
    long sum = 0;
    for (int i = 0; i < count; ++i) {
      MPI_Recv(data, bytes, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += data[bytes - 1];
    }
    printf("rank 1: received %d, last bytes sum %ld, at %.9f s\n", count, sum, MPI_Wtime());
  }
  free(data);
  MPI_Finalize();
  return 0;
}
