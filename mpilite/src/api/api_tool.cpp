// MPI entry points: the tool information interface (MPI-3.1 chapter 14). mpisim exports no control
// or performance variables and no categories, which MPI allows (section 14.3): the counts are 0,
// every index is invalid, no variable handle can exist, and every name is unknown. Initialization
// is counted per rank, and performance-variable sessions can be made and freed (they hold no
// handles). MPI_T calls return their codes without calling an error handler, as MPI requires.
#include <algorithm>

#include "api_call.hpp"

using namespace mpilite;

namespace {

/// The frame of every MPI_T call but MPI_T_init_thread: MPI_T_ERR_NOT_INITIALIZED outside
/// MPI_T_init_thread / MPI_T_finalize, else what `body` returns.
template <class Body> int tool_call(const char* name, Body body) {
  ApiCall c(name);
  if (c.r.tool_inits == 0) return MPI_T_ERR_NOT_INITIALIZED;
  return body(c.r);
}

/// A call about a variable or category by index: there is none.
int no_index(const char* name) {
  return tool_call(name, [](Rank&) { return MPI_T_ERR_INVALID_INDEX; });
}

/// A call about a variable handle or enumeration: none can exist.
int no_handle(const char* name) {
  return tool_call(name, [](Rank&) { return MPI_T_ERR_INVALID_HANDLE; });
}

/// A look-up by name: no name is known.
int no_name(const char* name) {
  return tool_call(name, [](Rank&) { return MPI_T_ERR_INVALID_NAME; });
}

int zero_count(const char* name, int* count) {
  return tool_call(name, [count](Rank&) {
    if (!count) return MPI_T_ERR_INVALID;
    *count = 0;
    return MPI_SUCCESS;
  });
}

/// Whether `s` is an open performance-variable session of rank `r`.
bool session_open(const Rank& r, MPI_T_pvar_session s) {
  const auto i = reinterpret_cast<std::uintptr_t>(s);
  return i >= 1 && i <= r.tool_sessions.size() && r.tool_sessions[i - 1];
}

/// A call on a session and a handle: the session must be open; MPI_T_PVAR_ALL_HANDLES names
/// the session's handles, of which there are none (`all_allowed`: a call that accepts it).
int session_handle(const char* name, MPI_T_pvar_session s, MPI_T_pvar_handle h, bool all_allowed) {
  return tool_call(name, [&](Rank& r) {
    if (!session_open(r, s)) return MPI_T_ERR_INVALID_SESSION;
    if (all_allowed && h == MPI_T_PVAR_ALL_HANDLES) return MPI_SUCCESS;
    return MPI_T_ERR_INVALID_HANDLE;
  });
}

} // namespace

