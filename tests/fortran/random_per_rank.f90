! A Monte Carlo code's generator: each rank seeds RANDOM_NUMBER from its rank with RANDOM_SEED
! and draws between MPI calls (other ranks draw and seed meanwhile); a rank that asks for no
! seed draws its own stream too. Prints, per rank, its draws and what RANDOM_SEED(GET=) gives
! back, which a native process with the same seed prints.
program random_per_rank
  use mpi
  implicit none
  integer :: ierr, rank, n, i
  integer, allocatable :: seed(:), got(:)
  real(8) :: x(3), y
  real(4) :: z

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call random_seed(size=n)
  allocate (seed(n), got(n))
  do i = 1, n
    seed(i) = 1000*rank + 37*i
  end do
  if (rank /= 3) call random_seed(put=seed)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call random_number(x)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call random_number(y)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call random_number(z)
  if (rank /= 3) then
    print '(A,I0,A,3F12.9,A,F12.9,A,F10.7)', 'rnd: rank ', rank, ' draws', x, ' then', y, &
      ' then', z
    call random_seed(put=seed)
    call random_seed(get=got)
    print '(A,I0,A,L1)', 'rnd: rank ', rank, ' seed read back ', all(got == seed)
  end if
  if (rank == 3) print '(A,L1)', 'rnd: unseeded rank draws in [0,1) ', all(x >= 0 .and. x < 1)
  deallocate (seed, got)
  call MPI_Finalize(ierr)
end program
