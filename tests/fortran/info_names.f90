! Info objects, names, error strings and data representations from Fortran: CHARACTER
! arguments in (trailing blanks are not part of the string) and out (blank padded). The
! expected values are stated in tests/CMakeLists.txt.
program info_names
  use mpi
  implicit none
  integer :: ierr, me, info, dup, nkeys, valuelen, buflen, t, win, resultlen, i
  logical :: flag
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=40) :: value
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer :: buf(2)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, packed
  integer :: eclass, fh
  logical :: exists
  character(len=MPI_MAX_ERROR_STRING) :: text

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)

  call mpi_info_create(info, ierr)
  call mpi_info_set(info, 'color', 'blue   ', ierr)
  call mpi_info_set(info, 'shape   ', 'a rather long value', ierr)
  call mpi_info_set(info, 'gone', 'soon', ierr)
  call mpi_info_delete(info, 'gone', ierr)
  call mpi_info_get_nkeys(info, nkeys, ierr)
  call mpi_info_get_valuelen(info, 'shape', valuelen, flag, ierr)
  if (me == 0) print '(a, i0, a, l1, 1x, i0)', 'finfo: keys ', nkeys, ' shape length ', flag, &
      valuelen
  call mpi_info_dup(info, dup, ierr)
  do i = 0, nkeys - 1
    call mpi_info_get_nthkey(dup, i, key, ierr)
    call mpi_info_get(dup, key, len(value), value, flag, ierr)
    if (me == 0) print '(a, i0, 5a, l1)', 'finfo: key ', i, ' [', trim(key), '] = [', &
        trim(value), '] ', flag
  end do
  value = 'unchanged'
  call mpi_info_get(dup, 'gone', len(value), value, flag, ierr)
  if (me == 0) print '(3a, l1)', 'finfo: deleted key [', trim(value), '] ', flag
  buflen = len(value)
  call mpi_info_get_string(dup, 'color', buflen, value, flag, ierr)
  if (me == 0) print '(3a, l1, 1x, i0)', 'finfo: get_string [', trim(value), '] ', flag, buflen
  buflen = 8
  call mpi_info_get_string(dup, 'shape', buflen, value, flag, ierr)
  if (me == 0) print '(3a, i0)', 'finfo: get_string 8 [', trim(value), '] ', buflen
  buflen = 0
  value = 'unchanged'
  call mpi_info_get_string(dup, 'shape', buflen, value, flag, ierr)
  if (me == 0) print '(3a, i0)', 'finfo: get_string 0 [', trim(value), '] ', buflen
  call mpi_info_free(dup, ierr)
  ! Leading blanks go too, as in MPICH: a value written with an I format, a key and a file name
  ! indented.
  write (value, '(i8)') 4
  call mpi_info_set(info, '  cb_nodes', value, ierr)
  call mpi_info_get_valuelen(info, 'cb_nodes', valuelen, flag, ierr)
  call mpi_info_get(info, 'cb_nodes', len(value), value, flag, ierr)
  call mpi_file_open(MPI_COMM_SELF, '  f4.dat  ', MPI_MODE_CREATE + MPI_MODE_WRONLY, &
                     MPI_INFO_NULL, fh, ierr)
  call mpi_file_close(fh, ierr)
  inquire (file='f4.dat', exist=exists)
  if (me == 0) print '(3a, l1, 1x, i0, a, l1)', 'finfo: leading blanks [', trim(value), '] ', &
      flag, valuelen, ' file f4.dat ', exists
  call mpi_info_free(info, ierr)

  call mpi_type_contiguous(3, MPI_DOUBLE_PRECISION, t, ierr)
  call mpi_type_set_name(t, 'triple  ', ierr)
  name = 'x'
  call mpi_type_get_name(t, name, resultlen, ierr)
  if (me == 0) print '(3a, i0)', 'fname: type [', trim(name), '] ', resultlen
  call mpi_type_get_name(MPI_INTEGER, name, resultlen, ierr)
  if (me == 0) print '(3a, i0)', 'fname: predefined [', trim(name), '] ', resultlen
  call mpi_type_free(t, ierr)
  wsize = 8
  call mpi_win_create(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call mpi_win_set_name(win, 'my window', ierr)
  call mpi_win_get_name(win, name, resultlen, ierr)
  if (me == 0) print '(3a, i0, a, l1)', 'fname: win [', trim(name), '] ', resultlen, &
      ' padded ', name(10:) == ' '
  call mpi_win_free(win, ierr)
  call mpi_comm_set_name(MPI_COMM_WORLD, 'everyone', ierr)
  call mpi_comm_get_name(MPI_COMM_WORLD, name, resultlen, ierr)
  if (me == 0) print '(3a, i0)', 'fname: comm [', trim(name), '] ', resultlen
  call mpi_add_error_class(eclass, ierr)
  call mpi_add_error_string(eclass, 'no more coffee  ', ierr)
  call mpi_error_string(eclass, text, resultlen, ierr)
  if (me == 0) print '(3a, i0)', 'fname: error string [', trim(text), '] ', resultlen
  call mpi_pack_external_size('external32', 3, MPI_INTEGER, packed, ierr)
  if (me == 0) print '(a, i0)', 'fname: external32 size of 3 integers ', packed
  call mpi_finalize(ierr)
end program info_names
