! Memory MPI gives a Fortran program: its address is an INTEGER(KIND=MPI_ADDRESS_KIND) that
! C_F_POINTER turns into an array, as MPICH users write it. MPI_ALLOC_MEM / MPI_FREE_MEM, a window
! from MPI_WIN_ALLOCATE that the left neighbour puts into, MPI_WIN_ALLOCATE_SHARED with
! MPI_WIN_SHARED_QUERY, and MPI_BUFFER_DETACH. The expected values are stated in
! tests/CMakeLists.txt.
program memory
  use mpi
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: ierr, me, np, win, shwin, right, i, unit, bsize
  integer(kind=MPI_ADDRESS_KIND) :: bytes, base, attr, qsize, disp
  logical :: flag
  type(c_ptr) :: p
  integer, pointer :: mem(:), cells(:), shared(:)
  integer :: one(4)
  character, allocatable :: attached(:)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)

  bytes = 40
  call mpi_alloc_mem(bytes, MPI_INFO_NULL, base, ierr)
  p = transfer(base, p)
  call c_f_pointer(p, mem, [10])
  mem = [(i * me, i = 1, 10)]
  if (me == 1) print '(a, i0, a, l1)', 'fmem: alloc_mem sum ', sum(mem), ' ierr ', ierr == 0
  call mpi_free_mem(mem, ierr)
  if (me == 1) print '(a, l1)', 'fmem: free_mem ', ierr == MPI_SUCCESS

  bytes = 16
  call mpi_win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  p = transfer(base, p)
  call c_f_pointer(p, cells, [4])
  call mpi_win_get_attr(win, MPI_WIN_BASE, attr, flag, ierr)
  if (me == 1) print '(a, l1, 1x, l1)', 'fmem: win base attribute ', flag, attr == base
  call mpi_win_fence(0, win, ierr)
  one = [100 * me + 1, 100 * me + 2, 100 * me + 3, 100 * me + 4]
  disp = 0
  call mpi_put(one, 4, MPI_INTEGER, right, disp, 4, MPI_INTEGER, win, ierr)
  call mpi_win_fence(0, win, ierr)
  print '(a, i0, a, 4(1x, i0))', 'fmem: rank ', me, ' window', cells
  call mpi_win_free(win, ierr)

  bytes = 8
  call mpi_win_allocate_shared(bytes, 4, MPI_INFO_NULL, MPI_COMM_SELF, base, shwin, ierr)
  p = transfer(base, p)
  call c_f_pointer(p, shared, [2])
  shared = [7, me]
  call mpi_win_shared_query(shwin, 0, qsize, unit, base, ierr)
  p = transfer(base, p)
  call c_f_pointer(p, cells, [2])
  if (me == 1) print '(a, i0, 1x, i0, 2(1x, i0))', 'fmem: shared query ', qsize, unit, cells
  call mpi_win_free(shwin, ierr)

  allocate(attached(1000 + MPI_BSEND_OVERHEAD))
  call mpi_buffer_attach(attached, size(attached), ierr)
  call mpi_buffer_detach(attached, bsize, ierr)
  if (me == 1) print '(a, l1)', 'fmem: buffer detached size ', bsize == size(attached)
  deallocate(attached)
  call mpi_finalize(ierr)
end program memory
