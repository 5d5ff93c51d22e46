// Registration through macros, as benchmark suites write it (a suite's static members and one
// registration object per benchmark, each declared by a macro, the names made with # and ##),
// a function-local counter a macro declares, and a parameter table whose macro both names a
// global and makes a string of its name. Each rank registers, runs the benchmarks its rank
// selects and counts calls: natively every process has its own registry and counters.
#include <mpi.h>

#include <cstdio>
#include <map>
#include <string>

class Benchmark;

template <class Suite> class Registry {
public:
  using names_t = std::map<std::string, const Benchmark*>;
  static void add(const std::string& name, const Benchmark* b) {
    if (names == nullptr) names = new names_t();
    (*names)[name] = b;
  }
  static names_t* names;
  static Registry* instance;
  static const char* title();
};

struct Mpi1 {};

#define DECLARE_SUITE_STUFF(SUITE, NAME)                                                           \
  template <> Registry<SUITE>::names_t* Registry<SUITE>::names = 0;                                \
  template <> Registry<SUITE>* Registry<SUITE>::instance = 0;                                      \
  template <> const char* Registry<SUITE>::title() {                                               \
    return #NAME;                                                                                  \
  }

class Benchmark {
public:
  explicit Benchmark(const char* name) { Registry<Mpi1>::add(name, this); }
  virtual ~Benchmark() = default;
  virtual double run(int rank) const = 0;
};

#define DECLARE_BENCHMARK(CLASS, NAME)                                                             \
  namespace {                                                                                      \
  CLASS elem_##NAME;                                                                               \
  }                                                                                                \
  const char* CLASS::name = #NAME;

#define CALL_COUNTER(n) static int n = 0

int calls_of(int rank) {
  CALL_COUNTER(calls);
  calls += rank + 1;
  return calls;
}

struct PingPong : Benchmark {
  PingPong() : Benchmark("PingPong") {}
  double run(int rank) const override { return 1.5 * calls_of(rank); }
  static const char* name;
};
struct Allreduce : Benchmark {
  Allreduce() : Benchmark("Allreduce") {}
  double run(int rank) const override {
    double in = rank, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return out + calls_of(rank);
  }
  static const char* name;
};

DECLARE_SUITE_STUFF(Mpi1, IMB - MPI1)
DECLARE_BENCHMARK(PingPong, PingPong)
DECLARE_BENCHMARK(Allreduce, Allreduce)

int repetitions = 3;

#define HANDLE_PARAMETER(KEY, NAME)                                                                \
  if (KEY == #NAME) return &NAME;

int* parameter(const std::string& key) {
  HANDLE_PARAMETER(key, repetitions)
  return nullptr;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Each rank drops the benchmarks its rank does not run from its own registry.
  if (rank % 2 == 1) Registry<Mpi1>::names->erase("PingPong");
  Registry<Mpi1>::instance = reinterpret_cast<Registry<Mpi1>*>(Registry<Mpi1>::names);
  *parameter("repetitions") += 1; // the same everywhere: every rank joins each MPI_Allreduce
  double total = 0;
  for (int repeat = 0; repeat < repetitions; ++repeat)
    for (const auto& [name, b] : *Registry<Mpi1>::names)
      total += b->run(rank);
  std::printf("rank %d: suite %s, %zu benchmarks (%s first), total %.1f, calls %d\n", rank,
              Registry<Mpi1>::title(), Registry<Mpi1>::names->size(),
              Registry<Mpi1>::names->begin()->first.c_str(), total, calls_of(0));
  Registry<Mpi1>::instance = nullptr;
  delete Registry<Mpi1>::names;
  MPI_Finalize();
  return 0;
}
