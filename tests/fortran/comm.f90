! Point-to-point, collectives and MPI_Wtime from Fortran. Rank 0 prints what every rank
! computed; the expected values are stated in tests/CMakeLists.txt.
program comm
  use mpi
  implicit none
  integer :: ierr, me, np, left, right, i, req(2), got, stat(MPI_STATUS_SIZE)
  integer :: stats(MPI_STATUS_SIZE, 2), src_tag(2)
  double precision :: x(4), sum(4), t0, t1, pair(2), best(2)
  double complex :: z, zsum
  integer, allocatable :: all(:)
  logical :: flag, allflag
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(me + 1, np)
  left = mod(me - 1 + np, np)
  t0 = mpi_wtime()
  ! ring: blocking send/recv with a status, then nonblocking with waitall
  if (me == 0) then
    call mpi_send(me, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
    call mpi_recv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, stat, ierr)
  else
    call mpi_recv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, stat, ierr)
    call mpi_send(me, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
  end if
  src_tag(1) = stat(MPI_SOURCE)
  src_tag(2) = stat(MPI_TAG)
  call mpi_irecv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, req(1), ierr)
  call mpi_isend(me, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, req(2), ierr)
  call mpi_waitall(2, req, stats, ierr)
  if (got /= left .or. stats(MPI_SOURCE, 1) /= left) print *, 'rank', me, 'bad irecv', got
  ! sendrecv with MPI_STATUS_IGNORE
  call mpi_sendrecv(me, 1, MPI_INTEGER, right, 3, got, 1, MPI_INTEGER, left, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  ! collectives
  do i = 1, 4
    x(i) = dble(me * i)
  end do
  call mpi_allreduce(x, sum, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mpi_allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  z = dcmplx(dble(me), 1d0)
  call mpi_reduce(z, zsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  pair(1) = dble(mod(me, 2))
  pair(2) = dble(me)
  call mpi_allreduce(pair, best, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  flag = me == 0
  call mpi_allreduce(flag, allflag, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  allocate(all(np))
  call mpi_gather(me * me, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call mpi_bcast(all, np, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  t1 = mpi_wtime()
  if (me == 0) then
    print '(a,2i3)', 'comm: ring from/tag', src_tag
    print '(a,4f6.0)', 'comm: sum', sum
    print '(a,4f6.0)', 'comm: max', x
    print '(a,2f6.0)', 'comm: zsum', dble(zsum), dimag(zsum)
    print '(a,2f6.0)', 'comm: maxloc', best
    print '(a,l2)', 'comm: lor', allflag
    print '(a,8i4)', 'comm: squares', all
    print '(a,l2)', 'comm: time advanced', t1 > t0
  end if
  deallocate(all) ! the sanitized build checks for leaks
  call mpi_finalize(ierr)
end program comm
