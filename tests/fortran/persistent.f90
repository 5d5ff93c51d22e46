! MPI-4.0 persistent collectives and partitioned communication from Fortran: a broadcast and an
! allreduce started three times with new data, and a ring of partitioned sends (2 partitions of
! 3 integers) marked ready with MPI_PREADY_RANGE and polled with MPI_PARRIVED.
program persistent
  use mpi
  implicit none
  integer :: ierr, me, np, round, req(2), preq(2), buf(4), total, mine
  integer :: out(6), in(6), flag, part, arrived
  integer(kind=MPI_COUNT_KIND) :: three
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call MPI_BCAST_INIT(buf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, MPI_INFO_NULL, req(1), ierr)
  call MPI_ALLREDUCE_INIT(mine, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                          MPI_INFO_NULL, req(2), ierr)
  three = 3
  call MPI_PSEND_INIT(out, 2, three, MPI_INTEGER, mod(me + 1, np), 5, MPI_COMM_WORLD, &
                      MPI_INFO_NULL, preq(1), ierr)
  call MPI_PRECV_INIT(in, 2, three, MPI_INTEGER, mod(me + np - 1, np), 5, MPI_COMM_WORLD, &
                      MPI_INFO_NULL, preq(2), ierr)
  arrived = 0
  do round = 1, 3
    if (me == 0) buf = (/ round, 2 * round, 3 * round, 4 * round /)
    mine = me * round
    call MPI_STARTALL(2, req, ierr)
    call MPI_WAITALL(2, req, MPI_STATUSES_IGNORE, ierr)
    out = (/ (100 * me + 10 * round + part, part = 1, 6) /)
    call MPI_STARTALL(2, preq, ierr)
    call MPI_PREADY_RANGE(0, 1, preq(1), ierr)
    do part = 0, 1
      flag = 0
      do while (flag == 0)
        call MPI_PARRIVED(preq(2), part, flag, ierr)
      end do
      arrived = arrived + 1
    end do
    call MPI_WAITALL(2, preq, MPI_STATUSES_IGNORE, ierr)
    write (*, '(a,i2,a,i2,a,4i3,a,i4,a,6i5)') 'fpers: rank', me, ' round', round, ' bcast', &
      buf, ' sum', total, ' from left', in
  end do
  call MPI_REQUEST_FREE(req(1), ierr)
  call MPI_REQUEST_FREE(req(2), ierr)
  call MPI_REQUEST_FREE(preq(1), ierr)
  call MPI_REQUEST_FREE(preq(2), ierr)
  if (me == 0) write (*, '(a,i3,a,l2)') 'fpers: partitions arrived', arrived, &
    ' freed', req(1) == MPI_REQUEST_NULL
  call MPI_FINALIZE(ierr)
end program persistent
