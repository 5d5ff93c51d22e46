// mpi_interface.c built as C++, through mpisimcxx.
#include "mpi_interface.c"
