#include "op_log.hpp"

#include <algorithm>
#include <array>

#include <fmt/ranges.h>

#include "api_call.hpp"
#include "datatype.hpp"
#include "datatype_wire.hpp"
#include "op.hpp"
#include "rank_list.hpp"

namespace mpilite {
namespace {

/// Buffered text per rank before it goes to the rank's file.
constexpr std::size_t kFlushBytes = 1 << 16;

/// Calls that replay re-issues (mpisim-replay knows each by its recorded name).
constexpr std::array kRecorded = {
    "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPISIM_Compute",
    // The C library's sleeps: recorded as MPISIM_Compute's time.
    "sleep", "usleep", "nanosleep", "clock_nanosleep", "MPI_Send", "MPI_Ssend", "MPI_Rsend",
    "MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv",
    "MPI_Sendrecv_replace", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test",
    "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Probe", "MPI_Iprobe", "MPI_Barrier",
    "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan", "MPI_Gather",
    "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall",
    "MPI_Alltoallv", "MPI_Reduce_scatter_block", "MPI_Comm_split", "MPI_Comm_dup", "MPI_Comm_free",
    // Format 3: topologies and communicators from groups (re-created as recorded), persistent
    // and buffered point-to-point, non-blocking collectives.
    "MPI_Cart_create", "MPI_Cart_sub", "MPI_Graph_create", "MPI_Dist_graph_create",
    "MPI_Dist_graph_create_adjacent", "MPI_Comm_split_type", "MPI_Get_processor_name",
    // The C library's host name is the node's name, as MPI_Get_processor_name (api_libc_host.cpp).
    "gethostname", "uname", "MPI_Comm_create", "MPI_Comm_create_group", "MPI_Send_init",
    "MPI_Bsend_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Recv_init", "MPI_Start",
    "MPI_Startall", "MPI_Request_free", "MPI_Request_get_status", "MPI_Buffer_attach",
    "MPI_Buffer_detach", "MPI_Bsend", "MPI_Ibsend", "MPI_Reduce_scatter", "MPI_Alltoallw",
    "MPI_Ibarrier", "MPI_Ibcast", "MPI_Ireduce", "MPI_Iallreduce", "MPI_Iscan", "MPI_Iexscan",
    "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block", "MPI_Igather", "MPI_Igatherv",
    "MPI_Iscatter", "MPI_Iscatterv", "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Ialltoall",
    "MPI_Ialltoallv", "MPI_Ialltoallw", "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv", "MPI_Imrecv",
    "MPI_Cancel", "MPI_Neighbor_allgather", "MPI_Neighbor_allgatherv", "MPI_Neighbor_alltoall",
    "MPI_Neighbor_alltoallv", "MPI_Neighbor_alltoallw", "MPI_Ineighbor_allgather",
    "MPI_Ineighbor_allgatherv", "MPI_Ineighbor_alltoall", "MPI_Ineighbor_alltoallv",
    "MPI_Ineighbor_alltoallw",
    // Format 4: persistent collectives, MPI_Isendrecv, the non-blocking and info forms of
    // MPI_Comm_dup, partitioned communication, intercommunicators.
    "MPI_Barrier_init", "MPI_Bcast_init", "MPI_Reduce_init", "MPI_Allreduce_init", "MPI_Scan_init",
    "MPI_Exscan_init", "MPI_Reduce_scatter_init", "MPI_Reduce_scatter_block_init",
    "MPI_Gather_init", "MPI_Gatherv_init", "MPI_Scatter_init", "MPI_Scatterv_init",
    "MPI_Allgather_init", "MPI_Allgatherv_init", "MPI_Alltoall_init", "MPI_Alltoallv_init",
    "MPI_Alltoallw_init", "MPI_Neighbor_allgather_init", "MPI_Neighbor_allgatherv_init",
    "MPI_Neighbor_alltoall_init", "MPI_Neighbor_alltoallv_init", "MPI_Neighbor_alltoallw_init",
    "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Comm_dup_with_info", "MPI_Comm_idup",
    "MPI_Comm_idup_with_info", "MPI_Psend_init", "MPI_Precv_init", "MPI_Pready", "MPI_Pready_range",
    "MPI_Pready_list", "MPI_Parrived", "MPI_Intercomm_create", "MPI_Intercomm_merge",
    // Format 6: one-sided communication on windows of memory (not dynamic windows, whose
    // displacements are the program's addresses), with the order in which each passive target
    // served its origins.
    "MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_free", "MPI_Put",
    "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op", "MPI_Compare_and_swap",
    "MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate", "MPI_Win_fence",
    "MPI_Win_post", "MPI_Win_start", "MPI_Win_complete", "MPI_Win_wait", "MPI_Win_test",
    "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_lock_all", "MPI_Win_unlock_all", "MPI_Win_flush",
    "MPI_Win_flush_local", "MPI_Win_flush_all", "MPI_Win_flush_local_all", "MPI_Win_sync",
    // Format 7: MPI-IO. An access costs by its size (docs/model.md, File I/O), so it is recorded
    // by its count and datatype, as a message is; the replay's files are stand-ins.
    "MPI_File_open", "MPI_File_close", "MPI_File_delete", "MPI_File_set_size",
    "MPI_File_preallocate", "MPI_File_sync", "MPI_File_set_atomicity", "MPI_File_set_view",
    "MPI_File_seek_shared", "MPI_File_read", "MPI_File_write", "MPI_File_read_all",
    "MPI_File_write_all", "MPI_File_read_at", "MPI_File_write_at", "MPI_File_read_at_all",
    "MPI_File_write_at_all", "MPI_File_read_shared", "MPI_File_write_shared",
    "MPI_File_read_ordered", "MPI_File_write_ordered", "MPI_File_iread", "MPI_File_iwrite",
    "MPI_File_iread_at", "MPI_File_iwrite_at", "MPI_File_iread_shared", "MPI_File_iwrite_shared",
    "MPI_File_iread_all", "MPI_File_iwrite_all", "MPI_File_iread_at_all", "MPI_File_iwrite_at_all",
    "MPI_File_read_all_begin", "MPI_File_write_all_begin", "MPI_File_read_at_all_begin",
    "MPI_File_write_at_all_begin", "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin",
    "MPI_File_read_all_end", "MPI_File_write_all_end", "MPI_File_read_at_all_end",
    "MPI_File_write_at_all_end", "MPI_File_read_ordered_end", "MPI_File_write_ordered_end",
    // Generalized requests (their callbacks are the program's: the replay's do nothing) and
    // sessions, with the communicators made from their groups.
    "MPI_Grequest_start", "MPI_Grequest_complete", "MPI_Session_init", "MPI_Session_finalize",
    "MPI_Comm_create_from_group", "MPI_Intercomm_create_from_groups"};

/// Calls that neither communicate nor advance a clock nor create what a recorded call uses
/// (datatypes are recorded by size, so their constructors need no replay).
constexpr std::array kLocal = {
    "MPI_Initialized", "MPI_Finalized", "MPI_Wtime", "MPISIM_Clock_ps",
    // The C library's clocks read the rank's clock as MPI_Wtime does (api_libc_time.cpp).
    "clock_gettime", "gettimeofday", "time", "timespec_get", "clock", "getrusage", "times",
    "MPISIM_Sample", // a skipped body is recorded as MPISIM_Compute
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Get_count", "MPI_Get_elements", "MPI_Get_elements_x",
    "MPI_Query_thread", "MPI_Is_thread_main", "MPI_Error_string", "MPI_Error_class",
    "MPI_Alloc_mem", "MPI_Free_mem", "MPI_Abort", "MPI_Type_size", "MPI_Type_size_x",
    "MPI_Type_get_extent", "MPI_Type_get_extent_x", "MPI_Type_get_true_extent",
    "MPI_Type_contiguous", "MPI_Type_vector", "MPI_Type_hvector", "MPI_Type_create_hvector",
    "MPI_Type_indexed", "MPI_Type_hindexed", "MPI_Type_create_hindexed",
    "MPI_Type_create_indexed_block", "MPI_Type_create_struct", "MPI_Type_struct",
    "MPI_Type_create_resized", "MPI_Type_create_subarray", "MPI_Type_dup", "MPI_Type_commit",
    "MPI_Type_free", "MPI_Type_get_name", "MPI_Type_set_name", "MPI_Op_create", "MPI_Op_create_c",
    "MPI_Op_free", "MPI_Op_commutative", "MPI_Comm_group", "MPI_Group_size", "MPI_Group_rank",
    "MPI_Group_free", "MPI_Group_translate_ranks", "MPI_Comm_compare", "MPI_Comm_get_name",
    "MPI_Comm_set_name", "MPI_Comm_test_inter", "MPI_Comm_remote_size", "MPI_Comm_remote_group",
    "MPI_Comm_set_errhandler", "MPI_Comm_get_errhandler", "MPI_Errhandler_free",
    "MPI_Comm_create_errhandler", "MPI_Status_set_elements", "MPI_Test_cancelled", "MPI_Pack_size",
    "MPI_Dims_create", "MPI_Get_address", "MPI_Address", "MPI_Type_extent", "MPI_Type_lb",
    "MPI_Type_ub", "MPI_Comm_get_attr", "MPI_Attr_get",
    // Groups and topologies are recorded by the communicators made of
    // them; their queries are local.
    "MPI_Group_incl", "MPI_Group_excl", "MPI_Group_range_incl", "MPI_Group_range_excl",
    "MPI_Group_union", "MPI_Group_intersection", "MPI_Group_difference", "MPI_Group_compare",
    "MPI_Cart_coords", "MPI_Cart_rank", "MPI_Cart_shift", "MPI_Cart_get", "MPI_Cartdim_get",
    "MPI_Cart_map", "MPI_Graph_map", "MPI_Topo_test", "MPI_Graphdims_get", "MPI_Graph_get",
    "MPI_Graph_neighbors_count", "MPI_Graph_neighbors", "MPI_Dist_graph_neighbors_count",
    "MPI_Dist_graph_neighbors", "MPI_Info_create", "MPI_Info_set", "MPI_Info_get", "MPI_Info_free",
    "MPI_Info_dup", "MPI_Info_delete", "MPI_Info_get_nkeys", "MPI_Info_get_nthkey",
    "MPI_Info_get_valuelen", "MPI_Wtick", "MPI_Get_version", "MPI_Get_library_version",
    "MPI_Reduce_local", // the host's work, charged as compute
    "MPI_Pack", "MPI_Unpack",
    // Windows' queries and settings (an error handler is the program's, as a communicator's).
    "MPI_Win_get_group", "MPI_Win_shared_query", "MPI_Win_get_attr", "MPI_Win_set_name",
    "MPI_Win_get_name", "MPI_Win_get_info", "MPI_Win_set_info", "MPI_Win_set_errhandler",
    "MPI_Win_get_errhandler", "MPI_Win_create_errhandler",
    // Files' queries, hints, error handlers and individual pointers: where the data of an
    // access lies is not what it costs.
    "MPI_File_get_size", "MPI_File_get_amode", "MPI_File_get_group", "MPI_File_get_info",
    "MPI_File_set_info", "MPI_File_get_atomicity", "MPI_File_create_errhandler",
    "MPI_File_set_errhandler", "MPI_File_get_errhandler", "MPI_File_get_view",
    "MPI_File_get_type_extent", "MPI_File_seek", "MPI_File_get_position",
    "MPI_File_get_byte_offset", "MPI_File_get_position_shared",
    // What a generalized request's query callback sets, and sessions' queries and handlers.
    "MPI_Status_set_elements_x", "MPI_Status_set_cancelled", "MPI_Session_get_num_psets",
    "MPI_Session_get_nth_pset", "MPI_Session_get_pset_info", "MPI_Session_get_info",
    "MPI_Group_from_session_pset", "MPI_Session_create_errhandler", "MPI_Session_set_errhandler",
    "MPI_Session_get_errhandler",
    // Calling an error handler is raising an error (MPI calls made by the program's callbacks,
    // error handlers among them, are part of the call that ran them: docs/observing.md).
    "MPI_Comm_call_errhandler", "MPI_Win_call_errhandler", "MPI_File_call_errhandler",
    "MPI_Session_call_errhandler"};

template <std::size_t N>
bool contains(const std::array<const char*, N>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [name](const char* n) { return name == n; });
}

} // namespace

