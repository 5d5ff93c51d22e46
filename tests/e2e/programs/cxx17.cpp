// C++17, as g++ accepts it with no -std= option: std::optional, std::variant, structured
// bindings, if constexpr, fold expressions and an inline variable, which is a global of each
// rank like any other.
#include <mpi.h>

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <variant>

inline int calls = 0;

template <typename... T> int sum(T... v) {
  ++calls;
  return (v + ... + 0);
}

template <typename T> std::string describe(const T& v) {
  ++calls;
  if constexpr (std::is_integral_v<T>)
    return "int " + std::to_string(v);
  else
    return "text " + std::string(v);
}

std::optional<int> half(int v) {
  if (v % 2) return std::nullopt;
  return v / 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::map<std::string, int> counts{{"rank", rank}, {"size", size}};
  int total = 0;
  for (const auto& [name, value] : counts)
    total += sum(value, rank, 1);
  std::variant<int, std::string> v = rank;
  if (rank % 2) v = std::string("odd");
  const std::string what = std::visit([](const auto& x) { return describe(x); }, v);
  MPI_Barrier(MPI_COMM_WORLD);
  int all = 0;
  MPI_Allreduce(&total, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const std::optional<int> h = half(rank);
  std::printf("rank %d: total %d of %d, %s, half %s, %d calls\n", rank, total, all, what.c_str(),
              h ? std::to_string(*h).c_str() : "none", calls);
  MPI_Finalize();
  return 0;
}
