! Calls a routine mpisim has no Fortran binding for: mpisimfort must refuse to link it, naming
! the routine, instead of leaving every rank to fail when it loads its copy.
program unbound
  use mpi
  implicit none
  integer :: ierr, keyval
  external :: copy_fn, delete_fn
  call mpi_init(ierr)
  call mpi_comm_create_keyval(copy_fn, delete_fn, keyval, 0, ierr)
  call mpi_finalize(ierr)
end program unbound
