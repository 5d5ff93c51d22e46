! Per-rank output files on one unit number, as Fortran codes write their logs and checkpoints:
! every rank opens unit 10 on a file of its own, and writes to it, flushes it and reads it back
! across MPI calls (the other ranks' OPENs and WRITEs come in between), and asks INQUIRE about
! it. Rank 0 then reads every rank's file. The argument tags the files (fu_<tag>_<rank>.txt), so
! that runs side by side do not meet.
program units_per_rank
  use mpi
  implicit none
  integer :: ierr, rank, size, r, lines, v
  character(len=16) :: tag
  character(len=64) :: fname
  logical :: opened
  character(len=80) :: line

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call get_command_argument(1, tag)
  write (fname, '(A,A,A,I0,A)') 'fu_', trim(tag), '_', rank, '.txt'
  open (10, file=trim(fname), status='replace')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  write (10, '(A,I0)') 'first line of rank ', rank
  call flush(10)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  write (10, '(A,I0)') 'second line of rank ', rank
  inquire (unit=10, opened=opened, name=line)
  close (10)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  print '(A,I0,A,L1,A,A)', 'fu: rank ', rank, ' unit 10 open ', opened, ' on ', &
    trim(line(index(line, '/', .true.) + 1:))
  if (rank == 0) then
    do r = 0, size - 1
      write (fname, '(A,A,A,I0,A)') 'fu_', trim(tag), '_', r, '.txt'
      open (11, file=trim(fname), status='old')
      lines = 0
      v = 0
      do
        read (11, '(A)', end=1) line
        lines = lines + 1
        if (index(line, 'rank ') > 0) read (line(index(line, 'rank ') + 5:), *) v
        if (v /= r) lines = -100
      end do
1     close (11, status='delete')
      print '(A,I0,A,I0,A)', 'fu: file of rank ', r, ' has ', lines, ' lines of its own'
    end do
  end if
  call MPI_Finalize(ierr)
end program
