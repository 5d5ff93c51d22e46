! MPI-IO from Fortran: each rank writes its 4 doubles collectively at its own offset, then
! through a view of every rank's second half; rank 0 reads the file back. The expected values are
! stated in tests/CMakeLists.txt.
program file_io
  use mpi
  implicit none
  integer :: ierr, me, np, fh, i, stat(MPI_STATUS_SIZE), n, etype, ftype, amode, argstat
  integer(kind=MPI_OFFSET_KIND) :: offset, fsize, disp
  double precision :: mine(4), all(64), half(2)
  character(len=4096) :: path
  character(len=32) :: rep
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  call get_command_argument(1, path, status=argstat)
  if (argstat /= 0) then
    print '(a)', 'fio: usage: file_io PATH (at most 4096 characters)'
    call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  end if
  do i = 1, 4
    mine(i) = me * 10 + i
  end do
  amode = ior(MPI_MODE_CREATE, MPI_MODE_RDWR)
  call mpi_file_open(MPI_COMM_WORLD, trim(path), amode, MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) then
    print '(a, a)', 'fio: cannot open ', trim(path)
    call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  end if
  offset = me * 32
  call mpi_file_write_at_all(fh, offset, mine, 4, MPI_DOUBLE_PRECISION, stat, ierr)
  call mpi_get_count(stat, MPI_DOUBLE_PRECISION, n, ierr)
  ! A view of the second halves: 2 doubles of every 4, starting at this rank's.
  call mpi_type_vector(np, 2, 4, MPI_DOUBLE_PRECISION, ftype, ierr)
  call mpi_type_commit(ftype, ierr)
  disp = 16
  call mpi_file_set_view(fh, disp, MPI_DOUBLE_PRECISION, ftype, 'native', MPI_INFO_NULL, ierr)
  call mpi_file_get_view(fh, disp, etype, ftype, rep, ierr)
  call mpi_file_read_at(fh, int(me, MPI_OFFSET_KIND) * 2, half, 2, MPI_DOUBLE_PRECISION, &
                        stat, ierr)
  call mpi_file_get_size(fh, fsize, ierr)
  call mpi_file_close(fh, ierr)
  if (me == 0) then
    call mpi_file_open(MPI_COMM_SELF, trim(path), MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
    offset = 0
    call mpi_file_read_at(fh, offset, all, 4 * np, MPI_DOUBLE_PRECISION, stat, ierr)
    call mpi_file_close(fh, ierr)
    print '(a, i0, a, i0, a, f0.1)', 'fio: ranks ', np, ' size ', fsize, ' sum ', sum(all(1:4 * np))
    print '(a, a, a, l1)', 'fio: datarep ', trim(rep), ' closed ', fh == MPI_FILE_NULL
    call mpi_file_delete(trim(path), MPI_INFO_NULL, ierr)
  end if
  print '(a, i0, a, i0, a, 2f6.1)', 'fio: rank ', me, ' wrote ', n, ' view ', half
  call mpi_finalize(ierr)
end program file_io
