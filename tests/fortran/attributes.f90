! Attribute caching from Fortran: keyvals whose copy and delete callbacks are Fortran
! subroutines, and the predefined MPI_*_DUP_FN / MPI_*_NULL_COPY_FN / MPI_*_NULL_DELETE_FN, on
! communicators, datatypes and windows, and MPI-1's MPI_KEYVAL_CREATE with INTEGER values.
! The copy callback adds its extra state to the value; the delete callback records what it
! deletes. The expected values are stated in tests/CMakeLists.txt.
module attr_log
  implicit none
  integer :: deletes = 0
  integer(kind=8) :: deleted_sum = 0
end module attr_log

subroutine add_copy(old, keyval, extra, val_in, val_out, flag, ierr)
  use mpi
  implicit none
  integer :: old, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
  logical :: flag
  val_out = val_in + extra
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine add_copy

subroutine log_delete(obj, keyval, val, extra, ierr)
  use mpi
  use attr_log
  implicit none
  integer :: obj, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  deletes = deletes + 1
  deleted_sum = deleted_sum + val
  ierr = MPI_SUCCESS
end subroutine log_delete

subroutine old_copy(old, keyval, extra, val_in, val_out, flag, ierr)
  implicit none
  integer :: old, keyval, extra, val_in, val_out, ierr
  logical :: flag
  val_out = val_in * extra
  flag = .true.
  ierr = 0
end subroutine old_copy

program attributes
  use mpi
  use attr_log
  implicit none
  external :: add_copy, log_delete, old_copy
  integer :: ierr, me, kadd, kdup, knull, ktype, kwin, kold, comm2, t1, t2, win, ival
  integer(kind=MPI_ADDRESS_KIND) :: extra, val, got, wsize
  logical :: flag
  integer :: buf(4)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)

  ! Communicators: a Fortran copy callback, MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN.
  extra = 1000
  call mpi_comm_create_keyval(add_copy, log_delete, kadd, extra, ierr)
  call mpi_comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kdup, extra, ierr)
  call mpi_comm_create_keyval(MPI_COMM_NULL_COPY_FN, log_delete, knull, extra, ierr)
  val = 7 + me
  call mpi_comm_set_attr(MPI_COMM_WORLD, kadd, val, ierr)
  val = 2_MPI_ADDRESS_KIND**40 + me
  call mpi_comm_set_attr(MPI_COMM_WORLD, kdup, val, ierr)
  val = 5
  call mpi_comm_set_attr(MPI_COMM_WORLD, knull, val, ierr)
  call mpi_comm_dup(MPI_COMM_WORLD, comm2, ierr)
  call mpi_comm_get_attr(comm2, kadd, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: comm copied by callback ', flag, got
  call mpi_comm_get_attr(comm2, kdup, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: comm copied by MPI_COMM_DUP_FN ', flag, got
  call mpi_comm_get_attr(comm2, knull, got, flag, ierr)
  if (me == 1) print '(a, l1)', 'fattr: comm copied by MPI_COMM_NULL_COPY_FN ', flag
  call mpi_comm_free(comm2, ierr)
  if (me == 1) print '(a, i0, 1x, i0)', 'fattr: deleted with the dup ', deletes, deleted_sum
  call mpi_comm_delete_attr(MPI_COMM_WORLD, kadd, ierr)
  call mpi_comm_delete_attr(MPI_COMM_WORLD, knull, ierr)
  call mpi_comm_get_attr(MPI_COMM_WORLD, kadd, got, flag, ierr)
  if (me == 1) print '(a, i0, 1x, i0, 1x, l1)', 'fattr: deleted from world ', deletes, &
      deleted_sum, flag
  call mpi_comm_delete_attr(MPI_COMM_WORLD, kdup, ierr)
  call mpi_comm_free_keyval(kadd, ierr)
  call mpi_comm_free_keyval(kdup, ierr)
  call mpi_comm_free_keyval(knull, ierr)
  if (me == 1) print '(a, l1)', 'fattr: keyval freed ', kadd == MPI_KEYVAL_INVALID

  ! Datatypes: copied by MPI_TYPE_DUP, deleted by MPI_TYPE_FREE.
  deletes = 0
  deleted_sum = 0
  extra = 10
  call mpi_type_contiguous(2, MPI_INTEGER, t1, ierr)
  call mpi_type_create_keyval(add_copy, log_delete, ktype, extra, ierr)
  val = 30
  call mpi_type_set_attr(t1, ktype, val, ierr)
  call mpi_type_dup(t1, t2, ierr)
  call mpi_type_get_attr(t2, ktype, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: type copied by callback ', flag, got
  call mpi_type_free(t2, ierr)
  call mpi_type_delete_attr(t1, ktype, ierr)
  call mpi_type_get_attr(t1, ktype, got, flag, ierr)
  if (me == 1) print '(a, i0, 1x, i0, 1x, l1)', 'fattr: type deleted ', deletes, deleted_sum, flag
  call mpi_type_free(t1, ierr)
  call mpi_type_free_keyval(ktype, ierr)

  ! Windows: a value deleted by MPI_WIN_FREE, and the predefined attributes.
  deletes = 0
  deleted_sum = 0
  wsize = 16
  call mpi_win_create(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call mpi_win_create_keyval(MPI_WIN_DUP_FN, log_delete, kwin, extra, ierr)
  val = 40 + me
  call mpi_win_set_attr(win, kwin, val, ierr)
  call mpi_win_get_attr(win, kwin, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: win value ', flag, got
  call mpi_win_get_attr(win, MPI_WIN_SIZE, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: win size ', flag, got
  call mpi_win_get_attr(win, MPI_WIN_DISP_UNIT, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: win disp unit ', flag, got
  call mpi_win_get_attr(win, MPI_WIN_CREATE_FLAVOR, got, flag, ierr)
  if (me == 1) print '(a, l1, 1x, l1)', 'fattr: win flavor create ', flag, &
      got == MPI_WIN_FLAVOR_CREATE
  call mpi_win_free(win, ierr)
  if (me == 1) print '(a, i0, 1x, i0)', 'fattr: win deleted ', deletes, deleted_sum
  call mpi_win_free_keyval(kwin, ierr)

  ! MPI-1: INTEGER values and extra state.
  call mpi_keyval_create(old_copy, MPI_NULL_DELETE_FN, kold, 3, ierr)
  call mpi_attr_put(MPI_COMM_WORLD, kold, 11 + me, ierr)
  call mpi_comm_dup(MPI_COMM_WORLD, comm2, ierr)
  call mpi_attr_get(comm2, kold, ival, flag, ierr)
  if (me == 1) print '(a, l1, 1x, i0)', 'fattr: MPI-1 copy ', flag, ival
  call mpi_attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  if (me == 1) print '(a, l1, 1x, l1)', 'fattr: MPI-1 tag_ub ', flag, ival >= 32767
  call mpi_comm_free(comm2, ierr)
  call mpi_attr_delete(MPI_COMM_WORLD, kold, ierr)
  call mpi_keyval_free(kold, ierr)
  call mpi_finalize(ierr)
end program attributes
