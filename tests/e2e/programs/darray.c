/* Distributed arrays (MPI_Type_create_darray) as a parallel I/O code declares them: rank 0
 * scatters a global array to the other ranks with one send per rank typed by the receiver's
 * darray, every rank writes its part through a file view of the same type, and rank 0 reads the
 * whole file back. Each distribution (BLOCK, CYCLIC, NONE, default and explicit dargs) appears,
 * in C and Fortran order. Prints each rank's bounds and elements. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  const char* name;
  int ndims, gsizes[3], distribs[3], dargs[3], psizes[3], order;
} Layout;

static const Layout layouts[] = {
    {"C 6x7 block x cyclic(2)",
     2,
     {6, 7},
     {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
     {MPI_DISTRIBUTE_DFLT_DARG, 2},
     {2, 2},
     MPI_ORDER_C},
    {"F 5x3x4 cyclic x none x block(3)",
     3,
     {5, 3, 4},
     {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK},
     {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 3},
     {2, 1, 2},
     MPI_ORDER_FORTRAN},
    {"C 10 cyclic(3) on 4", 1, {10}, {MPI_DISTRIBUTE_CYCLIC}, {3}, {4}, MPI_ORDER_C},
};

static MPI_Datatype darray(const Layout* l, int size, int rank) {
  MPI_Datatype t;
  MPI_Type_create_darray(size, rank, l->ndims, l->gsizes, l->distribs, l->dargs, l->psizes,
                         l->order, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

/* Rank 0 prints every rank's line in rank order: long lines written by the processes of a
   native run at once can reach the shared output interleaved. */
static void print_from_rank_0(const char* line, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* all = rank == 0 ? malloc((size_t)n * (size_t)size) : NULL;
  MPI_Gather(line, n, MPI_CHAR, all, n, MPI_CHAR, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; ++r)
    printf("%s\n", all + (size_t)r * (size_t)n);
  free(all);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* path = argc > 1 ? argv[1] : "darray.dat";
  for (int k = 0; k < (int)(sizeof layouts / sizeof layouts[0]); ++k) {
    const Layout* l = &layouts[k];
    int total = 1;
    for (int d = 0; d < l->ndims; ++d)
      total *= l->gsizes[d];
    int* global = malloc(sizeof(int) * total);
    for (int i = 0; i < total; ++i)
      global[i] = 1000 * (k + 1) + i;
    MPI_Datatype mine = darray(l, size, rank);
    int bytes, n;
    MPI_Aint lb, extent;
    MPI_Type_size(mine, &bytes);
    MPI_Type_get_extent(mine, &lb, &extent);
    n = bytes / (int)sizeof(int);
    int nints, naddrs, ntypes, combiner;
    MPI_Type_get_envelope(mine, &nints, &naddrs, &ntypes, &combiner);
    /* Rank 0 sends each rank its part of the global array. */
    int* part = malloc(sizeof(int) * (n + 1));
    MPI_Request req;
    MPI_Irecv(part, n, MPI_INT, 0, k, MPI_COMM_WORLD, &req);
    if (rank == 0)
      for (int r = 0; r < size; ++r) {
        MPI_Datatype theirs = darray(l, size, r);
        MPI_Send(global, 1, theirs, r, k, MPI_COMM_WORLD);
        MPI_Type_free(&theirs);
      }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* One write per line: the processes of a native run share the output. */
    char line[1024];
    int at =
        snprintf(line, sizeof line,
                 "rank %d: %s: %d elements, lb %ld extent %ld, combiner darray %d, %d ints:", rank,
                 l->name, n, (long)lb, (long)extent, combiner == MPI_COMBINER_DARRAY, nints);
    for (int i = 0; i < n && at < (int)sizeof line - 16; ++i)
      at += snprintf(line + at, sizeof line - (size_t)at, " %d", part[i]);
    print_from_rank_0(line, sizeof line);
    /* Every rank writes its part through a view of its darray; rank 0 reads the whole file. */
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_size(fh, 0);
    MPI_File_set_view(fh, 0, MPI_INT, mine, "native", MPI_INFO_NULL);
    MPI_File_write_all(fh, part, n, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      int* back = malloc(sizeof(int) * total);
      MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
      MPI_File_read(fh, back, total, MPI_INT, MPI_STATUS_IGNORE);
      MPI_File_close(&fh);
      int misplaced = 0;
      for (int i = 0; i < total; ++i)
        misplaced += back[i] != global[i];
      printf("%s: file of %d elements, %d misplaced\n", l->name, total, misplaced);
      free(back);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&mine);
    free(part);
    free(global);
  }
  /* A process grid that does not have `size` processes, and a block too small to cover. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0) {
    MPI_Datatype t;
    int g[1] = {10}, dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {2}, p[1] = {3}, cls;
    int rc = MPI_Type_create_darray(4, 0, 1, g, dist, darg, p, MPI_ORDER_C, MPI_INT, &t);
    MPI_Error_class(rc, &cls);
    printf("grid of 3 for size 4: error class is MPI_ERR_ARG %d\n", cls == MPI_ERR_ARG);
    rc = MPI_Type_create_darray(4, 0, 1, g, dist, darg, (int[]){4}, MPI_ORDER_C, MPI_INT, &t);
    MPI_Error_class(rc, &cls);
    printf("blocks of 2 on 4 for 10: error class is MPI_ERR_ARG %d\n", cls == MPI_ERR_ARG);
  }
  if (rank == 0) remove(path);
  MPI_Finalize();
  return 0;
}
