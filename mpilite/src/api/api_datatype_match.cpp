// MPI entry points that find a predefined type by size or by Fortran precision and range:
// MPI_Type_match_size and MPI_Type_create_f90_integer/real/complex (MPI-3.1 section 17.1.9).
// The answers are those of MPICH with gfortran: INTEGER(KIND=1..8), REAL(KIND=4, 8) and
// COMPLEX(KIND=8, 16) exist; REAL(KIND=16) is not a type of mpisim.
#include <array>
#include <span>

#include "api_datatype.hpp"

using namespace mpilite;

namespace {

/// A predefined type and the largest decimal precision and exponent range (Fortran's
/// PRECISION and RANGE intrinsics) of its kind.
struct Kind {
  MPI_Datatype type;
  int precision;
  int range;
};

constexpr std::array<Kind, 4> kIntegers{
    {{MPI_INTEGER1, 0, 2}, {MPI_INTEGER2, 0, 4}, {MPI_INTEGER4, 0, 9}, {MPI_INTEGER8, 0, 18}}};
constexpr std::array<Kind, 3> kReals{
    {{MPI_REAL4, 6, 37}, {MPI_REAL8, 15, 307}, {MPI_REAL16, 33, 4931}}};
constexpr std::array<Kind, 3> kComplexes{
    {{MPI_COMPLEX8, 6, 37}, {MPI_COMPLEX16, 15, 307}, {MPI_COMPLEX32, 33, 4931}}};
/// MPICH's MPI_Type_create_f90_real and _complex stop at double precision (REAL(16) is found by
/// MPI_Type_match_size only).
constexpr std::size_t kF90Kinds = 2;

/// The smallest kind of `kinds` with at least precision `p` and range `r` (MPI_UNDEFINED: any),
/// as SELECTED_REAL_KIND and SELECTED_INT_KIND choose it.
int select_kind(const char* name, std::span<const Kind> kinds, int p, int r,
                MPI_Datatype* newtype) {
  ApiCall c(name);
  if (int e = check_pointer(c, newtype, "newtype")) return e;
  for (const Kind& k : kinds)
    if ((p == MPI_UNDEFINED || p <= k.precision) && (r == MPI_UNDEFINED || r <= k.range)) {
      *newtype = k.type;
      return MPI_SUCCESS;
    }
  // MPICH's class for a precision or range no kind has.
  if (p == MPI_UNDEFINED)
    return c.error(MPI_COMM_WORLD, MPI_ERR_OTHER, "no Fortran kind of this type has range {}", r);
  if (r == MPI_UNDEFINED)
    return c.error(MPI_COMM_WORLD, MPI_ERR_OTHER, "no Fortran kind of this type has precision {}",
                   p);
  return c.error(MPI_COMM_WORLD, MPI_ERR_OTHER,
                 "no Fortran kind of this type has precision {} and range {}", p, r);
}

} // namespace

extern "C" {

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  ApiCall c("MPI_Type_match_size");
  if (int e = check_pointer(c, datatype, "datatype")) return e;
  std::span<const Kind> kinds;
  switch (typeclass) {
  case MPI_TYPECLASS_INTEGER:
    kinds = kIntegers;
    break;
  case MPI_TYPECLASS_REAL:
    kinds = kReals;
    break;
  case MPI_TYPECLASS_COMPLEX:
    kinds = kComplexes;
    break;
  default:
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "invalid typeclass {} (must be MPI_TYPECLASS_INTEGER, _REAL or _COMPLEX)",
                   typeclass);
  }
  for (const Kind& k : kinds)
    if (builtin_datatype(k.type)->size == static_cast<std::size_t>(size)) {
      *datatype = k.type;
      return MPI_SUCCESS;
    }
  return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "no predefined type of typeclass {} has {} bytes",
                 typeclass, size);
}
MPISIM_WEAK_ALIAS(Type_match_size)

int PMPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  return select_kind("MPI_Type_create_f90_integer", kIntegers, MPI_UNDEFINED, r, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_f90_integer)

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  return select_kind("MPI_Type_create_f90_real", std::span(kReals).first(kF90Kinds), p, r, newtype);
}
MPISIM_WEAK_ALIAS(Type_create_f90_real)

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  return select_kind("MPI_Type_create_f90_complex", std::span(kComplexes).first(kF90Kinds), p, r,
                     newtype);
}
MPISIM_WEAK_ALIAS(Type_create_f90_complex)

} // extern "C"
