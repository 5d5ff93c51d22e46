#include "op.hpp"

#include <complex.h>
#include <wchar.h>

#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace mpilite {
namespace {

enum class Family { Integer, Floating, Logical, Complex, Byte, Pair, None };

Family family_of(MPI_Datatype t) {
  switch (t) {
  case MPI_CHAR:
  case MPI_SIGNED_CHAR:
  case MPI_UNSIGNED_CHAR:
  case MPI_WCHAR:
  case MPI_SHORT:
  case MPI_UNSIGNED_SHORT:
  case MPI_INT:
  case MPI_UNSIGNED:
  case MPI_LONG:
  case MPI_UNSIGNED_LONG:
  case MPI_LONG_LONG_INT:
  case MPI_UNSIGNED_LONG_LONG:
  case MPI_INT8_T:
  case MPI_INT16_T:
  case MPI_INT32_T:
  case MPI_INT64_T:
  case MPI_UINT8_T:
  case MPI_UINT16_T:
  case MPI_UINT32_T:
  case MPI_UINT64_T:
  case MPI_AINT:
  case MPI_OFFSET:
  case MPI_COUNT:
  case MPI_INTEGER:
  case MPI_INTEGER1:
  case MPI_INTEGER2:
  case MPI_INTEGER4:
  case MPI_INTEGER8:
    return Family::Integer;
  case MPI_FLOAT:
  case MPI_DOUBLE:
  case MPI_LONG_DOUBLE:
  case MPI_REAL:
  case MPI_DOUBLE_PRECISION:
  case MPI_REAL4:
  case MPI_REAL8:
  case MPI_REAL16:
    return Family::Floating;
  case MPI_C_BOOL:
  case MPI_CXX_BOOL:
  case MPI_LOGICAL:
    return Family::Logical;
  case MPI_C_FLOAT_COMPLEX:
  case MPI_C_DOUBLE_COMPLEX:
  case MPI_C_LONG_DOUBLE_COMPLEX:
  case MPI_CXX_FLOAT_COMPLEX:
  case MPI_CXX_DOUBLE_COMPLEX:
  case MPI_CXX_LONG_DOUBLE_COMPLEX:
  case MPI_COMPLEX:
  case MPI_DOUBLE_COMPLEX:
  case MPI_COMPLEX8:
  case MPI_COMPLEX16:
  case MPI_COMPLEX32:
    return Family::Complex;
  case MPI_BYTE:
    return Family::Byte;
  case MPI_FLOAT_INT:
  case MPI_DOUBLE_INT:
  case MPI_LONG_INT:
  case MPI_2INT:
  case MPI_SHORT_INT:
  case MPI_LONG_DOUBLE_INT:
  case MPI_2REAL:
  case MPI_2DOUBLE_PRECISION:
  case MPI_2INTEGER:
    return Family::Pair;
  default:
    return Family::None;
  }
}

template <class A, class B> struct Pair {
  A value;
  B index;
};

// One elementwise kernel per (op, C type); `Fn` combines (in, inout) into inout.
template <class T, class Fn> void each(const void* in, void* inout, std::size_t n, Fn fn) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (std::size_t i = 0; i < n; ++i)
    b[i] = fn(a[i], b[i]);
}

template <class T> struct IsComplex : std::false_type {};
template <class T> struct IsComplex<std::complex<T>> : std::true_type {};

/// gfortran's REAL(16) and COMPLEX(16): IEEE quadruple precision, in software.
using Quad = __float128;

template <class T> bool arith(MPI_Op op, const void* in, void* inout, std::size_t n) {
  switch (op) {
  case MPI_SUM:
    each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a + b); });
    return true;
  case MPI_PROD:
    each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a * b); });
    return true;
  default:
    break;
  }
  if constexpr (!IsComplex<T>::value) {
    switch (op) {
    case MPI_MAX:
      each<T>(in, inout, n, [](T a, T b) { return a > b ? a : b; });
      return true;
    case MPI_MIN:
      each<T>(in, inout, n, [](T a, T b) { return a < b ? a : b; });
      return true;
    case MPI_LAND:
      each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a && b); });
      return true;
    case MPI_LOR:
      each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a || b); });
      return true;
    case MPI_LXOR:
      each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(!a != !b); });
      return true;
    default:
      break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
      case MPI_BAND:
        each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a & b); });
        return true;
      case MPI_BOR:
        each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a | b); });
        return true;
      case MPI_BXOR:
        each<T>(in, inout, n, [](T a, T b) { return static_cast<T>(a ^ b); });
        return true;
      default:
        break;
      }
    }
  }
  return false;
}

