/* Portable checkpoint files written with MPI_Pack_external in "external32": rank 0 packs one
 * item of each kind of C data (ints, a short, longs, a strided column of doubles, a long double,
 * a float complex, chars) into one buffer and prints its bytes, which the standard fixes
 * (big-endian, long as 4 bytes, long double as IEEE quad); it sends them to rank 1, which unpacks
 * them and prints the values. (MPICH 4.0.2 cannot size a struct of mixed types in external32:
 * the unit tests check those.) */
#include <complex.h>
#include <mpi.h>
#include <stdio.h>

static void hex(const char* what, const unsigned char* b, MPI_Aint n) {
  /* One write per line: the processes of a native run share the output. */
  char line[1024];
  int at = snprintf(line, sizeof line, "%s (%ld bytes):", what, (long)n);
  for (MPI_Aint i = 0; i < n && at < (int)sizeof line - 4; ++i)
    at += snprintf(line + at, sizeof line - (size_t)at, " %02x", b[i]);
  printf("%s\n", line);
}

typedef struct {
  int i[2];
  short s;
  long l[2];
  double matrix[3][4];
  long double q;
  float _Complex z;
  char c[3];
} Items;

/* Packs (pack != 0) or unpacks every item of `x` at `position` in `buf`. */
static void transfer(int pack, Items* x, unsigned char* buf, MPI_Aint size, MPI_Aint* position,
                     MPI_Datatype column) {
  struct {
    void* data;
    int count;
    MPI_Datatype type;
  } items[7] = {{x->i, 2, MPI_INT},          {&x->s, 1, MPI_SHORT},
                {x->l, 2, MPI_LONG},         {&x->matrix[0][1], 1, column},
                {&x->q, 1, MPI_LONG_DOUBLE}, {&x->z, 1, MPI_C_FLOAT_COMPLEX},
                {x->c, 3, MPI_CHAR}};
  for (int k = 0; k < 7; ++k) {
    const MPI_Aint start = *position;
    if (pack)
      MPI_Pack_external("external32", items[k].data, items[k].count, items[k].type, buf, size,
                        position);
    else
      MPI_Unpack_external("external32", buf, size, position, items[k].data, items[k].count,
                          items[k].type);
    MPI_Aint expected;
    MPI_Pack_external_size("external32", items[k].count, items[k].type, &expected);
    if (pack) {
      char what[32];
      snprintf(what, sizeof what, "item %d", k);
      hex(what, buf + start, *position - start);
    }
    if (*position - start != expected) printf("item %d: size %ld\n", k, (long)expected);
  }
}

int main(int argc, char** argv) {
  /* Whole lines per write: the processes of a native run share one output. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype column;
  MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &column); /* column 1 of a 3x4 matrix */
  MPI_Type_commit(&column);
  unsigned char buf[512];
  MPI_Aint position = 0;
  if (rank == 0) {
    Items x = {{-2, 0x01020304}, 513, {-70000, 0x7fffffffL}, {{0}}, 1.5L, 1.0f - 2.5f * I,
               {'a', 'b', 'c'}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        x.matrix[i][j] = i * 10 + j + 0.25;
    transfer(1, &x, buf, sizeof buf, &position, column);
    printf("packed %ld bytes\n", (long)position);
    MPI_Send(buf, (int)position, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Status st;
    int n;
    MPI_Recv(buf, sizeof buf, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    Items x = {{0}};
    transfer(0, &x, buf, n, &position, column);
    char line[1024];
    int at = snprintf(line, sizeof line, "unpacked: %d %d %d %ld %ld %.3Lf (%g, %g) %c%c%c, column",
                      x.i[0], x.i[1], x.s, x.l[0], x.l[1], x.q, crealf(x.z), cimagf(x.z), x.c[0],
                      x.c[1], x.c[2]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        at += snprintf(line + at, sizeof line - (size_t)at, " %g", x.matrix[i][j]);
    printf("%s\nunpacked %ld of %d bytes\n", line, (long)position, n);
  }
  MPI_Type_free(&column);
  MPI_Finalize();
  return 0;
}
