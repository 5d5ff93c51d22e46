! Memory folding from Fortran (the mpisim module): every rank folds 128 MiB (one site's whole ring
! of pages, so all ranks' arrays are the same pages), writes the first element of each page of its
! first MiB, and rank 1 sees the value rank 0 wrote last.
program folding
  use, intrinsic :: iso_c_binding
  use mpi
  use mpisim
  implicit none
  integer, parameter :: n = 16 * 1024 * 1024
  real(8), pointer :: a(:)
  integer :: ierr, me, i
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call c_f_pointer(mpisim_shared_malloc(int(8, c_size_t) * n), a, [n])
  do i = 1, 131072, 512
    a(i) = me
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (me == 0) a(1) = 42
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (me == 1) print '(a,f0.1)', 'ffold: rank 1 sees ', a(1)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call mpisim_shared_free(c_loc(a))
  call MPI_Finalize(ierr)
end program folding