std::string hex_word(char prefix, std::span<const std::byte> bytes) {
  std::string word(1, prefix);
  for (std::byte b : bytes)
    fmt::format_to(std::back_inserter(word), "{:02x}", static_cast<unsigned>(b));
  return word;
}

OpLog::~OpLog() {
  flush_all();
}

bool OpLog::covers(std::string_view call) {
  return contains(kRecorded, call) || contains(kLocal, call);
}

std::string OpLog::refusal(int rank, std::string_view what) {
  return fmt::format("rank {}: {} is not recorded by MPISIM_RECORD (docs/observing.md lists the "
                     "calls it records); run this program without MPISIM_RECORD: `mpisim-study "
                     "whatif ./prog args` runs each variant of such a program live instead of "
                     "replaying a record",
                     rank, what);
}

OpLog::RankLog& OpLog::of(int rank) {
  return ranks_[rank];
}

void OpLog::compute(int rank, SimTime ps, bool measured) {
  RankLog& l = of(rank);
  (measured ? l.measured : l.declared) += ps;
}

int OpLog::current_rank(ApiCall& c) const {
  return c.r.id;
}

bool OpLog::outermost(ApiCall& c) const {
  return c.r.call_depth == 1;
}

void OpLog::enter(int rank) {
  auto& served = World::get().served;
  if (served.empty()) return;
  auto it = served.find(rank);
  if (it == served.end() || it->second.empty()) return;
  std::vector<int>& pending = of(rank).served;
  pending.insert(pending.end(), it->second.begin(), it->second.end());
  it->second.clear();
}

