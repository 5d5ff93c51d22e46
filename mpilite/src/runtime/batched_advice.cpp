#include "batched_advice.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "process_id.hpp"

namespace mpilite {
namespace {

/// Whether process_madvise() may work here: cleared when the call itself is missing or not
/// allowed (ENOSYS before Linux 5.10, EPERM under a seccomp filter). Kernels from 5.10 to 6.12
/// refuse most advice with EINVAL, as they do an invalid range: each batch then costs one more
/// call before madvise() goes range by range.
bool g_batches_work = true;

/// Advises the `n` ranges through process_madvise(); returns how many from the first it advised
/// (what a failed call leaves is for madvise() to do and report).
std::size_t advise_batch(const iovec* ranges, std::size_t n, int advice) {
#if defined(SYS_process_madvise) && defined(SYS_pidfd_open)
  const int self = static_cast<int>(syscall(SYS_pidfd_open, host_pid(), 0));
  if (self < 0) {
    g_batches_work = false;
    return 0;
  }
  std::size_t done = 0;
  while (done < n) {
    const long bytes = syscall(SYS_process_madvise, self, ranges + done, n - done, advice, 0);
    if (bytes <= 0) {
      if (bytes < 0 && (errno == ENOSYS || errno == EPERM)) g_batches_work = false;
      break;
    }
    // A partial call advised whole ranges from the first on, as many as the bytes cover.
    auto left = static_cast<std::size_t>(bytes);
    while (done < n && left >= ranges[done].iov_len)
      left -= ranges[done++].iov_len;
    if (left > 0) break; // mid-range: let madvise() redo from that range
  }
  close(self);
  return done;
#else
  (void)ranges;
  (void)n;
  (void)advice;
  return 0;
#endif
}

} // namespace

BatchedAdvice::~BatchedAdvice() {
  flush();
}

int BatchedAdvice::flush() {
  if (count_ == 0) return 0;
  const std::size_t done = g_batches_work ? advise_batch(pending_.data(), count_, advice_) : 0;
  int error = 0;
  for (std::size_t i = done; i < count_; ++i)
    if (madvise(pending_[i].iov_base, pending_[i].iov_len, advice_) != 0 && error == 0)
      error = errno;
  count_ = 0;
  return error;
}

} // namespace mpilite
