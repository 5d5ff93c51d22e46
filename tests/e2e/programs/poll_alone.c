/* Polling loops of rank 0 while rank 1 waits, as master/worker codes and progress loops write
 * them. usage: poll_alone MODE
 *   test     rank 0 polls MPI_Test on a receive from rank 1, which waits in MPI_Recv for rank 0
 *            first: a deadlock that polls forever (mpisim ends it, docs/model.md, Tests and polls)
 *   iprobe   the same with MPI_Iprobe, rank 1 in MPI_Barrier
 *   working  rank 0 computes (1 us declared per step) and checks MPI_Iprobe at each of 2^24 + 2^20
 *            steps while rank 1 waits in MPI_Recv, then sends: more polls than mpisim's limit, but
 *            the loop works more than it polls, and ends
 *   late     rank 1 computes 2 s, then sends: rank 0 polls MPI_Test about 2 * 10^7 times for a
 *            message that is on its way, and gets it
 *   others   (3 ranks) rank 0 polls MPI_Test for a message from rank 1, which first sends rank 2
 *            20 messages 0.1 s apart that rank 2 takes with MPI_ANY_SOURCE (so ranks 1 and 2 keep
 *            pace with rank 0's polls): rank 0 polls more than 2^24 times but is not alone
 *   io FILE  rank 0 writes 4 KiB to FILE with MPI_File_iwrite and polls MPI_Test until it is done
 *            (4 s at --io-bandwidth 1KB/s) while rank 1 waits in MPI_Barrier */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "test";
  int x = 0, flag = 0;
  long polls = 0;
  const int late = strcmp(mode, "late") == 0, others = strcmp(mode, "others") == 0;
  if (strcmp(mode, "test") == 0 || late || others) {
    if (rank == 0) {
      MPI_Request r;
      MPI_Irecv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
      while (!flag) {
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        ++polls;
      }
      printf("poll_alone: %s got %d after more than 2^24 polls: %d\n", mode, x, polls > 1L << 24);
    } else if (late) {
      MPISIM_Compute(2.0);
      x = 7;
      MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (others && rank == 1) {
      for (int i = 0; i < 20; ++i) {
        MPISIM_Compute(0.1);
        MPI_Send(&i, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
      }
      x = 7;
      MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (others) {
      for (int i = 0; i < 20; ++i)
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (strcmp(mode, "iprobe") == 0) {
    if (rank == 0)
      while (!flag)
        MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(mode, "io") == 0) {
    if (rank == 0) {
      static char block[4096];
      MPI_File f;
      MPI_Request q;
      MPI_File_open(MPI_COMM_SELF, argv[2], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
      MPI_File_iwrite(f, block, (int)sizeof block, MPI_BYTE, &q);
      while (!flag) {
        MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
        ++polls;
      }
      MPI_File_close(&f);
      printf("poll_alone: io done after more than 2^24 polls: %d\n", polls > 1L << 24);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(mode, "working") == 0) {
    if (rank == 0) {
      for (long step = 0; step < (1L << 24) + (1L << 20); ++step) {
        MPISIM_Compute(1e-6);
        MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      }
      x = 9;
      MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      printf("poll_alone: working loop ended\n");
    } else {
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("poll_alone: rank 1 got %d\n", x);
    }
  }
  MPI_Finalize();
  return 0;
}
