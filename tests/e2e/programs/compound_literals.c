// Compound literals with static storage (file scope): each rank has its own objects, as each
// process has, also when they hold the addresses of other globals or of other literals, when
// they span lines, and when several share one declaration. A literal whose value is copied
// stays as it is.
#include <mpi.h>
#include <stdio.h>

struct opt {
  const char* name;
  int* val;
};
struct point {
  int x, y;
};

static int nx = 10, ny = 20;
int* counts = (int[]){0, 0};
struct opt* opts = (struct opt[]){{"nx", &nx}, {"ny", &ny}};
static int** rows = (int*[]){(int[]){1, 2}, (int[]){3, 4}};
struct point *origin = &(struct point){0, 0}, *corner = &(struct point){
                                                  5,
                                                  5,
                                              };
struct point copied = (struct point){7, 8};
struct holder {
  int* p;
  struct point pt;
} holder = {.p = (int[]){5, 6}, .pt = (struct point){7, 8}};
static const char* const* names = (const char* const[]){"a", "b"};
static int line_after = __LINE__;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  counts[0] += r + 1;
  *opts[1].val += r;
  rows[1][0] += 10 * r;
  origin->x = r;
  corner->y += r;
  copied.x += r;
  holder.p[1] += r;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: counts %d %d, ny %d by %s, rows %d %d, origin %d, corner %d, copied %d, %s%s, "
         "holder %d %d, line %d\n",
         r, counts[0], counts[1], ny, opts[1].name, rows[0][1], rows[1][0], origin->x, corner->y,
         copied.x, names[0], names[1], holder.p[1], holder.pt.y, line_after);
  MPI_Finalize();
  return 0;
}
