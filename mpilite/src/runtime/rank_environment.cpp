// A rank's environment is its own, as each process of a real MPI job has one: setenv(),
// putenv(), unsetenv() and clearenv() in a rank change only what that rank's getenv() (and the
// programs it starts) read. Left to the C library, every rank of a host process read the last
// value any of them set, and one rank's unsetenv("HOME") unset it for all. The scheduler puts a
// rank's environment in place when the rank runs, once any rank has changed one.
//
// In a rank the four work here, on the rank's own array: the C library's reallocate the last
// array they made, which would be another rank's. Outside ranks they are the C library's.
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "environment_entries.hpp"
#include "interposed.hpp"
#include "world.hpp"

namespace {

using mpilite::names_variable;
using mpilite::next_symbol;

/// A name setenv() and unsetenv() accept.
bool valid_name(const char* name) {
  return name && *name && !std::strchr(name, '=');
}

/// Makes `entry` ("NAME=value", kept as it is) the value of `name` in the running rank's array
/// (`environ`), replacing the one there only if `overwrite`.
int put(std::string_view name, char* entry, bool overwrite) {
  std::size_t n = 0;
  for (; environ[n]; ++n)
    if (names_variable(environ[n], name)) {
      if (overwrite) environ[n] = entry;
      return 0;
    }
  auto** grown = static_cast<char**>(std::realloc(environ, (n + 2) * sizeof(char*)));
  if (!grown) {
    errno = ENOMEM;
    return -1;
  }
  grown[n] = entry;
  grown[n + 1] = nullptr;
  environ = grown;
  return 0;
}

/// Removes `name` from the running rank's array.
void drop(std::string_view name) {
  std::size_t kept = 0;
  for (std::size_t i = 0; environ[i]; ++i)
    if (!names_variable(environ[i], name)) environ[kept++] = environ[i];
  environ[kept] = nullptr;
}

/// Keeps `entry` with the running rank's state (made by own_environment()), freed with it.
void own_string(char* entry) {
  mpilite::World& w = *mpilite::World::of_calling_rank();
  w.scheduler().current()->libc.hidden->environment_strings.push_back(entry);
}

/// `change()` on the calling rank's own environment, or `libc()` outside ranks.
template <class Change, class Libc> int per_rank(Change change, Libc libc_call) {
  mpilite::World* w = mpilite::World::of_calling_rank();
  if (!w) return libc_call();
  mpilite::Scheduler& s = w->scheduler();
  if (!s.own_environment()) {
    errno = ENOMEM;
    return -1;
  }
  const int result = change();
  s.environment_changed();
  return result;
}

} // namespace

extern "C" int setenv(const char* name, const char* value, int overwrite) noexcept {
  static const auto real = next_symbol<int (*)(const char*, const char*, int)>("setenv");
  return per_rank(
      [&] {
        if (!valid_name(name)) {
          errno = EINVAL;
          return -1;
        }
        const std::size_t n = std::strlen(name), v = std::strlen(value);
        auto* entry = static_cast<char*>(std::malloc(n + v + 2));
        if (!entry) {
          errno = ENOMEM;
          return -1;
        }
        std::memcpy(entry, name, n);
        entry[n] = '=';
        std::memcpy(entry + n + 1, value, v + 1);
        own_string(entry);
        return put({name, n}, entry, overwrite != 0);
      },
      [&] { return real(name, value, overwrite); });
}

extern "C" int unsetenv(const char* name) noexcept {
  static const auto real = next_symbol<int (*)(const char*)>("unsetenv");
  return per_rank(
      [&] {
        if (!valid_name(name)) {
          errno = EINVAL;
          return -1;
        }
        drop(name);
        return 0;
      },
      [&] { return real(name); });
}

// glibc's: a string without '=' removes that variable.
extern "C" int putenv(char* string) noexcept {
  static const auto real = next_symbol<int (*)(char*)>("putenv");
  return per_rank(
      [&] {
        const char* eq = std::strchr(string, '=');
        if (!eq) {
          drop(string);
          return 0;
        }
        return put({string, static_cast<std::size_t>(eq - string)}, string, true);
      },
      [&] { return real(string); });
}

extern "C" int clearenv() noexcept {
  static const auto real = next_symbol<int (*)()>("clearenv");
  return per_rank(
      [&] {
        environ[0] = nullptr;
        return 0;
      },
      [&] { return real(); });
}