extern "C" {

int PMPI_T_init_thread(int required, int* provided) {
  ApiCall c("MPI_T_init_thread");
  if (!provided) return MPI_T_ERR_INVALID;
  // As MPI_Init_thread: a rank is one fiber and can rely on MPI_THREAD_FUNNELED at most.
  *provided = std::min(required, MPI_THREAD_FUNNELED);
  ++c.r.tool_inits;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(T_init_thread)

int PMPI_T_finalize(void) {
  return tool_call("MPI_T_finalize", [](Rank& r) {
    if (--r.tool_inits == 0) r.tool_sessions.clear();
    return MPI_SUCCESS;
  });
}
MPISIM_WEAK_ALIAS(T_finalize)

int PMPI_T_cvar_get_num(int* num_cvar) {
  return zero_count("MPI_T_cvar_get_num", num_cvar);
}
MPISIM_WEAK_ALIAS(T_cvar_get_num)

int PMPI_T_pvar_get_num(int* num_pvar) {
  return zero_count("MPI_T_pvar_get_num", num_pvar);
}
MPISIM_WEAK_ALIAS(T_pvar_get_num)

int PMPI_T_category_get_num(int* num_cat) {
  return zero_count("MPI_T_category_get_num", num_cat);
}
MPISIM_WEAK_ALIAS(T_category_get_num)

int PMPI_T_category_changed(int* update_number) {
  // The categories never change: their set is empty from the start.
  return zero_count("MPI_T_category_changed", update_number);
}
MPISIM_WEAK_ALIAS(T_category_changed)

int PMPI_T_cvar_get_info(int, char*, int*, int*, MPI_Datatype*, MPI_T_enum*, char*, int*, int*,
                         int*) {
  return no_index("MPI_T_cvar_get_info");
}
MPISIM_WEAK_ALIAS(T_cvar_get_info)

int PMPI_T_cvar_handle_alloc(int, void*, MPI_T_cvar_handle*, int*) {
  return no_index("MPI_T_cvar_handle_alloc");
}
MPISIM_WEAK_ALIAS(T_cvar_handle_alloc)

int PMPI_T_pvar_get_info(int, char*, int*, int*, int*, MPI_Datatype*, MPI_T_enum*, char*, int*,
                         int*, int*, int*, int*) {
  return no_index("MPI_T_pvar_get_info");
}
MPISIM_WEAK_ALIAS(T_pvar_get_info)

int PMPI_T_category_get_info(int, char*, int*, char*, int*, int*, int*, int*) {
  return no_index("MPI_T_category_get_info");
}
MPISIM_WEAK_ALIAS(T_category_get_info)

int PMPI_T_category_get_cvars(int, int, int[]) {
  return no_index("MPI_T_category_get_cvars");
}
MPISIM_WEAK_ALIAS(T_category_get_cvars)

int PMPI_T_category_get_pvars(int, int, int[]) {
  return no_index("MPI_T_category_get_pvars");
}
MPISIM_WEAK_ALIAS(T_category_get_pvars)

int PMPI_T_category_get_categories(int, int, int[]) {
  return no_index("MPI_T_category_get_categories");
}
MPISIM_WEAK_ALIAS(T_category_get_categories)

int PMPI_T_cvar_get_index(const char*, int*) {
  return no_name("MPI_T_cvar_get_index");
}
MPISIM_WEAK_ALIAS(T_cvar_get_index)

int PMPI_T_pvar_get_index(const char*, int, int*) {
  return no_name("MPI_T_pvar_get_index");
}
MPISIM_WEAK_ALIAS(T_pvar_get_index)

int PMPI_T_category_get_index(const char*, int*) {
  return no_name("MPI_T_category_get_index");
}
MPISIM_WEAK_ALIAS(T_category_get_index)

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle*) {
  return no_handle("MPI_T_cvar_handle_free");
}
MPISIM_WEAK_ALIAS(T_cvar_handle_free)

int PMPI_T_cvar_read(MPI_T_cvar_handle, void*) {
  return no_handle("MPI_T_cvar_read");
}
MPISIM_WEAK_ALIAS(T_cvar_read)

int PMPI_T_cvar_write(MPI_T_cvar_handle, const void*) {
  return no_handle("MPI_T_cvar_write");
}
MPISIM_WEAK_ALIAS(T_cvar_write)

int PMPI_T_enum_get_info(MPI_T_enum, int*, char*, int*) {
  return no_handle("MPI_T_enum_get_info");
}
MPISIM_WEAK_ALIAS(T_enum_get_info)

int PMPI_T_enum_get_item(MPI_T_enum, int, int*, char*, int*) {
  return no_handle("MPI_T_enum_get_item");
}
MPISIM_WEAK_ALIAS(T_enum_get_item)

int PMPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  return tool_call("MPI_T_pvar_session_create", [session](Rank& r) {
    if (!session) return MPI_T_ERR_INVALID;
    r.tool_sessions.push_back(true);
    *session = reinterpret_cast<MPI_T_pvar_session>(r.tool_sessions.size());
    return MPI_SUCCESS;
  });
}
MPISIM_WEAK_ALIAS(T_pvar_session_create)

int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  return tool_call("MPI_T_pvar_session_free", [session](Rank& r) {
    if (!session || !session_open(r, *session)) return MPI_T_ERR_INVALID_SESSION;
    r.tool_sessions[reinterpret_cast<std::uintptr_t>(*session) - 1] = false;
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
  });
}
MPISIM_WEAK_ALIAS(T_pvar_session_free)

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int, void*, MPI_T_pvar_handle*, int*) {
  return tool_call("MPI_T_pvar_handle_alloc", [session](Rank& r) {
    return session_open(r, session) ? MPI_T_ERR_INVALID_INDEX : MPI_T_ERR_INVALID_SESSION;
  });
}
MPISIM_WEAK_ALIAS(T_pvar_handle_alloc)

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  return session_handle("MPI_T_pvar_handle_free", session, handle ? *handle : nullptr, false);
}
MPISIM_WEAK_ALIAS(T_pvar_handle_free)

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return session_handle("MPI_T_pvar_start", session, handle, true);
}
MPISIM_WEAK_ALIAS(T_pvar_start)

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return session_handle("MPI_T_pvar_stop", session, handle, true);
}
MPISIM_WEAK_ALIAS(T_pvar_stop)

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return session_handle("MPI_T_pvar_reset", session, handle, true);
}
MPISIM_WEAK_ALIAS(T_pvar_reset)

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void*) {
  return session_handle("MPI_T_pvar_read", session, handle, false);
}
MPISIM_WEAK_ALIAS(T_pvar_read)

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void*) {
  return session_handle("MPI_T_pvar_write", session, handle, false);
}
MPISIM_WEAK_ALIAS(T_pvar_write)

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void*) {
  return session_handle("MPI_T_pvar_readreset", session, handle, false);
}
MPISIM_WEAK_ALIAS(T_pvar_readreset)

} // extern "C"
