// Each rank's heap behaves as a fresh process's: memory new to the rank reads as zero.
#pragma once

namespace mpisim {

/// Makes the blocks malloc and its relatives return read as zero (mpilite's zeroed_blocks.hpp),
/// so that a program which reads a block before writing it (a latent bug that a fresh
/// process's zero pages hide) sees zeros, not another rank's freed data.
void make_heap_fresh();

} // namespace mpisim
