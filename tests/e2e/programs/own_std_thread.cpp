// A rank that starts a std::thread: refused by name, as pthread_create is (own_thread.c).
#include <mpi.h>

#include <cstdio>
#include <thread>

long work_count;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::thread t([] {
    for (int i = 0; i < 1000; ++i)
      ++work_count;
  });
  t.join();
  std::printf("rank %d: work_count %ld\n", rank, work_count);
  MPI_Finalize();
  return 0;
}
