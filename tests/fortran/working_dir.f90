! Each rank moves into a directory of its own with gfortran's CHDIR, as ensemble codes do, and
! writes and reads a file there by a relative name while the other ranks run in theirs. The
! argument tags the directories (fcwd_<tag>_r<rank>), so that runs side by side do not meet.
program working_dir
  use mpi
  use iso_c_binding
  implicit none
  interface
    integer(c_int) function c_mkdir(path, mode) bind(c, name='mkdir')
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
    end function
    integer(c_int) function c_rmdir(path) bind(c, name='rmdir')
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: path(*)
    end function
  end interface
  integer :: ierr, rank, st, v, total
  character(len=16) :: tag
  character(len=64) :: d
  character(len=512) :: here

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, tag)
  write (d, '(A,A,A,I0)') 'fcwd_', trim(tag), '_r', rank
  st = c_mkdir(trim(d)//c_null_char, int(o'700', c_int))
  call chdir(trim(d), st)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  open (10, file='value.txt', status='replace')
  write (10, *) rank*3 + 1
  close (10)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call getcwd(here)
  open (10, file='value.txt', status='old')
  read (10, *) v
  close (10, status='delete')
  call MPI_Reduce(v, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  print '(A,I0,A,A,A,I0)', 'fcwd: rank ', rank, ' in ', trim(here(index(here, '/', .true.) + 1:)), &
    ' read ', v
  call chdir('..', st)
  st = c_rmdir(trim(d)//c_null_char)
  if (rank == 0) print '(A,I0)', 'fcwd: sum ', total
  call MPI_Finalize(ierr)
end program
