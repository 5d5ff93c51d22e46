! The standard input is rank 0's: rank 0 reads numbers with READ(*,*) to the end and broadcasts
! their sum ('bcast'); with 'other', rank 1 reads it too, which under mpiexec waits forever.
program stdin_rank0
  use mpi
  implicit none
  integer :: ierr, rank, n, total, ios
  character(len=16) :: mode
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, mode)
  total = 0
  if (rank == 0) then
    do
      read (*, *, iostat=ios) n
      if (ios /= 0) exit
      total = total + n
    end do
  end if
  if (rank == 1 .and. mode == 'other') read (*, *) n
  call MPI_Bcast(total, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,i0)', 'fstdin: rank ', rank, ' sum ', total
  call MPI_Finalize(ierr)
end program
