! Which request of an array completed, as a Fortran code uses the answer: MPI_WAITANY,
! MPI_WAITSOME, MPI_TESTANY and MPI_TESTSOME give indices counted from 1, and the code reads
! the matching buffer and tag with them. Rank 1 sends rank 0 tags 3, 2, 4, 1 in that order, each
! received into the element of an array of four requests whose position is the tag.
program request_indices
  use mpi
  implicit none
  integer :: ierr, rank, idx, outc, i, tag
  integer :: reqs(4), idxs(4), stats(MPI_STATUS_SIZE, 4), st(MPI_STATUS_SIZE), bufs(4)
  integer, parameter :: order(4) = [3, 2, 4, 1]
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
    reqs = MPI_REQUEST_NULL
    bufs = -1
    call MPI_Irecv(bufs(3), 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Waitany(4, reqs, idx, st, ierr)
    print '(A,I0,A,I0,A,I0)', 'idx: waitany ', idx, ' tag ', st(MPI_TAG), ' buffer ', bufs(idx)
    call MPI_Irecv(bufs(2), 1, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Waitsome(4, reqs, outc, idxs, stats, ierr)
    print '(A,I0,A,I0,A,I0)', 'idx: waitsome ', outc, ' first ', idxs(1), ' buffer ', &
      bufs(idxs(1))
    call MPI_Irecv(bufs(4), 1, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, reqs(4), ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Testany(4, reqs, idx, flag, st, ierr)
    end do
    print '(A,I0,A,I0)', 'idx: testany ', idx, ' buffer ', bufs(idx)
    call MPI_Irecv(bufs(1), 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, reqs(1), ierr)
    outc = 0
    do while (outc == 0)
      call MPI_Testsome(4, reqs, outc, idxs, stats, ierr)
    end do
    print '(A,I0,A,I0,A,I0)', 'idx: testsome ', outc, ' first ', idxs(1), ' tag ', &
      stats(MPI_TAG, 1)
  else if (rank == 1) then
    do i = 1, 4
      tag = order(i)
      call MPI_Send(tag*10, 1, MPI_INTEGER, 0, tag, MPI_COMM_WORLD, ierr)
    end do
  end if
  call MPI_Finalize(ierr)
end program
