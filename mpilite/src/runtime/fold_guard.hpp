// While the folded heap works (its tables allocate) the malloc interposer must not fold: a
// thread-local depth that both consult.
#pragma once

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
