/*
 * mpisim.h: extensions of mpisim for target programs (include after or instead of mpi.h).
 */
#ifndef MPISIM_MPISIM_H
#define MPISIM_MPISIM_H

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Charges `seconds` of target compute time to the calling rank's clock, as if it had computed that
   long. With MPISIM_CPU=off this is the only source of compute time. */
void MPISIM_Compute(double seconds) __asm__("mpisim_MPISIM_Compute");

/* The calling rank's simulated clock in picoseconds (MPI_Wtime in exact integer form). */
long long MPISIM_Clock_ps(void) __asm__("mpisim_MPISIM_Clock_ps");

/* 1 when the program runs under mpisim (always, for programs built against this header). */
#define MPISIM 1

#ifdef __cplusplus
}
#endif

#endif /* MPISIM_MPISIM_H */
