c     Three files share COMMON /FIELD/ and include mpif.h (which defines COMMON /MPISIMF1/ in
c     each): the f2c route must build and run them as mpif77 does. Each rank fills its field
c     (common3_fill.f) and sums it over the ranks (common3_sum.f).
      program common3
      implicit none
      include 'mpif.h'
      integer n
      double precision x(10)
      common /field/ x, n
      integer me, np, ierr
      double precision total
      call mpi_init(ierr)
      call mpi_comm_rank(mpi_comm_world, me, ierr)
      call mpi_comm_size(mpi_comm_world, np, ierr)
      call fill(me)
      call sumall(total)
      if (me .eq. 0) write (*, '(a, i3, a, i3, a, f10.1)')
     &    'common3: ranks', np, ' n', n, ' total', total
      call mpi_finalize(ierr)
      end
