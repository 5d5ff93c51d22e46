// MPI entry points: the tool information interface (MPI-3.1 chapter 14, MPI-4.0 chapter 15).
// mpisim exports no control or performance variables, no categories, and (MPI-4.0 section
// 15.3.8) no event types and no event sources, which MPI allows: the counts are 0, every index is
// invalid, no variable or event handle can exist (nor an event instance, which only a callback
// receives), and every name is unknown. Initialization is counted per rank, and
// performance-variable sessions can be made and freed (they hold no handles). MPI_T calls return
// their codes without calling an error handler, as MPI requires.
#include <algorithm>
#include <vector>

#include "api_call.hpp"

using namespace mpilite;

namespace {

/// The frame of every MPI_T call but MPI_T_init_thread: MPI_T_ERR_NOT_INITIALIZED outside
/// MPI_T_init_thread / MPI_T_finalize, else what `body` returns.
template <class Body> int tool_call(const char* name, Body body) {
  ApiCall c(name);
  if (c.r.rare_or_default().tool_inits == 0) return MPI_T_ERR_NOT_INITIALIZED;
  return body(c.r);
}

/// A call about a variable, category, event type or source by index: there is none.
int no_index(const char* name) {
  return tool_call(name, [](Rank&) { return MPI_T_ERR_INVALID_INDEX; });
}

/// A call about a variable or event handle, an event instance or an enumeration: none can exist.
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
  const std::vector<bool>& open = r.rare_or_default().tool_sessions;
  return i >= 1 && i <= open.size() && open[i - 1];
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

/// PMPI_name and its weak alias MPI_name, whose parameters (`params`, unnamed: none is read) do
/// not change the answer: `answer` gives it.
#define MPISIM_TOOL_ANSWER(name, params, answer)                                                   \
  extern "C" int PMPI_##name params {                                                              \
    return answer("MPI_" #name);                                                                   \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name)

/// PMPI_name and its weak alias MPI_name, which count what mpisim exports of something: none.
#define MPISIM_TOOL_COUNT(name)                                                                    \
  extern "C" int PMPI_##name(int* count) {                                                         \
    return zero_count("MPI_" #name, count);                                                        \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name)

extern "C" {

int PMPI_T_init_thread(int required, int* provided) {
  ApiCall c("MPI_T_init_thread");
  if (!provided) return MPI_T_ERR_INVALID;
  // As MPI_Init_thread: a rank is one fiber and can rely on MPI_THREAD_FUNNELED at most.
  *provided = std::min(required, MPI_THREAD_FUNNELED);
  ++c.r.rare().tool_inits;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(T_init_thread)

int PMPI_T_finalize(void) {
  return tool_call("MPI_T_finalize", [](Rank& r) {
    RankRare& rare = r.rare();
    if (--rare.tool_inits == 0) rare.tool_sessions.clear();
    return MPI_SUCCESS;
  });
}
MPISIM_WEAK_ALIAS(T_finalize)

MPISIM_TOOL_COUNT(T_cvar_get_num)

MPISIM_TOOL_COUNT(T_pvar_get_num)

MPISIM_TOOL_COUNT(T_category_get_num)

// The categories never change: their set is empty from the start.
MPISIM_TOOL_COUNT(T_category_changed)

MPISIM_TOOL_ANSWER(T_cvar_get_info,
                   (int, char*, int*, int*, MPI_Datatype*, MPI_T_enum*, char*, int*, int*, int*),
                   no_index)

MPISIM_TOOL_ANSWER(T_cvar_handle_alloc, (int, void*, MPI_T_cvar_handle*, int*), no_index)

MPISIM_TOOL_ANSWER(T_pvar_get_info,
                   (int, char*, int*, int*, int*, MPI_Datatype*, MPI_T_enum*, char*, int*, int*,
                    int*, int*, int*),
                   no_index)

MPISIM_TOOL_ANSWER(T_category_get_info, (int, char*, int*, char*, int*, int*, int*, int*), no_index)

MPISIM_TOOL_ANSWER(T_category_get_cvars, (int, int, int[]), no_index)

MPISIM_TOOL_ANSWER(T_category_get_pvars, (int, int, int[]), no_index)

MPISIM_TOOL_ANSWER(T_category_get_categories, (int, int, int[]), no_index)

MPISIM_TOOL_ANSWER(T_cvar_get_index, (const char*, int*), no_name)

MPISIM_TOOL_ANSWER(T_pvar_get_index, (const char*, int, int*), no_name)

MPISIM_TOOL_ANSWER(T_category_get_index, (const char*, int*), no_name)

MPISIM_TOOL_ANSWER(T_cvar_handle_free, (MPI_T_cvar_handle*), no_handle)

MPISIM_TOOL_ANSWER(T_cvar_read, (MPI_T_cvar_handle, void*), no_handle)

MPISIM_TOOL_ANSWER(T_cvar_write, (MPI_T_cvar_handle, const void*), no_handle)

MPISIM_TOOL_ANSWER(T_enum_get_info, (MPI_T_enum, int*, char*, int*), no_handle)

MPISIM_TOOL_ANSWER(T_enum_get_item, (MPI_T_enum, int, int*, char*, int*), no_handle)

int PMPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  return tool_call("MPI_T_pvar_session_create", [session](Rank& r) {
    if (!session) return MPI_T_ERR_INVALID;
    std::vector<bool>& sessions = r.rare().tool_sessions;
    sessions.push_back(true);
    *session = reinterpret_cast<MPI_T_pvar_session>(sessions.size());
    return MPI_SUCCESS;
  });
}
MPISIM_WEAK_ALIAS(T_pvar_session_create)

int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  return tool_call("MPI_T_pvar_session_free", [session](Rank& r) {
    if (!session || !session_open(r, *session)) return MPI_T_ERR_INVALID_SESSION;
    r.rare().tool_sessions[reinterpret_cast<std::uintptr_t>(*session) - 1] = false;
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

// MPI-4.0 events and their sources (section 15.3.8): there are none.

MPISIM_TOOL_COUNT(T_event_get_num)

MPISIM_TOOL_COUNT(T_source_get_num)

MPISIM_TOOL_ANSWER(T_event_get_info,
                   (int, char*, int*, int*, MPI_Datatype[], MPI_Aint[], int*, MPI_T_enum*,
                    MPI_Info*, char*, int*, int*),
                   no_index)

MPISIM_TOOL_ANSWER(T_event_handle_alloc, (int, void*, MPI_Info, MPI_T_event_registration*),
                   no_index)

MPISIM_TOOL_ANSWER(T_source_get_info,
                   (int, char*, int*, char*, int*, MPI_T_source_order*, MPI_Count*, MPI_Count*,
                    MPI_Info*),
                   no_index)

MPISIM_TOOL_ANSWER(T_source_get_timestamp, (int, MPI_Count*), no_index)

MPISIM_TOOL_ANSWER(T_category_get_num_events, (int, int*), no_index)

MPISIM_TOOL_ANSWER(T_category_get_events, (int, int, int[]), no_index)

MPISIM_TOOL_ANSWER(T_event_get_index, (const char*, int*), no_name)

MPISIM_TOOL_ANSWER(T_event_handle_set_info, (MPI_T_event_registration, MPI_Info), no_handle)

MPISIM_TOOL_ANSWER(T_event_handle_get_info, (MPI_T_event_registration, MPI_Info*), no_handle)

MPISIM_TOOL_ANSWER(T_event_register_callback,
                   (MPI_T_event_registration, MPI_T_cb_safety, MPI_Info, void*,
                    MPI_T_event_cb_function*),
                   no_handle)

MPISIM_TOOL_ANSWER(T_event_callback_set_info, (MPI_T_event_registration, MPI_T_cb_safety, MPI_Info),
                   no_handle)

MPISIM_TOOL_ANSWER(T_event_callback_get_info,
                   (MPI_T_event_registration, MPI_T_cb_safety, MPI_Info*), no_handle)

MPISIM_TOOL_ANSWER(T_event_handle_free,
                   (MPI_T_event_registration, void*, MPI_T_event_free_cb_function*), no_handle)

MPISIM_TOOL_ANSWER(T_event_set_dropped_handler,
                   (MPI_T_event_registration, MPI_T_event_dropped_cb_function*), no_handle)

MPISIM_TOOL_ANSWER(T_event_read, (MPI_T_event_instance, int, void*), no_handle)

MPISIM_TOOL_ANSWER(T_event_copy, (MPI_T_event_instance, void*), no_handle)

MPISIM_TOOL_ANSWER(T_event_get_timestamp, (MPI_T_event_instance, MPI_Count*), no_handle)

MPISIM_TOOL_ANSWER(T_event_get_source, (MPI_T_event_instance, int*), no_handle)

} // extern "C"
