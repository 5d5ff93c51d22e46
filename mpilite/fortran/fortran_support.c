/* Fortran's special addresses and the helpers of the bindings.
 *
 * mpif.h puts MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... in common blocks. gfortran
 * programs (linked into the host executable, or loaded as a shared object that takes these
 * definitions from the executable) pass the addresses defined here. A program converted by f2c
 * and privatized by mpisimcc has per-rank copies of the blocks instead; the privatizer then
 * exports each block's offset in the rank's segment (__mpisim_off_<block>), and the address of
 * the current rank's copy is recognised too. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fortran_support.h"

/* The blocks as gfortran and f2c name them (lowercase, one trailing underscore). */
MPI_Fint mpisimf1_;    /* MPI_BOTTOM */
MPI_Fint mpisimf2_;    /* MPI_IN_PLACE */
MPI_Fint mpisimf3_[5]; /* MPI_STATUS_IGNORE */
MPI_Fint mpisimf4_[5]; /* MPI_STATUSES_IGNORE */
MPI_Fint mpisimf5_;    /* MPI_ERRCODES_IGNORE */
MPI_Fint mpisimf6_;    /* MPI_UNWEIGHTED */
MPI_Fint mpisimf7_;    /* MPI_WEIGHTS_EMPTY */

extern size_t __mpisim_off_mpisimf1_ __attribute__((weak));
extern size_t __mpisim_off_mpisimf2_ __attribute__((weak));
extern size_t __mpisim_off_mpisimf3_ __attribute__((weak));
extern size_t __mpisim_off_mpisimf4_ __attribute__((weak));
extern size_t __mpisim_off_mpisimf5_ __attribute__((weak));
extern size_t __mpisim_off_mpisimf6_ __attribute__((weak));
extern size_t __mpisim_off_mpisimf7_ __attribute__((weak));
extern char* mpisim_priv_base;

/* Whether `p` is the block `shared` or the current rank's privatized copy of it. */
static int is_block(const void* p, const void* shared, const size_t* privatized_offset) {
  if (p == shared) return 1;
  return privatized_offset && mpisim_priv_base && p == mpisim_priv_base + *privatized_offset;
}

void* mpisim_f_buffer(void* f) {
  if (is_block(f, &mpisimf1_, &__mpisim_off_mpisimf1_)) return MPI_BOTTOM;
  if (is_block(f, &mpisimf2_, &__mpisim_off_mpisimf2_)) return MPI_IN_PLACE;
  return f;
}

MPI_Status* mpisim_f_status(MPI_Fint* f) {
  if (is_block(f, mpisimf3_, &__mpisim_off_mpisimf3_)) return MPI_STATUS_IGNORE;
  if (is_block(f, mpisimf4_, &__mpisim_off_mpisimf4_)) return MPI_STATUSES_IGNORE;
  return (MPI_Status*)f;
}

int* mpisim_f_errcodes(MPI_Fint* f) {
  return is_block(f, &mpisimf5_, &__mpisim_off_mpisimf5_) ? MPI_ERRCODES_IGNORE : f;
}

int* mpisim_f_weights(MPI_Fint* f) {
  if (is_block(f, &mpisimf6_, &__mpisim_off_mpisimf6_)) return MPI_UNWEIGHTED;
  if (is_block(f, &mpisimf7_, &__mpisim_off_mpisimf7_)) return MPI_WEIGHTS_EMPTY;
  return f;
}

void mpisim_f_string_out(const char* c, char* f, unsigned len) {
  size_t n = strlen(c);
  if (n > len) n = len;
  memcpy(f, c, n);
  memset(f + n, ' ', len - n);
}

MPI_Aint* mpisim_f_aints(const MPI_Fint* f, MPI_Fint n) {
  MPI_Aint* c = malloc(sizeof(MPI_Aint) * (size_t)(n > 0 ? n : 1));
  if (!c) {
    fputs("mpisim: out of memory converting an INTEGER array of addresses\n", stderr);
    abort();
  }
  for (MPI_Fint i = 0; i < n; ++i)
    c[i] = f[i];
  return c;
}

const char* mpisim_f_string_in(const char* f, unsigned len, char* buf, unsigned size) {
  while (len > 0 && f[len - 1] == ' ')
    --len;
  while (len > 0 && f[0] == ' ') {
    ++f;
    --len;
  }
  if (len >= size) len = size - 1;
  memcpy(buf, f, len);
  buf[len] = '\0';
  return buf;
}

MPI_Aint mpisim_f_attribute(int keyval, void* value) {
  switch (keyval) {
  case MPI_TAG_UB:
  case MPI_HOST:
  case MPI_IO:
  case MPI_WTIME_IS_GLOBAL:
  case MPI_UNIVERSE_SIZE:
  case MPI_LASTUSEDCODE:
  case MPI_APPNUM:
  case MPI_WIN_DISP_UNIT:
  case MPI_WIN_CREATE_FLAVOR:
  case MPI_WIN_MODEL:
    return *(int*)value;
  case MPI_WIN_SIZE:
    return *(MPI_Aint*)value;
  default:
    return (MPI_Aint)value;
  }
}
