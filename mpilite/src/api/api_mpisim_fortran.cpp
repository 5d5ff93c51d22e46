// The Fortran forms of <mpisim.h> (the `mpisim` module, mpilite/fortran/mpisim.f90): Fortran has
// no block macros, so a sampled body is a loop whose condition is one function called at the
// same place before and after the body:
//
//   do while (mpisim_sample_local(10, 0.05d0))
//     ... body ...
//   end do
//
// Called where the rank has no body open, it begins one (true: run the body) or charges the mean
// (false); called again from the same place with that body open, it ends the sample (false).
// The call site is the caller's return address, named for the report by its offset.
//
// Folding: mpisim_shared_malloc returns a C pointer for c_f_pointer; the site is the call's place
// in the program, as for automatic folding.
#include <dlfcn.h>

#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "auto_fold.hpp"
#include "folded_heap.hpp"
#include "mpisim.h"
#include "world.hpp"

using namespace mpilite;

namespace {

/// "function+0xOFFSET" (or "program+0xOFFSET" in a function not exported) of the instruction
/// after a call, the same in every rank's copy of the program (mpisimfort loads one per rank, each
/// from a file of its own); looked up once per call site.
const std::string& site_name(const void* caller) {
  static std::unordered_map<const void*, std::string> names;
  auto [it, created] = names.try_emplace(caller);
  if (created) {
    Dl_info info{};
    const auto at = reinterpret_cast<std::uintptr_t>(caller);
    if (dladdr(caller, &info) && info.dli_sname && info.dli_saddr)
      it->second = fmt::format("{}+{:#x}", info.dli_sname,
                               at - reinterpret_cast<std::uintptr_t>(info.dli_saddr));
    else if (info.dli_fbase) // a local function, as gfortran's main program (MAIN__) is
      it->second =
          fmt::format("program+{:#x}", at - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
    else
      it->second = fmt::format("{}", caller);
  }
  return it->second;
}

/// Both Fortran forms: the end of the body open at this site, or the beginning of one.
MPI_Fint sample(int global, const MPI_Fint* iterations, const double* threshold,
                const void* caller) {
  const std::string& where = site_name(caller);
  World* w = World::try_get();
  if (w && w->in_rank()) {
    SampleSites& sites = w->sample_sites;
    const SampleSites::Site* site = sites.find(where.c_str(), -1);
    if (site && sites.innermost_is(w->self().id, *site)) {
      MPISIM_Sample_end(where.c_str(), -1);
      return 0;
    }
  }
  return MPISIM_Sample_begin(where.c_str(), -1, global, *iterations, *threshold) ? 1 : 0;
}

} // namespace

extern "C" {

MPI_Fint mpisim_sample_local_(const MPI_Fint* iterations, const double* threshold) {
  return sample(0, iterations, threshold, __builtin_return_address(0));
}

MPI_Fint mpisim_sample_global_(const MPI_Fint* iterations, const double* threshold) {
  return sample(1, iterations, threshold, __builtin_return_address(0));
}

void mpisim_compute_(const double* seconds) {
  MPISIM_Compute(*seconds);
}

void* mpisim_shared_malloc_f(std::size_t bytes) {
  return fold_allocate(bytes, fold_site_of(__builtin_return_address(0)), fold_holder());
}

void mpisim_shared_free_f(void* p) {
  MPISIM_Shared_free(p);
}

} // extern "C"