// MINLOC/MAXLOC: the better value wins; on equal values the smaller index (MPI-3.1 5.9.4).
// The Fortran pairs hold the index in the value's type.
template <class A, class B = int> bool loc(MPI_Op op, const void* in, void* inout, std::size_t n) {
  using P = Pair<A, B>;
  const bool max = op == MPI_MAXLOC;
  each<P>(in, inout, n, [max](P a, P b) {
    if (a.value == b.value) return a.index < b.index ? a : b;
    return (max ? a.value > b.value : a.value < b.value) ? a : b;
  });
  return true;
}

bool apply_builtin(MPI_Op op, MPI_Datatype t, const void* in, void* inout, std::size_t n) {
  if (op == MPI_MINLOC || op == MPI_MAXLOC) {
    switch (t) {
    case MPI_FLOAT_INT:
      return loc<float>(op, in, inout, n);
    case MPI_DOUBLE_INT:
      return loc<double>(op, in, inout, n);
    case MPI_LONG_INT:
      return loc<long>(op, in, inout, n);
    case MPI_2INT:
      return loc<int>(op, in, inout, n);
    case MPI_SHORT_INT:
      return loc<short>(op, in, inout, n);
    case MPI_LONG_DOUBLE_INT:
      return loc<long double>(op, in, inout, n);
    case MPI_2REAL:
      return loc<float, float>(op, in, inout, n);
    case MPI_2DOUBLE_PRECISION:
      return loc<double, double>(op, in, inout, n);
    case MPI_2INTEGER:
      return loc<int32_t, int32_t>(op, in, inout, n);
    default:
      return false;
    }
  }
  switch (t) {
  case MPI_CHAR:
    return arith<char>(op, in, inout, n);
  case MPI_SIGNED_CHAR:
  case MPI_INT8_T:
  case MPI_INTEGER1:
    return arith<int8_t>(op, in, inout, n);
  case MPI_UNSIGNED_CHAR:
  case MPI_BYTE:
  case MPI_UINT8_T:
    return arith<uint8_t>(op, in, inout, n);
  case MPI_WCHAR:
    return arith<wchar_t>(op, in, inout, n);
  case MPI_SHORT:
  case MPI_INT16_T:
  case MPI_INTEGER2:
    return arith<int16_t>(op, in, inout, n);
  case MPI_UNSIGNED_SHORT:
  case MPI_UINT16_T:
    return arith<uint16_t>(op, in, inout, n);
  case MPI_INT:
  case MPI_INT32_T:
  case MPI_INTEGER:
  case MPI_INTEGER4:
  case MPI_LOGICAL: // gfortran's .TRUE. is 1, which the logical kernels produce
    return arith<int32_t>(op, in, inout, n);
  case MPI_UNSIGNED:
  case MPI_UINT32_T:
    return arith<uint32_t>(op, in, inout, n);
  case MPI_LONG:
    return arith<long>(op, in, inout, n);
  case MPI_UNSIGNED_LONG:
    return arith<unsigned long>(op, in, inout, n);
  case MPI_LONG_LONG_INT:
  case MPI_INT64_T:
  case MPI_INTEGER8:
  case MPI_COUNT:
  case MPI_OFFSET:
    return arith<long long>(op, in, inout, n);
  case MPI_UNSIGNED_LONG_LONG:
  case MPI_UINT64_T:
    return arith<unsigned long long>(op, in, inout, n);
  case MPI_AINT:
    return arith<MPI_Aint>(op, in, inout, n);
  case MPI_FLOAT:
  case MPI_REAL:
  case MPI_REAL4:
    return arith<float>(op, in, inout, n);
  case MPI_DOUBLE:
  case MPI_DOUBLE_PRECISION:
  case MPI_REAL8:
    return arith<double>(op, in, inout, n);
  case MPI_LONG_DOUBLE:
    return arith<long double>(op, in, inout, n);
  case MPI_REAL16:
    return arith<Quad>(op, in, inout, n);
  case MPI_C_BOOL:
  case MPI_CXX_BOOL:
    return arith<bool>(op, in, inout, n);
  case MPI_C_FLOAT_COMPLEX:
  case MPI_CXX_FLOAT_COMPLEX:
  case MPI_COMPLEX:
  case MPI_COMPLEX8:
    return arith<std::complex<float>>(op, in, inout, n);
  case MPI_C_DOUBLE_COMPLEX:
  case MPI_CXX_DOUBLE_COMPLEX:
  case MPI_DOUBLE_COMPLEX:
  case MPI_COMPLEX16:
    return arith<std::complex<double>>(op, in, inout, n);
  case MPI_C_LONG_DOUBLE_COMPLEX:
  case MPI_CXX_LONG_DOUBLE_COMPLEX:
    return arith<std::complex<long double>>(op, in, inout, n);
  case MPI_COMPLEX32:
    return arith<std::complex<Quad>>(op, in, inout, n);
  default:
    return false;
  }
}