void OpLog::begin_line(int, RankLog& l, const char* op) {
  // Compute charged since the last operation goes first, so that replay charges it before.
  if (l.measured || l.declared)
    fmt::format_to(std::back_inserter(l.text), "compute {} {}\n", l.measured, l.declared);
  l.measured = l.declared = 0;
  // Batches served before the call began: the rank's code ran after them, and may have read
  // what they wrote (a call records its line at its start or its end: either way after them).
  if (!l.served.empty())
    fmt::format_to(std::back_inserter(l.text), "served {} {}\n", l.served.size(),
                   fmt::join(l.served, " "));
  l.served.clear();
  l.text += op;
}

void OpLog::end_line(int rank, RankLog& l) {
  l.text += '\n';
  if (l.text.size() < kFlushBytes) return;
  flush_(rank, l.text);
  l.text.clear();
}

void OpLog::outcome(ApiCall& c, const Outcome& o) {
  if (!outermost(c)) return;
  const int rank = current_rank(c);
  RankLog& l = of(rank);
  // No compute line comes between: the call charged its compute before its own line.
  l.text += "outcome";
  put(l, o.flag ? 1 : 0);
  put(l, o.indices.size());
  for (int i : o.indices)
    put(l, i);
  put(l, o.matches.size());
  for (const Outcome::Match& m : o.matches) {
    put(l, m.source);
    put(l, m.tag);
  }
  end_line(rank, l);
}

