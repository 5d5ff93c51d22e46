/* park_floor: what the kernel charges for parking a fiber stack and bringing it back, whatever
 * mpisim does around it (docs/performance.md, What the kernel's page work allows).
 *
 * N stacks of SLOT pages are cycled as the ranks of a ring are: each in turn is brought back (if
 * parked), its used top written, then left; the left ones are parked in batches of 1 024. Parking
 * copies the used part (USED bytes) out and gives up the page; bringing back gets a page and
 * copies the used part in. Schemes:
 *   guard   kernel guard regions, as mpisim parks today: one process_madvise(MADV_GUARD_INSTALL)
 *           per batch, MADV_GUARD_REMOVE and MADV_POPULATE_WRITE per stack brought back;
 *   merged  the same with each run of neighbouring stacks guarded as one range, from the first
 *           one's used page to the last one's top (their lower pages are guarded too, so a stack
 *           brought back has its guards removed from its whole slot);
 *   move    userfaultfd: a parked stack's page is moved (UFFDIO_MOVE, Linux 6.8) to a pool of
 *           8 192 pages and a pooled page moved back, so no page is freed, allocated or cleared
 *           while the pool has room (beyond it a page is dropped, and one is made by
 *           UFFDIO_COPY); a fault on a parked page raises SIGBUS (UFFD_FEATURE_SIGBUS) as a
 *           guard region faults;
 *   copy    the copies alone, the page kept: the floor of a design in which stacks share their
 *           pages without the kernel.
 * Usage: park_floor [stacks] [slot pages] [rounds]. Prints ns per cycle (one park and one bring
 * back) for each scheme that this kernel offers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Linux 6.8 and 6.13 constants that older headers lack. */
#ifndef UFFDIO_MOVE
struct uffdio_move {
  __u64 dst, src, len, mode;
  __s64 move;
};
#define UFFDIO_MOVE _IOWR(UFFDIO, 0x05, struct uffdio_move)
#endif
#ifndef UFFD_FEATURE_MOVE
#define UFFD_FEATURE_MOVE (1 << 16)
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { kPage = 4096, kBatch = 1024, kUsed = 600, kPool = 8192 };
enum Scheme { kGuard, kMerged, kMove, kCopy, kSchemes };
static const char* const kNames[kSchemes] = {"guard", "merged", "move", "copy"};

static size_t stacks = 100000, slot_pages = 65, rounds = 5;
static char* region;
static char** copies;
static unsigned char* parked;
static int uffd = -1;
static char* pool;
static size_t pool_top;

static char* top_page(size_t i) {
  return region + (i + 1) * slot_pages * kPage - kPage;
}

