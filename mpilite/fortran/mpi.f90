! The `use mpi` module of mpisim: the constants and declarations of mpif.h. Routines have
! implicit interfaces, as mpif.h gives them (MPI-3.1 allows this for the mpi module).
module mpi
  implicit none
  include 'mpif.h'
end module mpi
