/* Communication patterns, used by the central-invariant tests and the protocol benchmarks.
 * Every rank prints a digest of what it received (data and sources, in order) and its final
 * clock: the output must be identical for every number of host processes, protocol and rank
 * map. No globals: ranks share them until the privatizer lands. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int rank, size;
  unsigned long long digest;
} Ctx;

static void mix(Ctx* c, unsigned long long v) {
  c->digest ^= v + 0x9e3779b97f4a7c15ULL + (c->digest << 6) + (c->digest >> 2);
}

static void mix_buffer(Ctx* c, const int* buf, int n) {
  for (int i = 0; i < n; ++i)
    mix(c, (unsigned long long)(unsigned)buf[i]);
}

static void fill(int* buf, int n, int seed) {
  for (int i = 0; i < n; ++i)
    buf[i] = seed * 7919 + i * 31;
}

/* Pairs exchange messages of eager and rendezvous sizes, with uneven compute. */
static void pingpong(Ctx* c) {
  const int sizes[] = {2, 250, 30000};
  int* buf = malloc(30000 * sizeof *buf);
  const int peer = c->rank ^ 1;
  if (peer >= c->size) return;
  for (int s = 0; s < 3; ++s)
    for (int it = 0; it < 4; ++it) {
      MPISIM_Compute((c->rank + 1) * 1e-6);
      if (c->rank % 2 == 0) {
        fill(buf, sizes[s], c->rank + it);
        MPI_Send(buf, sizes[s], MPI_INT, peer, s, MPI_COMM_WORLD);
        MPI_Recv(buf, sizes[s], MPI_INT, peer, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, sizes[s], MPI_INT, peer, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        buf[0] += 1;
        MPI_Ssend(buf, sizes[s], MPI_INT, peer, s, MPI_COMM_WORLD);
      }
      mix_buffer(c, buf, sizes[s]);
    }
  free(buf);
}

/* A token three times around the ring, each rank computing before passing it on. */
static void ring(Ctx* c) {
  int token = 0;
  const int next = (c->rank + 1) % c->size, prev = (c->rank + c->size - 1) % c->size;
  for (int r = 0; r < 3; ++r) {
    if (c->rank == 0) {
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPISIM_Compute((c->rank % 5) * 0.5e-6);
      token += c->rank;
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
    mix(c, (unsigned long long)token);
  }
}

/* 2-D halo exchange on a px x py grid with a residual Allreduce every iteration. */
static void halo2d(Ctx* c) {
  int px = 1;
  for (int d = 1; d * d <= c->size; ++d)
    if (c->size % d == 0) px = d;
  const int py = c->size / px, x = c->rank % px, y = c->rank / px;
  const int west = x > 0 ? c->rank - 1 : MPI_PROC_NULL,
            east = x < px - 1 ? c->rank + 1 : MPI_PROC_NULL;
  const int south = y > 0 ? c->rank - px : MPI_PROC_NULL,
            north = y < py - 1 ? c->rank + px : MPI_PROC_NULL;
  int edge[64], halo[64];
  for (int it = 0; it < 5; ++it) {
    MPISIM_Compute(((c->rank * 13 + it) % 7 + 1) * 1e-6);
    const int peers[4][2] = {{east, west}, {west, east}, {north, south}, {south, north}};
    for (int k = 0; k < 4; ++k) {
      fill(edge, 64, c->rank * 4 + k + it);
      MPI_Status st;
      MPI_Sendrecv(edge, 64, MPI_INT, peers[k][0], k, halo, 64, MPI_INT, peers[k][1], k,
                   MPI_COMM_WORLD, &st);
      if (peers[k][1] != MPI_PROC_NULL) mix_buffer(c, halo, 64);
      mix(c, (unsigned long long)(st.MPI_SOURCE + 2));
    }
    double local = c->rank * 0.5 + it, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mix(c, (unsigned long long)(global * 4));
  }
}

/* Ranks talk only within their residue class mod `stride`: in each of `iterations` sweeps,
 * rank r exchanges with r + k*stride and r - k*stride for every k of the class. The block map
 * splits every class over host processes; mapping a class to a host (MPISIM_MAP=auto) crosses
 * none. */
static void residues(Ctx* c, int stride, int iterations) {
  int out[32], in[32];
  if (stride < 1) stride = 1;
  const int classmates = c->size / stride;
  for (int it = 0; it < iterations; ++it) {
    MPISIM_Compute(((c->rank * 5 + it) % 3 + 1) * 1e-6);
    for (int k = 1; k < classmates; ++k) {
      const int to = (c->rank + k * stride) % c->size;
      const int from = (c->rank + c->size - k * stride) % c->size;
      fill(out, 32, c->rank + k + it);
      MPI_Sendrecv(out, 32, MPI_INT, to, k, in, 32, MPI_INT, from, k, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      mix_buffer(c, in, 32);
    }
  }
}

/* Every collective, with different roots and sizes (short and long messages). */
static void collectives(Ctx* c) {
  int* buf = malloc(20000 * sizeof *buf);
  int* out = malloc(20000 * sizeof *out);
  const int counts[] = {1, 100, 20000};
  for (int k = 0; k < 3; ++k) {
    const int n = counts[k], root = (k * 3) % c->size;
    MPISIM_Compute((c->rank % 3 + k) * 1e-6);
    fill(buf, n, c->rank == root ? 99 : c->rank);
    MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
    mix_buffer(c, buf, n);
    fill(buf, n, c->rank + k);
    MPI_Reduce(buf, out, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    if (c->rank == root) mix_buffer(c, out, n);
    MPI_Allreduce(buf, out, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    mix_buffer(c, out, n);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  free(buf);
  free(out);
}

/* A non-blocking allreduce progresses while its owners wait in a ring of messages sent after
 * uneven compute: the collective's steps complete in other ranks' fibers while their owners are
 * blocked in MPI_Recv, and the receives' time bounds must not depend on those owners waking. */
static void overlap(Ctx* c) {
  const int left = (c->rank + c->size - 1) % c->size, right = (c->rank + 1) % c->size;
  for (int it = 0; it < 10; ++it) {
    int mine = c->rank + it, sum = 0, token = 0;
    MPI_Request q;
    MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
    if (c->rank % 2 == 0) {
      MPISIM_Compute((c->rank + 1) * 1e-6);
      MPI_Send(&it, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPISIM_Compute((c->rank + 1) * 0.5e-6);
      MPI_Send(&it, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    mix(c, (unsigned long long)sum);
    mix(c, (unsigned long long)token);
  }
}

/* Master/worker farm: the master hands out tasks of uneven cost and takes results from
 * MPI_ANY_SOURCE in the order they arrive in simulated time. */
static void farm(Ctx* c) {
  const int tasks = 4 * c->size;
  if (c->size == 1) return;
  if (c->rank == 0) {
    int next = 0, done = 0;
    for (int w = 1; w < c->size; ++w, ++next)
      MPI_Send(&next, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
    while (done < tasks) {
      int result[2];
      MPI_Status st;
      MPI_Recv(result, 2, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
      ++done;
      mix(c, (unsigned long long)st.MPI_SOURCE);
      mix(c, (unsigned long long)result[1]);
      const int task = next < tasks ? next++ : -1;
      MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
    }
  } else {
    for (;;) {
      int task;
      MPI_Recv(&task, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task < 0) break;
      MPISIM_Compute(((task * 37 + c->rank * 11) % 17 + 1) * 1e-6);
      int result[2] = {task, task * task + c->rank};
      MPI_Send(result, 2, MPI_INT, 0, 2, MPI_COMM_WORLD);
      mix(c, (unsigned long long)task);
    }
  }
}

/* Task farm by tag: the master keeps one task out per worker and receives results with
 * MPI_ANY_TAG from MPI_ANY_SOURCE; a worker tags its result with the kind of task it did
 * (a task's kind decides its cost), and the master answers a result with the next task. */
static void tagfarm(Ctx* c) {
  const int tasks = 4 * c->size, kinds = 3;
  if (c->size == 1) return;
  if (c->rank == 0) {
    int next = 0, done = 0, per_kind[3] = {0, 0, 0};
    for (int w = 1; w < c->size; ++w, ++next)
      MPI_Send(&next, 1, MPI_INT, w, 100, MPI_COMM_WORLD);
    while (done < tasks) {
      int result;
      MPI_Status st;
      MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      ++done;
      ++per_kind[st.MPI_TAG % kinds];
      mix(c, (unsigned long long)(st.MPI_SOURCE * 16 + st.MPI_TAG));
      mix(c, (unsigned long long)result);
      const int task = next < tasks ? next++ : -1;
      MPI_Send(&task, 1, MPI_INT, st.MPI_SOURCE, 100, MPI_COMM_WORLD);
    }
    for (int k = 0; k < kinds; ++k)
      mix(c, (unsigned long long)per_kind[k]);
  } else {
    for (;;) {
      int task;
      MPI_Recv(&task, 1, MPI_INT, 0, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (task < 0) break;
      const int kind = (task * 7 + c->rank) % kinds;
      MPISIM_Compute((kind * 4 + (task * 5 + c->rank) % 3 + 1) * 1e-6);
      int result = task * 3 + kind;
      MPI_Send(&result, 1, MPI_INT, 0, kind, MPI_COMM_WORLD);
      mix(c, (unsigned long long)task);
    }
  }
}

/* A 1-D halo whose receives take MPI_ANY_SOURCE (the neighbour is told by the tag), and
 * a tree reduction to rank 0 that takes the children's partial sums in arrival order. */
static void wildcard(Ctx* c) {
  const int left = c->rank > 0 ? c->rank - 1 : MPI_PROC_NULL;
  const int right = c->rank < c->size - 1 ? c->rank + 1 : MPI_PROC_NULL;
  int edge[32], halo[32];
  for (int it = 0; it < 6; ++it) {
    MPISIM_Compute(((c->rank * 7 + it) % 5 + 1) * 1e-6);
    MPI_Request reqs[2];
    int n = 0;
    fill(edge, 32, c->rank + it);
    if (left != MPI_PROC_NULL) MPI_Isend(edge, 32, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[n++]);
    if (right != MPI_PROC_NULL) MPI_Isend(edge, 32, MPI_INT, right, 2, MPI_COMM_WORLD, &reqs[n++]);
    /* What the left neighbour sends right has tag 2, what the right one sends left tag 1. */
    for (int k = 0; k < 2; ++k) {
      if ((k == 0 ? left : right) == MPI_PROC_NULL) continue;
      MPI_Status st;
      MPI_Recv(halo, 32, MPI_INT, MPI_ANY_SOURCE, k == 0 ? 2 : 1, MPI_COMM_WORLD, &st);
      mix_buffer(c, halo, 32);
      mix(c, (unsigned long long)(st.MPI_SOURCE * 4 + st.MPI_TAG));
    }
    MPI_Status sent[2];
    MPI_Waitall(n, reqs, sent);
    long long sum = c->rank * 3 + it;
    for (int child = 2 * c->rank + 1, k = 0; k < 2; ++k, ++child) {
      if (child >= c->size) break;
      long long part;
      MPI_Status st;
      MPI_Recv(&part, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
      sum += part;
      mix(c, (unsigned long long)st.MPI_SOURCE);
    }
    if (c->rank > 0)
      MPI_Send(&sum, 1, MPI_LONG_LONG, (c->rank - 1) / 2, 3, MPI_COMM_WORLD);
    else
      mix(c, (unsigned long long)sum);
  }
}

/* Rank 0 polls MPI_Test on wildcard receives while computing; the others send at staggered
 * times. How many polls each receive takes depends on simulated time only. */
static void testpoll(Ctx* c) {
  if (c->rank == 0) {
    for (int k = 1; k < c->size; ++k) {
      int v = -1, flag = 0, polls = 0;
      MPI_Request q;
      MPI_Status st;
      MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &q);
      while (!flag) {
        MPISIM_Compute(0.3e-6);
        MPI_Test(&q, &flag, &st);
        ++polls;
      }
      mix(c, (unsigned long long)(st.MPI_SOURCE * 1000 + v));
      mix(c, (unsigned long long)polls);
    }
  } else {
    MPISIM_Compute(((c->rank * 7) % 11 + 1) * 2e-6);
    int v = c->rank * 3;
    MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
}

/* Every rank polls MPI_Test without computing on a broadcast from the middle rank, then on an
 * allreduce: when each answers yes depends on when its steps' sends leave its NIC, which the
 * network decides after the receive that starts them has matched. */
static void nbcpoll(Ctx* c) {
  int b[4] = {c->rank, 0, 0, 0}, flag = 0;
  long polls = 0;
  MPI_Request q;
  MPI_Ibcast(b, 4, MPI_INT, c->size / 2, MPI_COMM_WORLD, &q);
  for (; !flag; ++polls)
    MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
  mix(c, (unsigned long long)(b[0] * 1000 + polls));
  double x = c->rank, y = 0;
  MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
  for (flag = 0, polls = 0; !flag; ++polls)
    MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
  mix(c, (unsigned long long)(y * 1000 + polls));
}

/* Rank 0 polls MPI_Iprobe(MPI_ANY_SOURCE) while computing and receives what it finds; the others
 * send at staggered times. */
static void iprobe(Ctx* c) {
  if (c->rank == 0) {
    for (int got = 1; got < c->size;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &flag, &st);
      if (!flag) {
        MPISIM_Compute(0.7e-6);
        continue;
      }
      int v;
      MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      mix(c, (unsigned long long)(st.MPI_SOURCE * 1000 + v));
      ++got;
    }
  } else {
    MPISIM_Compute(((c->rank * 5) % 9 + 1) * 1.5e-6);
    int v = c->rank + 40;
    MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
  }
}

/* Every rank receives from three others with MPI_Waitany: the order it sees depends on when
 * the messages arrive in simulated time. */
static void waitany(Ctx* c) {
  if (c->size < 4) return;
  const int offsets[3] = {1, 2, 3};
  int in[3];
  MPI_Request q[3];
  for (int k = 0; k < 3; ++k)
    MPI_Irecv(&in[k], 1, MPI_INT, (c->rank + c->size - offsets[k]) % c->size, 9, MPI_COMM_WORLD,
              &q[k]);
  for (int k = 0; k < 3; ++k) {
    MPISIM_Compute(((c->rank * 3 + k * 7) % 5 + 1) * 1e-6);
    int v = c->rank * 10 + k;
    MPI_Send(&v, 1, MPI_INT, (c->rank + offsets[k]) % c->size, 9, MPI_COMM_WORLD);
  }
  for (int k = 0; k < 3; ++k) {
    int index;
    MPI_Status st;
    MPI_Waitany(3, q, &index, &st);
    mix(c, (unsigned long long)(index * 100000 + st.MPI_SOURCE * 100 + in[index]));
  }
}

/* Wildcards beside named receives on one communicator: each rank posts, interleaved, six
 * MPI_ANY_SOURCE receives of tag 1 (twins of one tag), one named receive of tag 2 per
 * neighbour, and on a duplicate communicator MPI_ANY_SOURCE/MPI_ANY_TAG receives; the
 * neighbours send in a scrambled order at staggered times, some messages large enough for
 * the rendezvous protocol. Which wildcard takes which message depends on simulated time only. */
static void wildmix(Ctx* c) {
  if (c->size < 4) return;
  enum { kLarge = 3000, kRecvs = 13 };
  const int from[3] = {(c->rank + c->size - 1) % c->size, (c->rank + 1) % c->size,
                       (c->rank + 2) % c->size};
  const int to[3] = {(c->rank + 1) % c->size, (c->rank + c->size - 1) % c->size,
                     (c->rank + c->size - 2) % c->size};
  MPI_Comm other;
  MPI_Comm_dup(MPI_COMM_WORLD, &other);
  int(*in)[kLarge] = malloc(sizeof(int[kRecvs][kLarge]));
  int(*out)[kLarge] = malloc(sizeof(int[9][kLarge]));
  for (int it = 0; it < 4; ++it) {
    MPI_Request q[kRecvs], s[9];
    int n = 0, wild = 0, named = 0, dup = 0;
    /* Post order: wildcard, named, other communicator, wildcard, ... */
    while (n < kRecvs) {
      if (wild < 6) {
        MPI_Irecv(in[n], kLarge, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &q[n]);
        ++n, ++wild;
      }
      if (named < 3) {
        MPI_Irecv(in[n], kLarge, MPI_INT, from[named], 2, MPI_COMM_WORLD, &q[n]);
        ++n, ++named;
      }
      if (dup < 4) {
        MPI_Irecv(in[n], kLarge, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, other, &q[n]);
        ++n, ++dup;
      }
    }
    /* Two messages of tag 1 and one of tag 2 to each target, in an order that changes. */
    for (int k = 0; k < 9; ++k) {
      const int slot = (k * 4 + it + c->rank) % 9, target = slot / 3, tag = slot % 3 == 2 ? 2 : 1;
      MPISIM_Compute(((c->rank * 5 + k * 3 + it) % 7 + 1) * 0.4e-6);
      const int count = (k + it + c->rank) % 4 == 0 ? kLarge : 8 + k;
      fill(out[k], count, c->rank * 100 + it * 10 + k);
      MPI_Isend(out[k], count, MPI_INT, to[target], tag, MPI_COMM_WORLD, &s[k]);
    }
    /* On `other`, one message to the first two targets and two to the third, tags 3 and 4. */
    for (int k = 0; k < 4; ++k) {
      int v = c->rank * 1000 + it * 10 + k;
      MPISIM_Compute(((c->rank + k * 5 + it) % 4 + 1) * 0.3e-6);
      MPI_Send(&v, 1, MPI_INT, to[k < 3 ? k : 2], 3 + k % 2, other);
    }
    MPI_Status st[kRecvs];
    MPI_Waitall(kRecvs, q, st);
    for (int k = 0; k < kRecvs; ++k) {
      int count;
      MPI_Get_count(&st[k], MPI_INT, &count);
      mix(c, (unsigned long long)(st[k].MPI_SOURCE * 100000 + st[k].MPI_TAG * 10000 + count));
      mix_buffer(c, in[k], count < 4 ? count : 4);
    }
    MPI_Status sent[9];
    MPI_Waitall(9, s, sent);
  }
  free(in);
  free(out);
  MPI_Comm_free(&other);
}

/* Communicators split by parity: collectives and a wildcard receive inside each half. */
static void subcomm(Ctx* c) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, c->rank % 2, -c->rank, &half);
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  MPISIM_Compute((c->rank % 4 + 1) * 1e-6);
  int v = c->rank, sum = 0;
  MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, half);
  mix(c, (unsigned long long)sum);
  MPI_Bcast(&v, 1, MPI_INT, hs - 1, half);
  mix(c, (unsigned long long)v);
  if (hr == 0) {
    for (int k = 1; k < hs; ++k) {
      MPI_Status st;
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, half, &st);
      mix(c, (unsigned long long)(st.MPI_SOURCE * 1000 + v));
    }
  } else {
    MPISIM_Compute(((hr * 7) % 5 + 1) * 1e-6);
    MPI_Send(&hr, 1, MPI_INT, 0, 3, half);
  }
  MPI_Comm_free(&half);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Ctx c = {0, 0, 1469598103934665603ULL};
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  const char* pattern = argc > 1 ? argv[1] : "ring";
  if (!strcmp(pattern, "pingpong"))
    pingpong(&c);
  else if (!strcmp(pattern, "ring"))
    ring(&c);
  else if (!strcmp(pattern, "halo2d"))
    halo2d(&c);
  else if (!strcmp(pattern, "collectives"))
    collectives(&c);
  else if (!strcmp(pattern, "farm"))
    farm(&c);
  else if (!strcmp(pattern, "tagfarm"))
    tagfarm(&c);
  else if (!strcmp(pattern, "wildcard"))
    wildcard(&c);
  else if (!strcmp(pattern, "testpoll"))
    testpoll(&c);
  else if (!strcmp(pattern, "nbcpoll"))
    nbcpoll(&c);
  else if (!strcmp(pattern, "iprobe"))
    iprobe(&c);
  else if (!strcmp(pattern, "waitany"))
    waitany(&c);
  else if (!strcmp(pattern, "overlap"))
    overlap(&c);
  else if (!strcmp(pattern, "wildmix"))
    wildmix(&c);
  else if (!strcmp(pattern, "subcomm"))
    subcomm(&c);
  else if (!strcmp(pattern, "residues"))
    residues(&c, argc > 2 ? atoi(argv[2]) : 2, argc > 3 ? atoi(argv[3]) : 5);
  else if (!strcmp(pattern, "abort")) {
    if (c.rank == c.size - 1) MPI_Abort(MPI_COMM_WORLD, 17);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    if (c.rank == 0) fprintf(stderr, "invariant: unknown pattern %s\n", pattern);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  printf("rank %d digest %016llx clock %lld\n", c.rank, c.digest, MPISIM_Clock_ps());
  MPI_Finalize();
  return 0;
}