static void fail(const char* what) {
  fprintf(stderr, "park_floor: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void move_page(char* to, char* from) {
  struct uffdio_move m = {(uint64_t)(uintptr_t)to, (uint64_t)(uintptr_t)from, kPage, 0, 0};
  if (ioctl(uffd, UFFDIO_MOVE, &m) != 0) fail("UFFDIO_MOVE");
}

static void advise_ranges(struct iovec* iov, size_t n, int advice) {
  static int pidfd = -1;
  if (pidfd < 0) pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
  if (syscall(SYS_process_madvise, pidfd, iov, n, advice, 0) < 0) fail("process_madvise");
}

static void close_userfaultfd(void) {
  if (uffd < 0) return;
  munmap(pool, kPool * kPage);
  close(uffd);
  uffd = -1;
  pool_top = 0;
}

/* userfaultfd over the stacks and the pool, faults as SIGBUS; 0 where the kernel refuses. */
static int open_userfaultfd(size_t bytes) {
  uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
  if (uffd < 0) return 0;
  pool = mmap(NULL, kPool * kPage, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED) fail("mmap");
  struct uffdio_api api = {UFFD_API, UFFD_FEATURE_SIGBUS | UFFD_FEATURE_MOVE, 0};
  struct uffdio_register stacks_reg = {
      {(uint64_t)(uintptr_t)region, bytes}, UFFDIO_REGISTER_MODE_MISSING, 0};
  struct uffdio_register pool_reg = {
      {(uint64_t)(uintptr_t)pool, kPool * kPage}, UFFDIO_REGISTER_MODE_MISSING, 0};
  if (ioctl(uffd, UFFDIO_API, &api) == 0 && ioctl(uffd, UFFDIO_REGISTER, &stacks_reg) == 0 &&
      ioctl(uffd, UFFDIO_REGISTER, &pool_reg) == 0)
    return 1;
  close_userfaultfd();
  return 0;
}

static char zero[kPage] __attribute__((aligned(kPage)));

static void make_page(char* page) {
  struct uffdio_copy c = {(uint64_t)(uintptr_t)page, (uint64_t)(uintptr_t)zero, kPage, 0, 0};
  if (ioctl(uffd, UFFDIO_COPY, &c) != 0) fail("UFFDIO_COPY");
}

static void bring_back(enum Scheme s, size_t i) {
  char* page = top_page(i);
  switch (s) {
  case kGuard:
    if (madvise(page, kPage, MADV_GUARD_REMOVE) != 0) fail("MADV_GUARD_REMOVE");
    (void)madvise(page, kPage, MADV_POPULATE_WRITE);
    break;
  case kMerged: {
    char* bottom = region + i * slot_pages * kPage + kPage; /* above its overflow guard */
    if (madvise(bottom, (slot_pages - 1) * kPage, MADV_GUARD_REMOVE) != 0)
      fail("MADV_GUARD_REMOVE");
    (void)madvise(page, kPage, MADV_POPULATE_WRITE);
    break;
  }
  case kMove:
    if (pool_top > 0)
      move_page(page, pool + --pool_top * kPage);
    else
      make_page(page);
    break;
  default:
    break;
  }
  memcpy(page + kPage - kUsed, copies[i], kUsed);
  parked[i] = 0;
}

static void park_batch(enum Scheme s, const size_t* left, size_t n) {
  struct iovec iov[kBatch];
  size_t ranges = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = left[k];
    char* page = top_page(i);
    memcpy(copies[i], page + kPage - kUsed, kUsed);
    parked[i] = 1;
    if (s == kMerged && k > 0 && left[k - 1] + 1 == i) {
      iov[ranges - 1].iov_len = (size_t)(page + kPage - (char*)iov[ranges - 1].iov_base);
    } else if (s == kGuard || s == kMerged) {
      iov[ranges].iov_base = page;
      iov[ranges++].iov_len = kPage;
    } else if (s == kMove && pool_top < kPool) {
      move_page(pool + pool_top++ * kPage, page);
    } else if (s == kMove && madvise(page, kPage, MADV_DONTNEED) != 0) {
      fail("MADV_DONTNEED");
    }
  }
  if (ranges > 0) advise_ranges(iov, ranges, MADV_GUARD_INSTALL);
}

static double run(enum Scheme s) {
  const size_t bytes = stacks * slot_pages * kPage;
  region =
      mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) fail("mmap");
  if (s == kMove && !open_userfaultfd(bytes)) {
    munmap(region, bytes);
    return -1;
  }
  if (s == kMove) /* the stacks' first pages, placed as a fault would place them */
    for (size_t i = 0; i < stacks; ++i)
      make_page(top_page(i));
  memset(parked, 0, stacks);
  size_t left[kBatch], n_left = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t r = 0; r < rounds; ++r)
    for (size_t i = 0; i < stacks; ++i) {
      if (parked[i]) bring_back(s, i);
      top_page(i)[kPage - kUsed] += 1; /* the rank runs */
      left[n_left++] = i;
      if (n_left == kBatch) {
        park_batch(s, left, n_left);
        n_left = 0;
      }
    }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  munmap(region, bytes);
  close_userfaultfd();
  const double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
  return ns / (double)(stacks * rounds);
}

int main(int argc, char** argv) {
  if (argc > 1) stacks = strtoul(argv[1], NULL, 10);
  if (argc > 2) slot_pages = strtoul(argv[2], NULL, 10);
  if (argc > 3) rounds = strtoul(argv[3], NULL, 10);
  if (stacks < kBatch || slot_pages < 2 || rounds < 1) {
    fprintf(stderr, "usage: park_floor [stacks >= 1024] [slot pages >= 2] [rounds >= 1]\n");
    return 2;
  }
  copies = malloc(stacks * sizeof *copies);
  parked = malloc(stacks);
  for (size_t i = 0; i < stacks; ++i)
    copies[i] = malloc(kUsed);
  printf("%zu stacks of %zu pages, %zu rounds, %d bytes used\n", stacks, slot_pages, rounds, kUsed);
  printf("| scheme | ns per park and bring-back |\n|---|---|\n");
  for (int s = 0; s < kSchemes; ++s) {
    const double ns = run((enum Scheme)s);
    if (ns < 0)
      printf("| %s | not offered by this kernel |\n", kNames[s]);
    else
      printf("| %s | %.0f |\n", kNames[s], ns);
  }
  return 0;
}
