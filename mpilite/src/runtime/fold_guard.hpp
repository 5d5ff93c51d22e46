// While the folded heap works (its tables allocate) the malloc interposer must not fold: a
// thread-local depth that both consult.
#pragma once

/// For the functions on the path of every malloc and free of the process: AddressSanitizer calls
/// malloc while it initializes, before its shadow memory exists, so that path must not be
/// instrumented (its allocations still go to the sanitizer's malloc, which checks them).
#define MPISIM_MALLOC_PATH __attribute__((no_sanitize("address", "undefined")))

namespace mpilite {

/// Nonzero while the calling thread is inside the folded heap or the malloc interposer's slow
/// path.
inline thread_local int g_fold_depth __attribute__((tls_model("initial-exec"))) = 0;

class FoldGuard {
public:
  FoldGuard() { ++g_fold_depth; }
  ~FoldGuard() { --g_fold_depth; }
  FoldGuard(const FoldGuard&) = delete;
  FoldGuard& operator=(const FoldGuard&) = delete;
};

} // namespace mpilite
