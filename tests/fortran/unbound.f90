! Calls a routine mpisim has no Fortran binding for: mpisimfort must refuse to link it, naming
! the routine, instead of leaving every rank to fail when it loads its copy.
program unbound
  use mpi
  implicit none
  integer :: ierr
  character(len=MPI_MAX_PORT_NAME) :: port
  call mpi_init(ierr)
  call mpi_open_port(MPI_INFO_NULL, port, ierr)
  call mpi_finalize(ierr)
end program unbound