void OpLog::flush_all() {
  for (auto& [rank, l] : ranks_) {
    if (l.measured || l.declared)
      fmt::format_to(std::back_inserter(l.text), "compute {} {}\n", l.measured, l.declared);
    l.measured = l.declared = 0;
    if (!l.text.empty()) flush_(rank, l.text);
    l.text.clear();
  }
}

void OpLog::put(RankLog& l, CommArg a) {
  long index = -1;
  if (a.h == MPI_COMM_WORLD) {
    index = 0;
  } else if (a.h == MPI_COMM_SELF) {
    index = 1;
  } else {
    index = l.comms.find(a.h);
  }
  put(l, index);
}

void OpLog::put(RankLog& l, NewCommArg a) {
  put(l, l.comms.add(a.h, MPI_COMM_NULL));
}

void OpLog::put(RankLog& l, RequestArg a) {
  put(l, a.h == MPI_REQUEST_NULL ? -1L : l.requests.find(a.h));
}

void OpLog::put(RankLog& l, NewRequestArg a) {
  // Every line that makes a request takes the next index, as the replay's does, even where the
  // call gave back MPI_REQUEST_NULL: the indices stay in step.
  l.requests.of[a.h] = l.requests.next;
  put(l, l.requests.next++);
}

void OpLog::put(RankLog& l, WinArg a) {
  put(l, l.windows.find(a.h));
}

