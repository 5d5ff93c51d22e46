/* What the Fortran bindings share: the conversion of Fortran's special addresses (MPI_BOTTOM,
 * MPI_IN_PLACE, MPI_STATUS_IGNORE, ...) to C's, and the aliases that give one binding the
 * names gfortran (mpi_send_) and f2c (mpi_send__) call, with their profiling forms. */
#ifndef MPISIM_FORTRAN_SUPPORT_H
#define MPISIM_FORTRAN_SUPPORT_H

#include <stdlib.h>

#include <mpi.h>

/** A choice buffer of a Fortran call: MPI_BOTTOM and MPI_IN_PLACE become C's; any other
 *  address is the buffer itself. */
void* mpisim_f_buffer(void* fortran);

/** A status or array of statuses of a Fortran call: MPI_STATUS(ES)_IGNORE become C's. */
MPI_Status* mpisim_f_status(MPI_Fint* fortran);

/** An array of error codes (MPI_ERRCODES_IGNORE becomes C's). */
int* mpisim_f_errcodes(MPI_Fint* fortran);

/** An array of edge weights (MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become C's). */
int* mpisim_f_weights(MPI_Fint* fortran);

/** A malloc'd copy as MPI_Aint of `n` INTEGERs (addresses of MPI-1's INTEGER forms): at least
 *  one element, so that n = 0 is no null pointer. */
MPI_Aint* mpisim_f_aints(const MPI_Fint* fortran, MPI_Fint n);

/** Copies the C string `c` into the Fortran CHARACTER `f` of length `len`, blank padded. */
void mpisim_f_string_out(const char* c, char* f, unsigned len);

/** A C copy of the Fortran CHARACTER `f` of length `len` without its leading and trailing
 *  blanks (MPI strips both from keys, values and names passed from Fortran), in `buf` of `size`
 *  bytes (truncated to fit). */
const char* mpisim_f_string_in(const char* f, unsigned len, char* buf, unsigned size);

/** The INTEGER(KIND=MPI_ADDRESS_KIND) a Fortran program reads for attribute `keyval` whose C
 *  value is `value`: the value itself for attributes a program sets (MPI-3.1 17.2.7) and for
 *  MPI_WIN_BASE, the integer pointed to for the other predefined attributes. */
MPI_Aint mpisim_f_attribute(int keyval, void* value);

#define MPISIM_F_ALIAS(ret, name, target, params) ret name params __attribute__((alias(#target)));

/* A subroutine's binding name_ under its other three names. */
#define MPISIM_F_NAMES(name, params)                                                               \
  MPISIM_F_ALIAS(void, p##name##_, name##_, params)                                                \
  MPISIM_F_ALIAS(void, name##__, name##_, params)                                                  \
  MPISIM_F_ALIAS(void, p##name##__, name##_, params)

#endif
