! STOP in one rank ends that rank only, with STOP's code, as it ends one process of an MPI job:
! the other ranks go on and print.
program stopper
  use mpi
  implicit none
  integer :: ierr, me
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_finalize(ierr)
  if (me == 1) stop 3
  print '(a,i0)', 'stop: after finalize ', me
end program stopper
