! Per-rank state of a Fortran program: a COMMON block, a module variable and a SAVE'd local.
! Every rank stores its own rank in all three, lets the others do the same (barrier), then
! checks that it still sees its own values. Shared storage would show another rank's value.
module counters
  implicit none
  integer :: module_value = -1
end module counters

subroutine bump(me, count)
  implicit none
  integer, intent(in) :: me
  integer, intent(out) :: count
  integer, save :: calls = 0
  integer, save :: owner = -1
  if (owner == -1) owner = me
  calls = calls + 1
  count = calls
  if (owner /= me) count = -1000
end subroutine bump

program state
  use mpi
  use counters
  implicit none
  integer :: common_value
  common /shared/ common_value
  integer :: ierr, me, np, count, bad, total_bad
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  common_value = 100 + me
  module_value = 200 + me
  call bump(me, count)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call bump(me, count)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  bad = 0
  if (common_value /= 100 + me) bad = bad + 1
  if (module_value /= 200 + me) bad = bad + 1
  if (count /= 2) bad = bad + 1
  call mpi_reduce(bad, total_bad, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) print '(a,i0,a,i0)', 'state: ranks ', np, ' wrong values ', total_bad
  call mpi_finalize(ierr)
end program state
