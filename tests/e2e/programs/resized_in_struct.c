/* A struct's type holding a resized type: an inner struct's type resized to its C size (the
 * usual idiom for arrays of structs) inside an outer struct's type, and a resized int beside a
 * double and a char. The outer type's bounds come from all its members and are padded, as in
 * MPICH, so an array of three outer structs arrives whole. A subarray (a resized type too) of
 * no rows, the face of a rank whose part is empty, is allowed and moves nothing. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct Inner {
  double x;
  char tag;
};
struct Outer {
  int id;
  struct Inner in[2];
};

static void show(const char* what, MPI_Datatype t) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(t, &lb, &extent);
  printf("%s: lb %ld extent %ld\n", what, (long)lb, (long)extent);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype inner_fields, inner, outer, six, pair;
  int ones[2] = {1, 1}, two_inner[2] = {1, 2};
  MPI_Aint inner_at[2] = {offsetof(struct Inner, x), offsetof(struct Inner, tag)};
  MPI_Datatype inner_types[2] = {MPI_DOUBLE, MPI_CHAR};
  MPI_Type_create_struct(2, ones, inner_at, inner_types, &inner_fields);
  MPI_Type_create_resized(inner_fields, 0, sizeof(struct Inner), &inner);
  MPI_Aint outer_at[2] = {offsetof(struct Outer, id), offsetof(struct Outer, in)};
  MPI_Datatype outer_types[2] = {MPI_INT, inner};
  MPI_Type_create_struct(2, two_inner, outer_at, outer_types, &outer);
  MPI_Type_commit(&outer);
  MPI_Type_create_resized(MPI_INT, 0, 6, &six);
  MPI_Aint pair_at[2] = {0, 8};
  MPI_Datatype pair_types[2] = {MPI_DOUBLE, six};
  MPI_Type_create_struct(2, ones, pair_at, pair_types, &pair);
  if (rank == 0) {
    show("outer", outer);
    show("double and resized int", pair);
  }

  struct Outer a[3];
  memset(a, 0, sizeof a);
  if (rank == 0) {
    for (int i = 0; i < 3; i++) {
      a[i].id = 100 + i;
      for (int k = 0; k < 2; k++) {
        a[i].in[k].x = i + 0.5 * k;
        a[i].in[k].tag = (char)('a' + 2 * i + k);
      }
    }
    MPI_Send(a, 3, outer, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(a, 3, outer, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; i++)
      printf("received %d: id %d, (%g,%c) (%g,%c)\n", i, a[i].id, a[i].in[0].x,
             a[i].in[0].tag ? a[i].in[0].tag : '0', a[i].in[1].x,
             a[i].in[1].tag ? a[i].in[1].tag : '0');
  }
  int sizes[2] = {5, 7}, no_rows[2] = {0, 3}, starts[2] = {0, 0};
  MPI_Datatype face;
  MPI_Type_create_subarray(2, sizes, no_rows, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
  int face_size;
  MPI_Type_size(face, &face_size);
  double grid[35], ghost[35];
  for (int i = 0; i < 35; i++) {
    grid[i] = i;
    ghost[i] = -1;
  }
  MPI_Sendrecv(grid, 1, face, 1 - rank, 0, ghost, 1, face, 1 - rank, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  printf("rank %d: empty face of %d bytes, ghost[0] %g\n", rank, face_size, ghost[0]);
  if (rank == 0) show("empty face", face);
  MPI_Type_free(&face);
  MPI_Type_free(&inner_fields);
  MPI_Type_free(&inner);
  MPI_Type_free(&outer);
  MPI_Type_free(&six);
  MPI_Type_free(&pair);
  MPI_Finalize();
  return 0;
}
