! OpenMP threadprivate data in a hybrid Fortran code: a COMMON block (copied in from the master
! at each region) and a module variable, written by both threads of each rank's team, with the
! ranks' regions interleaved by MPI calls. Every rank and thread has its own copy, as natively.
module tp_state
  implicit none
  integer :: hits = 0
!$omp threadprivate(hits)
end module tp_state

program threadprivate
  use mpi
  use omp_lib
  use tp_state
  implicit none
  integer :: ierr, rank, step, t
  integer :: counter
  common /cnt/ counter
!$omp threadprivate(/cnt/)
  integer :: counts(0:1), hit(0:1)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  counter = 100 * rank
  do step = 1, 3
!$omp parallel num_threads(2) private(t) copyin(/cnt/)
    t = omp_get_thread_num()
    counter = counter + t + step
    hits = hits + 1 + t * rank
!$omp end parallel
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
!$omp parallel num_threads(2) private(t)
  t = omp_get_thread_num()
  counts(t) = counter
  hit(t) = hits
!$omp end parallel
  print '(a,i0,a,2(1x,i0),a,2(1x,i0))', 'ftp: rank ', rank, ' counter', counts, ' hits', hit
  call MPI_Finalize(ierr)
end program threadprivate
