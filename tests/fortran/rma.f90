! One-sided communication from Fortran: each rank puts its rank into its right neighbour's window
! and adds it into rank 0's, between fences; then each takes a ticket from a counter on rank 0
! with mpi_fetch_and_op under an exclusive lock (passive target). The expected values are stated
! in tests/CMakeLists.txt.
program rma
  use mpi
  implicit none
  integer :: ierr, me, np, win, right, ctr, counter, ticket, total
  integer :: cell(2), one(2)
  integer(kind=MPI_ADDRESS_KIND) :: size, disp
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)
  cell = 0
  size = 8
  call mpi_win_create(cell, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call mpi_win_fence(0, win, ierr)
  one(1) = me
  one(2) = 1
  disp = 0
  call mpi_put(one, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  call mpi_win_fence(0, win, ierr)
  disp = 1
  call mpi_accumulate(one(1), 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call mpi_win_fence(0, win, ierr)
  call mpi_win_free(win, ierr)
  counter = 0
  size = 4
  call mpi_win_create(counter, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, ctr, ierr)
  disp = 0
  call mpi_win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, ctr, ierr)
  call mpi_fetch_and_op(one(2), ticket, MPI_INTEGER, 0, disp, MPI_SUM, ctr, ierr)
  call mpi_win_unlock(0, ctr, ierr)
  call mpi_reduce(ticket, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  if (me == 0) print '(a, i0, a, i0)', 'frma: tickets sum ', total, ' counter ', counter
  call mpi_win_free(ctr, ierr)
  print '(a, i0, a, i0, a, i0, a, l1)', 'frma: rank ', me, ' from left ', cell(1), &
        ' sum ', cell(2), ' freed ', win == MPI_WIN_NULL
  call mpi_finalize(ierr)
end program rma
