// Privatized code stays valid C++11: function statics, static members and objects with
// constructors, compiled with -std=c++11 -pedantic -Werror.
#include <mpi.h>

#include <cstdio>
#include <string>

struct Counter {
  static int created;
  std::string name;
  Counter() : name("counter") { ++created; }
};
int Counter::created = 0;
Counter counter;

template <class T> T& accumulator() {
  static T sum = T();
  return sum;
}

int main(int argc, char** argv) {
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  accumulator<int>() += rank;
  counter.name += std::to_string(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("cxx11_statics: rank %d sum %d created %d name %s\n", rank, accumulator<int>(),
              Counter::created, counter.name.c_str());
  MPI_Finalize();
  return 0;
}
