// The standard input is rank 0's. mpiexec gives the job's standard input to rank 0 alone; under
// MPICH a read of it by any other rank waits forever. The ranks of a host process share its
// standard input, so another rank's read would take the lines rank 0 is to read, and both ranks
// would go on with the wrong input without a word: a read of the standard input by the program's
// own code in a rank other than 0 ends the run, naming the rank and the call. The entry points
// below are those a program's code, libstdc++'s std::cin and libgfortran reach (the C library's
// calls between its own functions do not come here, and need not: each starts at one of these).
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <string_view>

#include <fmt/format.h>

#include "interposed.hpp"

namespace mpilite {

void only_rank_zero_reads(const char* call) {
  World* w = programs_world();
  if (!w || w->self().id == 0) return;
  static constexpr std::string_view kIsoC99 = "__isoc99_"; // scanf's symbol in C99 programs
  if (std::string_view(call).starts_with(kIsoC99)) call += kIsoC99.size();
  w->stop(RunEnd::FatalError, 1,
          fmt::format("rank {}: {} read the standard input: under mpiexec it is rank 0's alone, "
                      "and a read by another rank waits forever (MPICH); under mpisim that rank "
                      "would take lines rank 0 is to read. Read it in rank 0 and send it to the "
                      "others (MPI_Bcast), or have each rank open an input file by its name",
                      w->self().id, call));
}

namespace {

/// Whether descriptor 0 was the standard input when the program started: a launcher may start it
/// with none, and the first file opened then takes descriptor 0.
bool stdin_at_start = true;
[[gnu::constructor]] void note_stdin_at_start() {
  stdin_at_start = fcntl(STDIN_FILENO, F_GETFD) != -1;
}

/// only_rank_zero_reads for a read of descriptor `fd`.
void reads_descriptor(const char* call, int fd) {
  if (fd == STDIN_FILENO && stdin_at_start) only_rank_zero_reads(call);
}

/// only_rank_zero_reads for a read of the stream `f`.
void reads_stream(const char* call, const FILE* f) {
  if (f == stdin) only_rank_zero_reads(call);
}

} // namespace
} // namespace mpilite

using mpilite::next_symbol;
using mpilite::reads_descriptor;
using mpilite::reads_stream;

// Descriptor reads (libgfortran reads unit 5 with read()).
extern "C" ssize_t read(int fd, void* buf, size_t n) {
  static const auto f = next_symbol<ssize_t (*)(int, void*, size_t)>("read");
  reads_descriptor("read()", fd);
  return f(fd, buf, n);
}
extern "C" ssize_t readv(int fd, const struct iovec* iov, int count) {
  static const auto f = next_symbol<ssize_t (*)(int, const struct iovec*, int)>("readv");
  reads_descriptor("readv()", fd);
  return f(fd, iov, count);
}

// One entry point per stream-reading function of the C library, plain and unlocked. Each is
// named by its symbol: in C++ the C library's headers give the scanf family other symbols.
#define MPISIM_STREAM_READ(ret, name, params, stream, ...)                                         \
  MPISIM_STREAM_READ_AS(#name "()", ret, name, params, stream, __VA_ARGS__)
// `shown`: what the program called, as the message names it (the C library's inline functions
// call others).
#define MPISIM_STREAM_READ_AS(shown, ret, name, params, stream, ...)                               \
  extern "C" ret mpisim_##name params __asm__(#name);                                              \
  extern "C" ret mpisim_##name params {                                                            \
    static const auto f = next_symbol<ret(*) params>(#name);                                       \
    reads_stream(shown, stream);                                                                   \
    return f(__VA_ARGS__);                                                                         \
  }
MPISIM_STREAM_READ(int, fgetc, (FILE * s), s, s)
MPISIM_STREAM_READ_AS("getc() or getchar()", int, getc, (FILE * s), s, s)
MPISIM_STREAM_READ_AS("getc()", int, _IO_getc, (FILE * s), s, s)
MPISIM_STREAM_READ(int, fgetc_unlocked, (FILE * s), s, s)
MPISIM_STREAM_READ(int, getc_unlocked, (FILE * s), s, s)
MPISIM_STREAM_READ_AS("getc_unlocked() or getchar_unlocked()", int, __uflow, (FILE * s), s, s)
MPISIM_STREAM_READ(char*, fgets, (char* b, int n, FILE* s), s, b, n, s)
MPISIM_STREAM_READ(char*, fgets_unlocked, (char* b, int n, FILE* s), s, b, n, s)
MPISIM_STREAM_READ(size_t, fread, (void* b, size_t z, size_t n, FILE* s), s, b, z, n, s)
MPISIM_STREAM_READ(size_t, fread_unlocked, (void* b, size_t z, size_t n, FILE* s), s, b, z, n, s)
MPISIM_STREAM_READ(ssize_t, getline, (char** b, size_t* n, FILE* s), s, b, n, s)
MPISIM_STREAM_READ(ssize_t, getdelim, (char** b, size_t* n, int d, FILE* s), s, b, n, d, s)
MPISIM_STREAM_READ_AS("getline() or getdelim()", ssize_t, __getdelim,
                      (char** b, size_t* n, int d, FILE* s), s, b, n, d, s)
MPISIM_STREAM_READ(int, getchar, (), stdin, )
MPISIM_STREAM_READ(int, getchar_unlocked, (), stdin, )
MPISIM_STREAM_READ(int, vscanf, (const char* fmt, va_list a), stdin, fmt, a)
MPISIM_STREAM_READ(int, __isoc99_vscanf, (const char* fmt, va_list a), stdin, fmt, a)
MPISIM_STREAM_READ(int, vfscanf, (FILE * s, const char* fmt, va_list a), s, s, fmt, a)
MPISIM_STREAM_READ(int, __isoc99_vfscanf, (FILE * s, const char* fmt, va_list a), s, s, fmt, a)
#undef MPISIM_STREAM_READ
#undef MPISIM_STREAM_READ_AS

// The variadic ones, through the C library's va_list forms (`fmt`: the last named parameter).
#define MPISIM_SCANF(name, vname, params, stream)                                                  \
  extern "C" int mpisim_##name params __asm__(#name);                                              \
  extern "C" int mpisim_##name params {                                                            \
    static const auto f = next_symbol<int (*)(FILE*, const char*, va_list)>(vname);                \
    reads_stream(#name "()", stream);                                                              \
    va_list a;                                                                                     \
    va_start(a, fmt);                                                                              \
    const int r = f(stream, fmt, a);                                                               \
    va_end(a);                                                                                     \
    return r;                                                                                      \
  }
MPISIM_SCANF(scanf, "vfscanf", (const char* fmt, ...), stdin)
MPISIM_SCANF(__isoc99_scanf, "__isoc99_vfscanf", (const char* fmt, ...), stdin)
MPISIM_SCANF(fscanf, "vfscanf", (FILE * s, const char* fmt, ...), s)
MPISIM_SCANF(__isoc99_fscanf, "__isoc99_vfscanf", (FILE * s, const char* fmt, ...), s)
#undef MPISIM_SCANF
