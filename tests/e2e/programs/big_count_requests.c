/* The MPI-4.0 large-count (_c) forms whose arrays outlive the call: the non-blocking and the
 * persistent v-collectives (gather, scatter, allgather, alltoall v and w, reduce-scatter and the
 * neighbour ones), each with arrays of MPI_Count and MPI_Aint of its own; and MPI_Op_create_c,
 * MPI_Type_get_envelope_c, MPI_Type_get_contents_c on types of the int and of the large-count
 * constructors (whose counts and displacements are large counts, which the int forms refuse).
 * The persistent requests are made first and started (twice) after the non-blocking calls ran:
 * the int arrays their calls converted must last until the requests are freed. Each rank writes
 * its receive buffers into a line; rank 0 prints every rank's lines. With the argument "huge"
 * rank 0 passes a count of 2^31 in the counts array of MPI_Ialltoallv_c: mpisim refuses it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CALLS = 9, LINE = 1024, MAX_RANKS = 16 };

/* The arguments of one round of the nine calls and what they receive. */
struct Round {
  MPI_Count c_up[MAX_RANKS], c_down[MAX_RANKS], ones[MAX_RANKS], two[2], nb_ones[2];
  MPI_Aint d_up[MAX_RANKS], d_down[MAX_RANKS], d_back[MAX_RANKS], steps[MAX_RANKS],
      back_steps[MAX_RANKS], bytes[MAX_RANKS], back_bytes[MAX_RANKS], nb_swapped[2], nb_at[2],
      nb_bytes[2], nb_back_bytes[2];
  MPI_Datatype ints[MAX_RANKS];
  int gathered[MAX_RANKS * MAX_RANKS], piece[MAX_RANKS], all[MAX_RANKS * MAX_RANKS],
      each[MAX_RANKS], eachw[MAX_RANKS], reduced[MAX_RANKS], nb_all[4], nb_each[2], nb_eachw[2];
};

/* Rank i gives i + 1 elements in "up" arrays and size - i in "down" ones; "back" places the
 * blocks in reverse order. */
static int setup(struct Round* a, int size) {
  int up = 0, down = 0, total = 0;
  for (int i = 0; i < size; ++i)
    total += i + 1;
  for (int i = 0; i < size; ++i) {
    a->c_up[i] = i + 1;
    a->d_up[i] = up;
    a->d_back[i] = total - up - (i + 1);
    up += i + 1;
    a->c_down[i] = size - i;
    a->d_down[i] = down;
    down += size - i;
    a->ones[i] = 1;
    a->steps[i] = i;
    a->back_steps[i] = size - 1 - i;
    a->bytes[i] = i * (MPI_Aint)sizeof(int);
    a->back_bytes[i] = (size - 1 - i) * (MPI_Aint)sizeof(int);
    a->ints[i] = MPI_INT;
  }
  a->two[0] = a->two[1] = 2;
  a->nb_ones[0] = a->nb_ones[1] = 1;
  a->nb_swapped[0] = 2, a->nb_swapped[1] = 0;
  a->nb_at[0] = 1, a->nb_at[1] = 0;
  a->nb_bytes[0] = 0, a->nb_bytes[1] = sizeof(int);
  a->nb_back_bytes[0] = sizeof(int), a->nb_back_bytes[1] = 0;
  return total;
}

/* The nine calls, non-blocking or persistent (then not started). */
#define ISSUE(nonblocking, init, ...)                                                              \
  (persistent ? init(__VA_ARGS__, MPI_INFO_NULL, rq++) : nonblocking(__VA_ARGS__, rq++))
