// MPI entry points: info objects (MPI-3.1 section 9), the minimum communicators need. Errors are
// raised on MPI_COMM_WORLD. They work before MPI_Init and after MPI_Finalize too (MPI-4.0 section
// 11.4.1: a session's info is made before MPI is), as MPICH's do.
#include <algorithm>
#include <cstring>

#include "api_object_checks.hpp"

using namespace mpilite;

namespace {

int arg_error(ApiCall& c, const char* what) {
  return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "{}", what);
}

int check_key(ApiCall& c, const char* key) {
  if (!key) return arg_error(c, "null key");
  const std::size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
  if (n == 0 || n > MPI_MAX_INFO_KEY)
    return c.error(MPI_COMM_WORLD, MPI_ERR_INFO_KEY,
                   "info key of length {} (must be 1 to MPI_MAX_INFO_KEY = {})",
                   n > MPI_MAX_INFO_KEY ? std::string(">") + std::to_string(MPI_MAX_INFO_KEY)
                                        : std::to_string(n),
                   MPI_MAX_INFO_KEY);
  return MPI_SUCCESS;
}

/// The info object `h` that the program may change (not MPI_INFO_ENV).
int check_writable(ApiCall& c, MPI_Info h, InfoEntries*& out) {
  if (int e = check_info(c, h, out, false)) return e;
  if (h == MPI_INFO_ENV) return arg_error(c, "MPI_INFO_ENV cannot be changed");
  return MPI_SUCCESS;
}

InfoEntries::iterator find_key(InfoEntries& entries, const char* key) {
  return std::find_if(entries.begin(), entries.end(),
                      [key](const auto& kv) { return kv.first == key; });
}

} // namespace

extern "C" {

int PMPI_Info_create(MPI_Info* info) {
  ApiCall c("MPI_Info_create");
  if (!info) return arg_error(c, "null info argument");
  *info = c.w.infos().add();
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_create)

// MPI-4.0: an info object with MPI_INFO_ENV's pairs (none: the simulated processes are not
// started by a launcher whose settings would mean anything on the target machine). Allowed
// before MPI_Init, so no initialization check.
int PMPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  ApiCall c("MPI_Info_create_env");
  if (argc < 0 || (argc > 0 && !argv)) return arg_error(c, "argc and argv do not match");
  if (!info) return arg_error(c, "null info argument");
  *info = c.w.infos().add();
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_create_env)

int PMPI_Info_free(MPI_Info* info) {
  ApiCall c("MPI_Info_free");
  InfoEntries* entries;
  if (!info) return arg_error(c, "null info argument");
  if (int e = check_writable(c, *info, entries)) return e;
  c.w.infos().erase(*info);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_free)

int PMPI_Info_set(MPI_Info info, const char* key, const char* value) {
  ApiCall c("MPI_Info_set");
  InfoEntries* entries;
  if (int e = check_writable(c, info, entries)) return e;
  if (int e = check_key(c, key)) return e;
  if (!value) return arg_error(c, "null value");
  if (strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL)
    return c.error(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE,
                   "info value longer than MPI_MAX_INFO_VAL = {}", MPI_MAX_INFO_VAL);
  auto it = find_key(*entries, key);
  if (it != entries->end())
    it->second = value;
  else
    entries->emplace_back(key, value);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_set)

int PMPI_Info_delete(MPI_Info info, const char* key) {
  ApiCall c("MPI_Info_delete");
  InfoEntries* entries;
  if (int e = check_writable(c, info, entries)) return e;
  if (int e = check_key(c, key)) return e;
  auto it = find_key(*entries, key);
  if (it == entries->end())
    return c.error(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, "no info key \"{}\"", key);
  entries->erase(it);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_delete)

int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  ApiCall c("MPI_Info_get");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, false)) return e;
  if (int e = check_key(c, key)) return e;
  if (valuelen < 0) return arg_error(c, "negative valuelen");
  if (!value || !flag) return arg_error(c, "null value or flag argument");
  auto it = find_key(*entries, key);
  *flag = it != entries->end();
  if (*flag) {
    // At most valuelen characters, then the terminating null (value has valuelen + 1 bytes).
    const std::size_t n = std::min(it->second.size(), static_cast<std::size_t>(valuelen));
    std::memcpy(value, it->second.data(), n);
    value[n] = '\0';
  }
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_get)

int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  ApiCall c("MPI_Info_get_valuelen");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, false)) return e;
  if (int e = check_key(c, key)) return e;
  if (!valuelen || !flag) return arg_error(c, "null valuelen or flag argument");
  auto it = find_key(*entries, key);
  *flag = it != entries->end();
  if (*flag) *valuelen = static_cast<int>(it->second.size());
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_get_valuelen)

// MPI-4.0: `buflen` in, the room in `value`; out, the value's length with its terminating null.
int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  ApiCall c("MPI_Info_get_string");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, false)) return e;
  if (int e = check_key(c, key)) return e;
  if (!buflen || !flag || *buflen < 0 || (*buflen > 0 && !value))
    return arg_error(c, "null or negative buflen, or null value or flag argument");
  auto it = find_key(*entries, key);
  *flag = it != entries->end();
  if (!*flag) return MPI_SUCCESS;
  if (*buflen > 0) {
    const std::size_t n = std::min(it->second.size(), static_cast<std::size_t>(*buflen - 1));
    std::memcpy(value, it->second.data(), n);
    value[n] = '\0';
  }
  *buflen = static_cast<int>(it->second.size()) + 1;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_get_string)

int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  ApiCall c("MPI_Info_get_nkeys");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, false)) return e;
  if (!nkeys) return arg_error(c, "null nkeys argument");
  *nkeys = static_cast<int>(entries->size());
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_get_nkeys)

int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  ApiCall c("MPI_Info_get_nthkey");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, false)) return e;
  if (n < 0 || n >= static_cast<int>(entries->size()))
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "key number {} of an info object with {} keys", n,
                   entries->size());
  if (!key) return arg_error(c, "null key argument");
  const std::string& k = (*entries)[static_cast<std::size_t>(n)].first;
  std::memcpy(key, k.c_str(), k.size() + 1);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_get_nthkey)

int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  ApiCall c("MPI_Info_dup");
  InfoEntries* entries;
  if (int e = check_info(c, info, entries, false)) return e;
  if (!newinfo) return arg_error(c, "null newinfo argument");
  *newinfo = c.w.infos().add(*entries);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Info_dup)

} // extern "C"
