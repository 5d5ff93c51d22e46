c     A BOZ constant written X'...' outside DATA, as in NPB's randi8.f: mpif77 (gfortran with
c     -fallow-invalid-boz) accepts it, so mpisimfort and mpisimf77 must too.
      program boz
      implicit none
      include 'mpif.h'
      integer*8 i246m1
      parameter (i246m1 = X'003FFFFFFFFFFFFF')
      integer ierr, me
      call mpi_init(ierr)
      call mpi_comm_rank(mpi_comm_world, me, ierr)
      if (me .eq. 0) write (*, '(a, i20)') 'boz: ', i246m1
      call mpi_finalize(ierr)
      end
