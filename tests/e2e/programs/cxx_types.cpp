// The C++ predefined datatypes (a C++ code that reduces std::complex values and bool flags):
// sizes, extents and names as MPICH reports them, and reductions over them. Each rank prints
// what it saw; MPICH prints the same.
#include <mpi.h>

#include <complex>
#include <cstdio>

namespace {

struct Named {
  MPI_Datatype type;
  int expected_size;
};

int check(const Named& n) {
  int size = 0, len = 0;
  MPI_Aint lb = 0, extent = 0;
  char name[MPI_MAX_OBJECT_NAME];
  MPI_Type_size(n.type, &size);
  MPI_Type_get_extent(n.type, &lb, &extent);
  MPI_Type_get_name(n.type, name, &len);
  std::printf("%s: size %d, extent %ld\n", name, size, static_cast<long>(extent));
  return size == n.expected_size ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int wrong = 0;
  if (rank == 0)
    for (const Named& n : {Named{MPI_CXX_BOOL, sizeof(bool)},
                           Named{MPI_CXX_FLOAT_COMPLEX, sizeof(std::complex<float>)},
                           Named{MPI_CXX_DOUBLE_COMPLEX, sizeof(std::complex<double>)},
                           Named{MPI_CXX_LONG_DOUBLE_COMPLEX, sizeof(std::complex<long double>)}})
      wrong += check(n);
  std::complex<double> z(rank + 1.0, 2.0 * rank), zsum;
  MPI_Allreduce(&z, &zsum, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
  std::complex<float> f(1.0f, rank), fprod;
  MPI_Allreduce(&f, &fprod, 1, MPI_CXX_FLOAT_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
  bool odd = rank % 2 == 1, all_odd = false, any_odd = false;
  MPI_Allreduce(&odd, &all_odd, 1, MPI_CXX_BOOL, MPI_LAND, MPI_COMM_WORLD);
  MPI_Allreduce(&odd, &any_odd, 1, MPI_CXX_BOOL, MPI_LOR, MPI_COMM_WORLD);
  std::complex<long double> l(rank, 1), lrecv;
  MPI_Sendrecv(&l, 1, MPI_CXX_LONG_DOUBLE_COMPLEX, (rank + 1) % size, 0, &lrecv, 1,
               MPI_CXX_LONG_DOUBLE_COMPLEX, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  std::printf("rank %d: sum (%g,%g), product (%g,%g), all odd %d, any odd %d, from left (%Lg,%Lg), "
              "%d wrong sizes\n",
              rank, zsum.real(), zsum.imag(), fprod.real(), fprod.imag(), all_odd, any_odd,
              lrecv.real(), lrecv.imag(), wrong);
  MPI_Finalize();
  return 0;
}
