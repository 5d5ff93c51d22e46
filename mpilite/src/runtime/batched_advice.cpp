#include "batched_advice.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace mpilite {
namespace {

/// Whether process_madvise() may work here: cleared when the call itself is missing or not
/// allowed (ENOSYS before Linux 5.10, EPERM under a seccomp filter). Kernels from 5.10 to 6.12
/// refuse most advice with EINVAL, as they do an invalid range: each batch then costs one more
/// call before madvise() goes range by range.
bool g_batches_work = true;

/// Advises `ranges` through process_madvise() and removes those it advised; what a failed call
/// leaves is for madvise() to do and report.
void advise_batch(std::vector<iovec>& ranges, int advice) {
#if defined(SYS_process_madvise) && defined(SYS_pidfd_open)
  const int self = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
  if (self < 0) {
    g_batches_work = false;
    return;
  }
  std::size_t done = 0;
  bool ok = true;
  while (ok && done < ranges.size()) {
    const long bytes =
        syscall(SYS_process_madvise, self, ranges.data() + done, ranges.size() - done, advice, 0);
    if (bytes <= 0) {
      if (bytes < 0 && (errno == ENOSYS || errno == EPERM)) g_batches_work = false;
      ok = false;
      break;
    }
    // A partial call advised whole ranges from the first on, as many as the bytes cover.
    auto left = static_cast<std::size_t>(bytes);
    while (done < ranges.size() && left >= ranges[done].iov_len)
      left -= ranges[done++].iov_len;
    if (left > 0) ok = false; // mid-range: let madvise() redo from that range
  }
  close(self);
  ranges.erase(ranges.begin(), ranges.begin() + static_cast<long>(done));
#else
  (void)ranges;
  (void)advice;
#endif
}

} // namespace

BatchedAdvice::~BatchedAdvice() {
  flush();
}

int BatchedAdvice::flush() {
  if (pending_.empty()) return 0;
  if (g_batches_work) advise_batch(pending_, advice_);
  int error = 0;
  for (const iovec& r : pending_)
    if (madvise(r.iov_base, r.iov_len, advice_) != 0 && error == 0) error = errno;
  pending_.clear();
  return error;
}

} // namespace mpilite