const Op kBuiltinOps[] = {
    {MPI_MAX, nullptr, true, "MPI_MAX"},          {MPI_MIN, nullptr, true, "MPI_MIN"},
    {MPI_SUM, nullptr, true, "MPI_SUM"},          {MPI_PROD, nullptr, true, "MPI_PROD"},
    {MPI_LAND, nullptr, true, "MPI_LAND"},        {MPI_BAND, nullptr, true, "MPI_BAND"},
    {MPI_LOR, nullptr, true, "MPI_LOR"},          {MPI_BOR, nullptr, true, "MPI_BOR"},
    {MPI_LXOR, nullptr, true, "MPI_LXOR"},        {MPI_BXOR, nullptr, true, "MPI_BXOR"},
    {MPI_MINLOC, nullptr, true, "MPI_MINLOC"},    {MPI_MAXLOC, nullptr, true, "MPI_MAXLOC"},
    {MPI_REPLACE, nullptr, false, "MPI_REPLACE"}, {MPI_NO_OP, nullptr, false, "MPI_NO_OP"},
};

} // namespace

const Op* builtin_op(MPI_Op handle) {
  const int i = (handle & 0xff) - 1;
  if ((handle & ~0xff) != 0x58000000 || i < 0 || i >= static_cast<int>(std::size(kBuiltinOps)))
    return nullptr;
  return &kBuiltinOps[i];
}

bool op_defined_for(MPI_Op op, MPI_Datatype basic) {
  const Family f = family_of(basic);
  switch (op) {
  case MPI_MAX:
  case MPI_MIN:
    return f == Family::Integer || f == Family::Floating;
  case MPI_SUM:
  case MPI_PROD:
    return f == Family::Integer || f == Family::Floating || f == Family::Complex;
  case MPI_LAND:
  case MPI_LOR:
  case MPI_LXOR:
    // Floating types too, as MPICH accepts them (MPI itself allows integer and logical types
    // only): programs tested with MPICH use it. The result is 1 or 0 of the type.
    return f == Family::Integer || f == Family::Logical || f == Family::Floating;
  case MPI_BAND:
  case MPI_BOR:
  case MPI_BXOR:
    return f == Family::Integer || f == Family::Byte;
  case MPI_MINLOC:
  case MPI_MAXLOC:
    return f == Family::Pair;
  default:
    return false;
  }
}

bool op_applies_to(const Op& op, const Datatype& type) {
  return op.user_defined() ||
         (type.basic != MPI_DATATYPE_NULL && op_defined_for(op.handle, type.basic));
}

int apply_op(const Op& op, const Datatype& type, const void* in, void* inout, std::size_t count) {
  MPI_Datatype h = type.handle;
  if (op.user) {
    int n = static_cast<int>(count);
    op.user(const_cast<void*>(in), inout, &n, &h);
    return MPI_SUCCESS;
  }
  if (op.user_c) {
    MPI_Count n = static_cast<MPI_Count>(count);
    op.user_c(const_cast<void*>(in), inout, &n, &h);
    return MPI_SUCCESS;
  }
  if (!op_applies_to(op, type)) return MPI_ERR_OP;
  const std::size_t n = count * type.basic_count;
  if (type.basic_layout)
    return apply_builtin(op.handle, type.basic, in, inout, n) ? MPI_SUCCESS : MPI_ERR_OP;
  // Any other layout of one basic type: gather both operands into arrays of it (the packed
  // streams of both layouts are the same), combine, and scatter the result back.
  const Datatype& unit = *builtin_datatype(type.basic);
  std::vector<std::byte> packed(count * type.size);
  std::vector<std::byte> a(n * static_cast<std::size_t>(unit.extent));
  std::vector<std::byte> b(a.size());
  pack(in, count, type, packed.data());
  unpack(packed.data(), packed.size(), unit, a.data());
  pack(inout, count, type, packed.data());
  unpack(packed.data(), packed.size(), unit, b.data());
  if (!apply_builtin(op.handle, type.basic, a.data(), b.data(), n)) return MPI_ERR_OP;
  pack(b.data(), n, unit, packed.data());
  unpack(packed.data(), packed.size(), type, inout);
  return MPI_SUCCESS;
}

} // namespace mpilite
