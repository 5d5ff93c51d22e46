c     Part of common3_main.f: sums COMMON /FIELD/ of every rank.
      subroutine sumall(total)
      implicit none
      include 'mpif.h'
      double precision total, mine
      integer n, i, ierr
      double precision x(10)
      common /field/ x, n
      mine = 0.0d0
      do 10 i = 1, n
        mine = mine + x(i)
   10 continue
      call mpi_allreduce(mine, total, 1, mpi_double_precision, mpi_sum,
     &                   mpi_comm_world, ierr)
      end
