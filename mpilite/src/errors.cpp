#include "errors.hpp"

#include <fmt/format.h>

#include "world.hpp"

namespace mpilite {
namespace {

struct ErrorClass {
  int code;
  const char* name;
  const char* text;
};

constexpr ErrorClass kClasses[] = {
    {MPI_SUCCESS, "MPI_SUCCESS", "no error"},
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT", "invalid count"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype"},
    {MPI_ERR_TAG, "MPI_ERR_TAG", "invalid tag"},
    {MPI_ERR_COMM, "MPI_ERR_COMM", "invalid communicator"},
    {MPI_ERR_RANK, "MPI_ERR_RANK", "invalid rank"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT", "invalid root"},
    {MPI_ERR_GROUP, "MPI_ERR_GROUP", "invalid group"},
    {MPI_ERR_OP, "MPI_ERR_OP", "invalid reduction operation"},
    {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid topology"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS", "invalid dimensions"},
    {MPI_ERR_ARG, "MPI_ERR_ARG", "invalid argument"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error"},
    {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated: receive buffer too small"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER", "other error"},
    {MPI_ERR_INTERN, "MPI_ERR_INTERN", "internal error"},
    {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "error code is in status"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING", "pending request"},
    {MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request"},
    {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid keyval"},
    {MPI_ERR_INFO, "MPI_ERR_INFO", "invalid info object"},
    {MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "info key too long"},
    {MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "info value too long"},
    {MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "no such info key"},
};

const ErrorClass* find(int code) {
  for (const ErrorClass& c : kClasses)
    if (c.code == code) return &c;
  return nullptr;
}

} // namespace

const char* error_class_name(int code) {
  const ErrorClass* c = find(code);
  return c ? c->name : "MPI_ERR_UNKNOWN";
}

const char* error_class_text(int code) {
  const ErrorClass* c = find(code);
  return c ? c->text : "unknown error code";
}

int raise_error(World& w, Rank& rank, MPI_Comm comm, const char* call, int code,
                std::string detail) {
  if (comm == MPI_COMM_NULL) comm = MPI_COMM_WORLD;
  const MPI_Errhandler handler = rank.comms.errhandler(comm);
  if (handler == MPI_ERRORS_RETURN) return code;
  if (MPI_Comm_errhandler_function* fn = w.errhandlers().function(handler)) {
    // The handler may end the rank (MPI_Abort, exit) and never return here: free the text now.
    std::string().swap(detail);
    fn(&comm, &code);
    return code;
  }
  detail.insert(0, fmt::format("rank {}: {}: {}: ", rank.id, call, error_class_name(code)));
  w.stop(EndReason::FatalError, 1, std::move(detail));
}

} // namespace mpilite