static void issue(int persistent, struct Round* a, int rank, int size, MPI_Comm ring,
                  const int* mine, const int* source, const int* to, const int* inputs,
                  MPI_Request* rq) {
  ISSUE(MPI_Igatherv_c, MPI_Gatherv_init_c, mine, rank + 1, MPI_INT, a->gathered, a->c_up, a->d_up,
        MPI_INT, size - 1, MPI_COMM_WORLD);
  ISSUE(MPI_Iscatterv_c, MPI_Scatterv_init_c, source, a->c_down, a->d_down, MPI_INT, a->piece,
        size - rank, MPI_INT, 0, MPI_COMM_WORLD);
  ISSUE(MPI_Iallgatherv_c, MPI_Allgatherv_init_c, mine, rank + 1, MPI_INT, a->all, a->c_up,
        a->d_back, MPI_INT, MPI_COMM_WORLD);
  ISSUE(MPI_Ialltoallv_c, MPI_Alltoallv_init_c, to, a->ones, a->steps, MPI_INT, a->each, a->ones,
        a->back_steps, MPI_INT, MPI_COMM_WORLD);
  ISSUE(MPI_Ialltoallw_c, MPI_Alltoallw_init_c, to, a->ones, a->bytes, a->ints, a->eachw, a->ones,
        a->back_bytes, a->ints, MPI_COMM_WORLD);
  ISSUE(MPI_Ireduce_scatter_c, MPI_Reduce_scatter_init_c, inputs, a->reduced, a->c_down, MPI_INT,
        MPI_SUM, MPI_COMM_WORLD);
  ISSUE(MPI_Ineighbor_allgatherv_c, MPI_Neighbor_allgatherv_init_c, mine, 2, MPI_INT, a->nb_all,
        a->two, a->nb_swapped, MPI_INT, ring);
  ISSUE(MPI_Ineighbor_alltoallv_c, MPI_Neighbor_alltoallv_init_c, to, a->nb_ones, a->nb_at, MPI_INT,
        a->nb_each, a->nb_ones, a->nb_at, MPI_INT, ring);
  ISSUE(MPI_Ineighbor_alltoallw_c, MPI_Neighbor_alltoallw_init_c, to, a->nb_ones, a->nb_bytes,
        a->ints, a->nb_eachw, a->nb_ones, a->nb_back_bytes, a->ints, ring);
}

static void put(char* line, const char* name, const int* v, int n) {
  char* end = line + strlen(line);
  end += sprintf(end, " %s", name);
  for (int i = 0; i < n; ++i)
    end += sprintf(end, "%c%d", i ? ',' : '=', v[i]);
}

/* What the round received, as one line. */
static void describe(char* line, const char* what, const struct Round* a, int rank, int size,
                     int total) {
  sprintf(line, "rank %d %s:", rank, what);
  if (rank == size - 1) put(line, "gatherv", a->gathered, total);
  put(line, "scatterv", a->piece, size - rank);
  put(line, "allgatherv", a->all, total);
  put(line, "alltoallv", a->each, size);
  put(line, "alltoallw", a->eachw, size);
  put(line, "reduce_scatter", a->reduced, size - rank);
  put(line, "nb_allgatherv", a->nb_all, 4);
  put(line, "nb_alltoallv", a->nb_each, 2);
  put(line, "nb_alltoallw", a->nb_eachw, 2);
}

/* Prints every rank's line, in rank order. */
static void print_lines(const char* line, int rank, int size) {
  char* lines = malloc((size_t)LINE * size);
  MPI_Gather(line, LINE, MPI_CHAR, lines, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      printf("%s\n", lines + (size_t)r * LINE);
  free(lines);
}

static MPI_Count seen_len;
static int seen_int;
/* Bitwise exclusive or, through the large-count user function. */
static void xor_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
  seen_len = *len;
  seen_int = *type == MPI_INT;
  for (MPI_Count i = 0; i < *len; ++i)
    ((int*)inout)[i] ^= ((const int*)in)[i];
}

