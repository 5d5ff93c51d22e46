! Compute sampling from Fortran (the mpisim module): ten bodies that charge 1, 2, 1, 2, ... ms.
! Usage: sampling local|global ITERATIONS THRESHOLD
program sampling
  use mpi
  use mpisim
  implicit none
  integer :: ierr, me, i, bodies, total, iterations
  character(len=16) :: kind, arg
  double precision :: threshold, t0, t
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call get_command_argument(1, kind)
  call get_command_argument(2, arg)
  read (arg, *) iterations
  call get_command_argument(3, arg)
  read (arg, *) threshold
  bodies = 0
  t0 = MPI_Wtime()
  do i = 1, 10
    if (kind == 'global') then
      do while (mpisim_sample_global(iterations, threshold))
        call body(i)
      end do
    else
      do while (mpisim_sample_local(iterations, threshold))
        call body(i)
      end do
    end if
  end do
  t = MPI_Wtime() - t0
  call MPI_Reduce(bodies, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) print '(a,i0,a,f0.6,a,i0)', 'fsample: rank 0 ran ', bodies, ' bodies in ', &
    t * 1d3, ' ms; all ranks ', total
  call MPI_Finalize(ierr)
contains
  subroutine body(i)
    integer, intent(in) :: i
    call mpisim_compute(1d-3 * (1 + mod(i - 1, 2)))
    bodies = bodies + 1
  end subroutine body
end program sampling
