/*
 * mpisim.h: extensions of mpisim for target programs (include after or instead of mpi.h).
 */
#ifndef MPISIM_MPISIM_H
#define MPISIM_MPISIM_H

#include <stddef.h>

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Charges `seconds` of target compute time to the calling rank's clock, as if it had computed that
   long. With MPISIM_CPU=off this is the only source of compute time. */
void MPISIM_Compute(double seconds) __asm__("mpisim_MPISIM_Compute");

/* The calling rank's simulated clock in picoseconds (MPI_Wtime in exact integer form). */
long long MPISIM_Clock_ps(void) __asm__("mpisim_MPISIM_Clock_ps");

/* ---- Memory folding (docs/large-scale.md) ----
   A block from MPISIM_SHARED_MALLOC shares its physical pages with the blocks of every other rank
   (of this host process) allocated at the same call site, and its pages repeat every few MiB:
   a rank's 1 GiB array costs a few MiB. Its CONTENTS ARE GARBAGE: other ranks write the same
   pages. Use it only for data whose values the program's control flow and communication sizes
   do not depend on. The block is page-aligned and is not zeroed. Free it with
   MPISIM_SHARED_FREE (or free()). Returns NULL (with a message on stderr) when the host
   process runs out of address space or memory mappings. */
void* MPISIM_Shared_malloc(size_t bytes, const char* file,
                           int line) __asm__("mpisim_MPISIM_Shared_malloc");
void MPISIM_Shared_free(void* ptr) __asm__("mpisim_MPISIM_Shared_free");
#define MPISIM_SHARED_MALLOC(bytes) MPISIM_Shared_malloc((bytes), __FILE__, __LINE__)
#define MPISIM_SHARED_FREE(ptr) MPISIM_Shared_free(ptr)

/* ---- Compute sampling (docs/large-scale.md) ----
   MPISIM_SAMPLE_LOCAL(iterations, threshold) { body }  runs `body`, measuring the simulated time
   it takes (measured CPU time and MPISIM_Compute charges), until this rank has taken
   `iterations` samples at this call site, or at least 2 samples whose relative standard
   deviation (stddev / mean) is below `threshold`. From then on the body is skipped and the mean
   of the samples is charged to the rank's clock instead. MPISIM_SAMPLE_GLOBAL does the same with
   one set of samples shared by all ranks of the host process (fewer executions; exact on every
   host count only when the body costs the same on every rank: see docs/large-scale.md).
   MPISIM_SAMPLING=off runs every body (and still records its samples for the report).
   The body must not leave the block with break, goto or return (that sample is lost), and must
   not depend on having run: results computed in a skipped body are not computed. */
int MPISIM_Sample_begin(const char* file, int line, int global, int iterations,
                        double threshold) __asm__("mpisim_MPISIM_Sample_begin");
int MPISIM_Sample_end(const char* file, int line) __asm__("mpisim_MPISIM_Sample_end");
/* Both forms: a loop that runs its body once when Sample_begin says so (and ends the sample). */
#define MPISIM_SAMPLE_BLOCK_(global, iterations, threshold)                                        \
  for (int mpisim_sample_run_ =                                                                    \
           MPISIM_Sample_begin(__FILE__, __LINE__, (global), (iterations), (threshold));           \
       mpisim_sample_run_; mpisim_sample_run_ = MPISIM_Sample_end(__FILE__, __LINE__))
#define MPISIM_SAMPLE_LOCAL(iterations, threshold) MPISIM_SAMPLE_BLOCK_(0, iterations, threshold)
#define MPISIM_SAMPLE_GLOBAL(iterations, threshold) MPISIM_SAMPLE_BLOCK_(1, iterations, threshold)

/* 1 when the program runs under mpisim (always, for programs built against this header). */
#define MPISIM 1

#ifdef __cplusplus
}
#endif

#endif /* MPISIM_MPISIM_H */
