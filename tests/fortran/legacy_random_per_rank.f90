! gfortran's legacy generator (the GNU extensions SRAND, RAND and IRAND) is each rank's: seeded
! from the rank, its draws after MPI calls are the native sequence of that seed, and a rank
! that never seeds draws the sequence of seed 1, as a new process does.
program legacy_random
  use mpi
  implicit none
  integer :: ierr, rank, k
  real :: first, second
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  if (rank /= 3) call srand(100 + rank)
  first = rand()
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  second = rand()
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  k = irand()
  print '(a,i0,a,2f12.8,a,i0)', 'lr: rank ', rank, ' rand ', first, second, ' irand ', k
  call MPI_FINALIZE(ierr)
end program
