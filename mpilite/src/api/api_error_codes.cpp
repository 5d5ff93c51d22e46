// MPI entry points: error classes, codes and strings (MPI-3.1 sections 8.4 and 8.5), the
// predefined ones and those the program adds, which are the calling rank's own.
#include <cstdio>
#include <cstring>

#include "api_call.hpp"
#include "user_errors.hpp"

using namespace mpilite;

namespace {

/// The class or code `code` the calling rank added, or null (also before MPI_Init).
UserError* added(ApiCall& c, int code) {
  return code > MPI_ERR_LASTCODE && c.r.initialized ? find_user_error(c.r.id, code) : nullptr;
}

} // namespace

extern "C" {

int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  ApiCall c("MPI_Error_string");
  if (!string || !resultlen)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null string or resultlen pointer");
  if (const UserError* u = added(c, errorcode))
    std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", u->text.c_str());
  else if (is_error_code(errorcode))
    std::snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", error_class_name(errorcode),
                  error_class_text(errorcode));
  else
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "{} is not an MPI error code", errorcode);
  *resultlen = static_cast<int>(std::strlen(string));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Error_string)

int PMPI_Error_class(int errorcode, int* errorclass) {
  ApiCall c("MPI_Error_class");
  if (!errorclass) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null errorclass pointer");
  if (const UserError* u = added(c, errorcode)) {
    *errorclass = u->error_class;
    return MPI_SUCCESS;
  }
  if (!is_error_code(errorcode))
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "{} is not an MPI error code", errorcode);
  *errorclass = errorcode; // every predefined error code of mpisim is its own class
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Error_class)

int PMPI_Add_error_class(int* errorclass) {
  ApiCall c("MPI_Add_error_class");
  if (int e = c.check_init()) return e;
  if (!errorclass) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null errorclass pointer");
  *errorclass = add_error_class(c.r.id);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Add_error_class)

int PMPI_Add_error_code(int errorclass, int* errorcode) {
  ApiCall c("MPI_Add_error_code");
  if (int e = c.check_init()) return e;
  if (!errorcode) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null errorcode pointer");
  const UserError* u = added(c, errorclass);
  const bool is_class =
      u ? u->error_class == errorclass : is_error_code(errorclass) && errorclass != MPI_SUCCESS;
  if (!is_class)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "{} is not an error class (a predefined one, or one this rank added with "
                   "MPI_Add_error_class)",
                   errorclass);
  *errorcode = add_error_code(c.r.id, errorclass);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Add_error_code)

int PMPI_Add_error_string(int errorcode, const char* string) {
  ApiCall c("MPI_Add_error_string");
  if (int e = c.check_init()) return e;
  if (!string) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null string");
  UserError* u = added(c, errorcode);
  if (!u)
    return c.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "{} is not an error class or code this rank added (the strings of predefined "
                   "ones are fixed)",
                   errorcode);
  u->text.assign(string, strnlen(string, MPI_MAX_ERROR_STRING - 1));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Add_error_string)

} // extern "C"
