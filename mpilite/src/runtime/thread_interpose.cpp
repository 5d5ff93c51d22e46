// A thread the program starts itself inside a rank (pthread_create, std::thread, std::async) is
// refused by name: privatized globals and thread-locals are reached through the running rank's
// segment, so such a thread would read and write the globals of whichever rank the host thread
// runs at the time, and share its rank's thread-locals instead of getting fresh ones (wrong
// counts, or a crash with no message). The threads of libraries the program calls (libgomp's
// teams, a BLAS's pool) run only their library's code and go on as before.
#include <pthread.h>

#include <cstring>

#include <fmt/format.h>

#include "interposed.hpp"
#include "loaded_object.hpp"
#include "world.hpp"

namespace {

/// Whether `caller`, the code that called pthread_create, is the program's: the executable, or
/// the C++ library on behalf of std::thread.
bool the_programs_own(const void* caller) {
  const auto object = mpilite::object_holding(caller);
  if (!object) return false;
  const char* name = object->dlpi_name;
  return !name || !*name || std::strstr(name, "libstdc++") != nullptr;
}

} // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) noexcept {
  using Create = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static const auto libc_create = mpilite::next_symbol<Create>("pthread_create");
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (w && w->self().call_depth == 0 && the_programs_own(__builtin_return_address(0)))
    w->stop(mpilite::RunEnd::FatalError, 1,
            fmt::format("rank {}: the program starts a thread of its own (pthread_create, "
                        "std::thread or std::async), which mpisim does not support: the thread "
                        "would use the globals of whichever rank runs at the time. Use OpenMP "
                        "for threads inside a rank (docs/model.md, OpenMP)",
                        w->self().id));
  return libc_create(thread, attr, start, arg);
}
