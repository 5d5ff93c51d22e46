// Each rank's heap behaves as a fresh process's: memory new to the rank reads as zero.
#pragma once

namespace mpisim {

/// Makes malloc return zeroed blocks (and fill freed ones), so that a program which reads a
/// block before writing it (a latent bug that a fresh process's zero pages hide) sees zeros, not
/// another rank's freed data. glibc's tcache returns blocks untouched, so it is turned off through
/// GLIBC_TUNABLES, which glibc reads only at start-up: unless it is set, this re-executes the
/// process (its own arguments, through /proc/self/exe) with it set, before MPI or any rank has
/// started.
void make_heap_fresh();

} // namespace mpisim
