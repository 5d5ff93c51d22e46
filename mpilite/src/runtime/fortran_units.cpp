// gfortran's unit numbers per rank. libgfortran keeps one table of units per process, which the
// ranks of a host process share: when every rank ran OPEN(10, FILE='out_<rank>.txt') and wrote
// to unit 10 after an MPI call, each OPEN closed the file of the rank before, and every rank's
// lines went to the last rank's file. A rank's unit n is a unit of its own: the program's I/O
// statements reach libgfortran through the entry points below, which give unit n of rank r a
// number of libgfortran's own (from 1 000 000 000 up, made on the rank's first use of n). The
// console's units (0, 5, 6), NEWUNIT numbers and internal files (negative numbers) stay as
// they are, shared as the console is. The threads of a rank's OpenMP team use the rank's units.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <unordered_map>

#include "interposed.hpp"
#include "openmp_calls.hpp"
#include "world.hpp"

namespace {

/// The first fields of every I/O statement's parameters (libgfortran's st_parameter_common).
struct StatementHead {
  std::int32_t flags;
  std::int32_t unit;
};

constexpr std::int32_t kFirstOwn = 1'000'000'000;

/// The rank whose code calls, on its own thread or its OpenMP team's; -1 outside ranks.
int calling_rank() {
  if (mpilite::World* w = mpilite::World::of_calling_rank()) return w->self().id;
  return mpilite::team_rank();
}

/// Libgfortran's number for `unit` of the calling rank.
template <class Int> Int rank_unit(Int unit) {
  if (unit <= 0 || unit == 5 || unit == 6 || unit >= kFirstOwn) return unit;
  const int rank = calling_rank();
  if (rank < 0) return unit;
  static std::mutex m; // a rank's OpenMP threads may do I/O at once
  static std::unordered_map<std::uint64_t, std::int32_t> units;
  static std::int32_t next = kFirstOwn;
  const std::lock_guard lock(m);
  const std::uint64_t key =
      static_cast<std::uint64_t>(rank) << 32 | static_cast<std::uint32_t>(unit);
  auto [it, made] = units.try_emplace(key, next);
  if (made && next++ == std::numeric_limits<std::int32_t>::max()) {
    std::fprintf(stderr, "mpisim: the ranks of this host process used more Fortran units than "
                         "libgfortran can number\n");
    std::abort();
  }
  return it->second;
}

/// libgfortran's I/O statement `Self` on the calling rank's units.
template <auto Self> void statement(const char* name, void* parameters) {
  const auto real = mpilite::libgfortran_own<Self>(name);
  auto* head = static_cast<StatementHead*>(parameters);
  head->unit = rank_unit(head->unit);
  real(parameters);
}

/// The FLUSH subroutine (a GNU extension), with or without a unit.
template <auto Self, class Int> void flush(const char* name, Int* unit) {
  const auto real = mpilite::libgfortran_own<Self>(name);
  if (!unit) return real(nullptr);
  Int own = rank_unit(*unit);
  real(&own);
}

} // namespace

// Every statement that names a unit; READ and WRITE end in st_read_done and st_write_done,
// which use the unit st_read and st_write found.
extern "C" {
void _gfortran_st_open(void* p) {
  statement<&_gfortran_st_open>("_gfortran_st_open", p);
}
void _gfortran_st_close(void* p) {
  statement<&_gfortran_st_close>("_gfortran_st_close", p);
}
void _gfortran_st_read(void* p) {
  if (static_cast<const StatementHead*>(p)->unit == 5) mpilite::only_rank_zero_reads("READ(*)");
  statement<&_gfortran_st_read>("_gfortran_st_read", p);
}
void _gfortran_st_write(void* p) {
  statement<&_gfortran_st_write>("_gfortran_st_write", p);
}
void _gfortran_st_inquire(void* p) {
  statement<&_gfortran_st_inquire>("_gfortran_st_inquire", p);
}
void _gfortran_st_backspace(void* p) {
  statement<&_gfortran_st_backspace>("_gfortran_st_backspace", p);
}
void _gfortran_st_endfile(void* p) {
  statement<&_gfortran_st_endfile>("_gfortran_st_endfile", p);
}
void _gfortran_st_rewind(void* p) {
  statement<&_gfortran_st_rewind>("_gfortran_st_rewind", p);
}
void _gfortran_st_flush(void* p) {
  statement<&_gfortran_st_flush>("_gfortran_st_flush", p);
}
void _gfortran_st_wait(void* p) {
  statement<&_gfortran_st_wait>("_gfortran_st_wait", p);
}
void _gfortran_flush_i4(std::int32_t* unit) {
  flush<&_gfortran_flush_i4>("_gfortran_flush_i4", unit);
}
void _gfortran_flush_i8(std::int64_t* unit) {
  flush<&_gfortran_flush_i8>("_gfortran_flush_i8", unit);
}
}
