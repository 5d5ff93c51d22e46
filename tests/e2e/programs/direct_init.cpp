// Direct initializations whose expression makes the object itself (a scalar, a C++17 prvalue of
// the type): `static int n(5);`, `std::string s(std::string("a") + 'b');`, at namespace scope and
// as function-local statics (CLI11 writes them so). Each rank has its own copy.
#include <mpi.h>

#include <cstdio>
#include <string>

static int n(5);
std::string tag(std::string("t") + '-');
int wrapped((7));

static std::string& local_name() {
  static std::string name(std::string("rank") + '\0');
  return name;
}

static int& local_count() {
  static int count(100);
  return count;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  n += r;
  tag += std::to_string(r);
  wrapped *= r + 1;
  local_name().back() = static_cast<char>('0' + r);
  local_count() += r;
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: n %d, tag %s, wrapped %d, name %s, count %d\n", r, n, tag.c_str(), wrapped,
              local_name().c_str(), local_count());
  MPI_Finalize();
}