/* The envelope and contents of `t`, as one line. */
static void decode(const char* what, MPI_Datatype t) {
  MPI_Count ni, na, nc, nd;
  int combiner, ints[8] = {0};
  MPI_Aint addresses[8] = {0};
  MPI_Count large[8] = {0};
  MPI_Datatype types[8];
  MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &combiner);
  MPI_Type_get_contents_c(t, 8, 8, 8, 8, ints, addresses, large, types);
  int int_ni, int_na, int_nd, int_combiner;
  const int refused = MPI_Type_get_envelope(t, &int_ni, &int_na, &int_nd, &int_combiner) != 0;
  printf("%s: integers %lld addresses %lld large counts %lld datatypes %lld combiner %s;", what,
         (long long)ni, (long long)na, (long long)nc, (long long)nd,
         combiner == MPI_COMBINER_VECTOR     ? "vector"
         : combiner == MPI_COMBINER_STRUCT   ? "struct"
         : combiner == MPI_COMBINER_SUBARRAY ? "subarray"
         : combiner == MPI_COMBINER_DARRAY   ? "darray"
         : combiner == MPI_COMBINER_RESIZED  ? "resized"
                                             : "other");
  for (int i = 0; i < ni; ++i)
    printf(" %d", ints[i]);
  for (int i = 0; i < na; ++i)
    printf(" @%ld", (long)addresses[i]);
  for (int i = 0; i < nc; ++i)
    printf(" L%lld", (long long)large[i]);
  for (int i = 0; i < nd; ++i) /* predefined: not to be freed */
    printf(" %s", types[i] == MPI_INT ? "MPI_INT" : types[i] == MPI_DOUBLE ? "MPI_DOUBLE" : "?");
  printf("; int form refuses %d\n", refused);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAX_RANKS) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Comm ring;
  const int periodic = 1;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);

  int mine[MAX_RANKS], source[MAX_RANKS * MAX_RANKS], to[MAX_RANKS], inputs[MAX_RANKS * MAX_RANKS];
  for (int i = 0; i < MAX_RANKS; ++i)
    mine[i] = rank * 7 + i;
  for (int i = 0; i < MAX_RANKS * MAX_RANKS; ++i) {
    source[i] = 1000 + i;
    inputs[i] = rank * 3 + i;
  }
  for (int i = 0; i < size; ++i)
    to[i] = rank * 100 + i;

  struct Round* later = calloc(1, sizeof *later);
  struct Round* now = calloc(1, sizeof *now);
  const int total = setup(later, size);
  setup(now, size);
  MPI_Request persistent[CALLS], nonblocking[CALLS];
  MPI_Status statuses[CALLS];
  issue(1, later, rank, size, ring, mine, source, to, inputs, persistent);

  if (argc > 1 && strcmp(argv[1], "huge") == 0 && rank == 0) {
    now->ones[size - 1] = (MPI_Count)1 << 31;
    MPI_Ialltoallv_c(to, now->ones, now->steps, MPI_INT, now->each, now->ones, now->steps, MPI_INT,
                     MPI_COMM_WORLD, &nonblocking[0]);
  }
  issue(0, now, rank, size, ring, mine, source, to, inputs, nonblocking);
  MPI_Waitall(CALLS, nonblocking, statuses);
  char line[LINE];
  describe(line, "non-blocking", now, rank, size, total);
  print_lines(line, rank, size);

  for (int round = 1; round <= 2; ++round) {
    MPI_Startall(CALLS, persistent);
    MPI_Waitall(CALLS, persistent, statuses);
    char what[32];
    sprintf(what, "persistent, start %d", round);
    describe(line, what, later, rank, size, total);
    print_lines(line, rank, size);
    memset(later->gathered, 0, sizeof later->gathered); /* the second start writes them again */
    memset(later->all, 0, sizeof later->all);
  }
  for (int i = 0; i < CALLS; ++i)
    MPI_Request_free(&persistent[i]);

  /* MPI_Op_create_c: the user function gets its length as an MPI_Count. */
  MPI_Op xor_op;
  MPI_Op_create_c(xor_c, 1, &xor_op);
  int acc[3] = {1, 2, 4}, x[3];
  MPI_Reduce_local_c(mine, acc, 3, MPI_INT, xor_op);
  const long long local_len = seen_len;
  MPI_Allreduce_c(mine, x, 3, MPI_INT, xor_op, MPI_COMM_WORLD);
  if (rank == 0)
    printf("op_create_c: local %d %d %d (len %lld, MPI_INT %d), allreduce %d %d %d\n", acc[0],
           acc[1], acc[2], local_len, seen_int, x[0], x[1], x[2]);
  MPI_Op_free(&xor_op);

  /* Decoding types of the int constructors (no large counts) and of the large-count ones. */
  if (rank == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    enum { TYPES = 7 };
    MPI_Datatype made[TYPES];
    const int lengths[2] = {1, 2};
    const MPI_Aint places[2] = {0, 8};
    const MPI_Count large_lengths[2] = {1, 2}, large_places[2] = {0, 8}, sizes[2] = {4, 5},
                    subsizes[2] = {2, 3}, starts[2] = {1, 1}, gsizes[1] = {12};
    const int distribs[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG},
              psizes[1] = {3};
    const MPI_Datatype kinds[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_vector(3, 2, 5, MPI_INT, &made[0]);
    MPI_Type_create_struct(2, lengths, places, kinds, &made[1]);
    MPI_Type_vector_c(3, 2, 5, MPI_INT, &made[2]);
    MPI_Type_create_struct_c(2, large_lengths, large_places, kinds, &made[3]);
    MPI_Type_create_subarray_c(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &made[4]);
    MPI_Type_create_darray_c(3, 1, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT,
                             &made[5]);
    MPI_Type_create_resized_c(MPI_INT, -4, 12, &made[6]);
    const char* names[TYPES] = {"vector",     "struct",   "vector_c", "struct_c",
                                "subarray_c", "darray_c", "resized_c"};
    for (int i = 0; i < TYPES; ++i) {
      decode(names[i], made[i]);
      MPI_Type_free(&made[i]);
    }
  }

  free(later);
  free(now);
  MPI_Comm_free(&ring);
  MPI_Finalize();
  return 0;
}