void OpLog::put(RankLog& l, NewWinArg a) {
  put(l, l.windows.add(a.h, MPI_WIN_NULL));
}

void OpLog::put(RankLog& l, FileArg a) {
  put(l, l.files.find(a.h));
}

void OpLog::put(RankLog& l, NewFileArg a) {
  put(l, l.files.add(a.h, MPI_FILE_NULL));
}

void OpLog::put(RankLog& l, TargetTypeArg a) {
  if (builtin_datatype(a.h)) return put(l, static_cast<long long>(a.h));
  const Datatype* t = World::get().datatype(a.h);
  if (!t) return put(l, static_cast<long long>(MPI_DATATYPE_NULL));
  std::vector<std::byte> layout;
  encode_layout(*t, layout);
  l.text += ' ';
  l.text += hex_word('L', layout);
}

void OpLog::put(RankLog& l, MessageArg a) {
  put(l, l.messages.find(a.h));
}

void OpLog::put(RankLog& l, NewMessageArg a) {
  put(l, l.messages.add(a.h, MPI_MESSAGE_NULL));
}

void OpLog::put(RankLog& l, RequestsArg a) {
  put(l, a.count);
  for (int i = 0; i < a.count; ++i)
    put(l, RequestArg{a.h[i]});
}

void OpLog::put(RankLog& l, TypeArg a) {
  // Predefined types by handle; derived ones by size (and their basic type for reductions).
  if (builtin_datatype(a.h)) return put(l, static_cast<long long>(a.h));
  const Datatype* t = World::get().datatype(a.h);
  if (!t) return put(l, static_cast<long long>(MPI_DATATYPE_NULL));
  fmt::format_to(std::back_inserter(l.text), " d{}:{}:{}", t->size,
                 static_cast<long long>(t->basic), t->basic_count);
}

void OpLog::put(RankLog& l, OpArg a) {
  if (builtin_op(a.h)) return put(l, static_cast<long long>(a.h));
  const Op* o = World::get().op(a.h);
  put(l, o && !o->commutative ? "u0" : "u1");
}

void OpLog::put(RankLog& l, CountsArg a) {
  const Comm* comm = World::get().comm(a.comm);
  const int n = a.counts && comm ? comm->peer_count() : 0;
  put(l, n);
  for (int i = 0; i < n; ++i)
    put(l, a.counts[i]);
}

void OpLog::put(RankLog& l, IntsArg a) {
  const int n = a.v ? a.n : 0;
  put(l, n);
  for (int i = 0; i < n; ++i)
    put(l, a.v[i]);
}

void OpLog::put(RankLog& l, GroupArg a) {
  const Comm* comm = World::get().comm(a.comm);
  const int n = comm ? a.members->size() : 0;
  put(l, n);
  for (int i = 0; i < n; ++i)
    put(l, comm->rank_of(a.members->world(i)));
}

void OpLog::put(RankLog& l, TypesArg a) {
  const int n = a.h ? a.n : 0;
  put(l, n);
  for (int i = 0; i < n; ++i)
    put(l, TypeArg{a.h[i]});
}

} // namespace mpilite
