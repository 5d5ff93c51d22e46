// MPI entry points: the MPI-4.0 large-count (`_c`) forms. mpisim counts elements in int, as
// MPI-3.1 does, so each form checks that its counts fit an int and calls the int form; a larger
// count is refused with MPI_ERR_COUNT, never truncated. Every form goes through one template,
// narrowed(): the parameter types of the int form say which arguments to check. Arrays and
// in-out values go through wrappers, Array and Through. The entry points below are written from
// MPICH's prototypes, one line each.
#include <climits>
#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "api_call.hpp"
#include "api_datatype.hpp"
#include "api_p2p.hpp"
#include "api_win.hpp"

using namespace mpilite;

namespace {

/// Where a refused count is reported: the call's communicator or window (handles are both int,
/// hence the wrappers).
struct OnComm {
  MPI_Comm comm;
};
struct OnWin {
  MPI_Win win;
};
OnComm on_comm(MPI_Comm comm) {
  return {comm};
}
OnWin on_win(MPI_Win win) {
  return {win};
}

template <class... Args>
int refuse(ApiCall& c, OnComm where, fmt::format_string<Args...> f, Args&&... args) {
  return c.error(where.comm, MPI_ERR_COUNT, f, std::forward<Args>(args)...);
}
template <class... Args>
int refuse(ApiCall& c, OnWin where, fmt::format_string<Args...> f, Args&&... args) {
  Window* w = nullptr;
  if (int e = check_window(c, where.win, w)) return e;
  return win_error(c, *w, MPI_ERR_COUNT, f, std::forward<Args>(args)...);
}

/// An array of counts or displacements of a large-count form (`n` entries; none if it is null),
/// as the int form's array of T (int, or MPI_Aint). A blocking int form reads it during the call;
/// a non-blocking or persistent one later too (its schedule runs after the call returns, and each
/// MPI_Start runs it again), so the values are shared with the request (keep_with_request).
template <class T> class Array {
public:
  template <class W>
  Array(const W* given, MPI_Count n)
      : given_(given != nullptr), values_(std::make_shared<std::vector<T>>()) {
    // A count above INT_MAX is refused before the call: no need to read that many entries.
    for (MPI_Count i = 0; given && i < n && n <= INT_MAX; ++i) {
      wide_.push_back(given[i]);
      values_->push_back(std::is_same_v<T, int> && given[i] < INT_MIN ? -1
                                                                      : static_cast<T>(given[i]));
    }
    values_->reserve(1); // a present array of no entries stays non-null
  }
  /// The first entry the int form cannot hold, or 0.
  MPI_Count above() const {
    if constexpr (std::is_same_v<T, int>)
      for (MPI_Count v : wide_)
        if (v > INT_MAX) return v;
    return 0;
  }
  const T* pointer() const { return given_ ? values_->data() : nullptr; }
  std::shared_ptr<const void> values() const { return values_; }

private:
  bool given_;
  std::vector<MPI_Count> wide_;
  std::shared_ptr<std::vector<T>> values_;
};

/// A W* (MPI_Count or MPI_Aint) of a large-count form that the int form has as a T* (a pack
/// position, a size, a displacement unit): an in-out value goes in as a T, and the value comes back
/// when the call is over.
template <class T, class W> class Through {
public:
  enum Direction { in_out, out };
  Through(W* given, Direction d)
      : given_(given), in_(d == in_out && given ? *given : 0), value_(static_cast<T>(in_)) {}
  ~Through() {
    if (given_) *given_ = value_;
  }
  Through(const Through&) = delete;
  Through& operator=(const Through&) = delete;
  /// The value going in if the int form cannot hold it, or 0.
  MPI_Count above() const { return std::is_same_v<T, int> && in_ > INT_MAX ? in_ : 0; }
  T* pointer() const { return given_ ? &value_ : nullptr; }

private:
  W* given_;
  W in_;
  mutable T value_;
};

template <class A> constexpr bool is_array = false;
template <class T> constexpr bool is_array<Array<T>> = true;
template <class A> constexpr bool is_wrapper = is_array<A>;
template <class T, class W> constexpr bool is_wrapper<Through<T, W>> = true;

/// What a request keeps alive: what it kept before, and the int arrays of its large-count call.
struct KeptArrays {
  std::shared_ptr<void> before;
  std::vector<std::shared_ptr<const void>> arrays;
};

/// Makes request `h` (just made by the int form of a large-count call) keep the int arrays of
/// `args` until it is freed: its schedule reads them after the call, at every start if it is
/// persistent.
template <class... A> void keep_with_request(MPI_Request h, const A&... args) {
  Request* q = World::get().request(h);
  if (!q) return;
  auto kept = std::make_shared<KeptArrays>();
  kept->before = std::move(q->owned);
  auto add = [&kept](const auto& a) {
    if constexpr (is_array<std::decay_t<decltype(a)>>) kept->arrays.push_back(a.values());
  };
  (add(args), ...);
  q->owned = std::move(kept);
}

/// Entries of a counts array: one per process of the remote group on an intercommunicator, of the
/// group otherwise (0 if `comm` is not a communicator: the int form reports that).
int blocks(MPI_Comm comm) {
  int inter = 0, n = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  return (inter ? PMPI_Comm_remote_size : PMPI_Comm_size)(comm, &n) == MPI_SUCCESS ? n : 0;
}
/// Entries of an array significant at the root only: blocks(comm) at the root, else none.
int at_root(MPI_Comm comm, int root) {
  int inter = 0, me = -1;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  if (inter) return root == MPI_ROOT ? blocks(comm) : 0;
  return PMPI_Comm_rank(comm, &me) == MPI_SUCCESS && me == root ? blocks(comm) : 0;
}
/// Entries of a neighbour collective's arrays: sources (`in`) or destinations of `comm`'s topology
/// (0 without one: the int form reports that).
int neighbours(MPI_Comm comm, bool in) {
  int kind = MPI_UNDEFINED, n = 0, out = 0, weighted = 0, me = 0;
  if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS) return 0;
  if (kind == MPI_CART) return PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS ? 2 * n : 0;
  if (kind == MPI_GRAPH)
    return PMPI_Comm_rank(comm, &me) == MPI_SUCCESS &&
                   PMPI_Graph_neighbors_count(comm, me, &n) == MPI_SUCCESS
               ? n
               : 0;
  if (kind == MPI_DIST_GRAPH)
    return PMPI_Dist_graph_neighbors_count(comm, &n, &out, &weighted) == MPI_SUCCESS
               ? (in ? n : out)
               : 0;
  return 0;
}
/// Entries of MPI_Reduce_scatter's counts: one per process of the local group.
int local_size(MPI_Comm comm) {
  int n = 0;
  return PMPI_Comm_size(comm, &n) == MPI_SUCCESS ? n : 0;
}

/// Whether argument `a`, passed to a parameter of type P of the int form, keeps its value: an
/// MPI_Count going to an int, or an array's entries, must not be above INT_MAX. (A negative count
/// goes on to the int form, which refuses it.)
/// Whether an argument of type A goes to an int parameter (type P) of the int form.
template <class P, class A>
constexpr bool narrows_to_int = std::is_same_v<P, int> &&
                                (std::is_same_v<A, MPI_Count> || std::is_same_v<A, MPI_Aint>);

template <class P, class A> bool fits(const A& a, MPI_Count& refused) {
  if constexpr (is_wrapper<A>)
    refused = a.above();
  else if constexpr (narrows_to_int<P, A>)
    refused = a > INT_MAX ? a : 0;
  return refused == 0;
}

/// `a` as the int form's parameter type P; a negative count below INT_MIN as -1.
template <class P, class A> P narrow(const A& a) {
  if constexpr (is_wrapper<A>)
    return a.pointer();
  else if constexpr (narrows_to_int<P, A>)
    return a < INT_MIN ? -1 : static_cast<int>(a);
  else
    return static_cast<P>(a);
}

/// Calls `int_form` with `args` if every count fits the int form's parameter; else refuses.
template <class Where, class... P, class... A>
int narrowed(const char* name, Where where, int (*int_form)(P...), const A&... args) {
  static_assert(sizeof...(P) == sizeof...(A));
  MPI_Count refused = 0;
  if (!(fits<P>(args, refused) && ...)) {
    ApiCall c(name);
    return refuse(c, where,
                  "count {} is above 2^31 - 1: mpisim supports large counts up to that only",
                  refused);
  }
  const int e = int_form(narrow<P>(args)...);
  if (e != MPI_SUCCESS) return e;
  // A datatype constructor ends with the new type, whose contents MPI-4.0 decodes as the
  // large-count form's; a non-blocking or persistent form with its request, which the converted
  // arrays must outlive. (Handles are ints: the name tells them apart.)
  using Last = std::tuple_element_t<sizeof...(P) - 1, std::tuple<P...>>;
  if constexpr (std::is_same_v<Last, int*>) {
    int* made = narrow<Last>(std::get<sizeof...(A) - 1>(std::tie(args...)));
    if (std::string_view(name).starts_with("MPI_Type_"))
      record_large_counts(*made);
    else if constexpr ((is_array<A> || ...))
      keep_with_request(*made, args...);
  }
  return MPI_SUCCESS;
}

} // namespace

/// PMPI_name_c and its weak alias MPI_name_c: `params` as the standard declares them, `args` their
/// names.
#define MPISIM_NARROWED(name, where, params, args)                                                 \
  extern "C" int PMPI_##name##_c params {                                                          \
    return narrowed("MPI_" #name "_c", where, PMPI_##name, MPISIM_UNPAREN args);                   \
  }                                                                                                \
  MPISIM_WEAK_ALIAS(name##_c)
#define MPISIM_UNPAREN(...) __VA_ARGS__

// clang-format off
MPISIM_NARROWED(Accumulate, on_win(win), (const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win), (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win))
MPISIM_NARROWED(Allgather, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
MPISIM_NARROWED(Allgather_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request))
MPISIM_NARROWED(Allgatherv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(displs, blocks(comm)), recvtype, comm))
MPISIM_NARROWED(Allreduce, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, comm))
MPISIM_NARROWED(Allreduce_init, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, comm, info, request))
MPISIM_NARROWED(Alltoall, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
MPISIM_NARROWED(Alltoall_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request))
MPISIM_NARROWED(Alltoallv, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, Array<int>(sendcounts, blocks(comm)), Array<int>(sdispls, blocks(comm)), sendtype, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(rdispls, blocks(comm)), recvtype, comm))
MPISIM_NARROWED(Alltoallw, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm), (sendbuf, Array<int>(sendcounts, blocks(comm)), Array<int>(sdispls, blocks(comm)), sendtypes, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(rdispls, blocks(comm)), recvtypes, comm))
MPISIM_NARROWED(Bcast, on_comm(comm), (void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm), (buffer, count, datatype, root, comm))
MPISIM_NARROWED(Bcast_init, on_comm(comm), (void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request), (buffer, count, datatype, root, comm, info, request))
MPISIM_NARROWED(Bsend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
MPISIM_NARROWED(Bsend_init, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Buffer_attach, on_comm(MPI_COMM_WORLD), (void* buffer, MPI_Count size), (buffer, size))
MPISIM_NARROWED(Buffer_detach, on_comm(MPI_COMM_WORLD), (void* buffer_addr, MPI_Count* size), (buffer_addr, Through<int, MPI_Count>(size, Through<int, MPI_Count>::out)))
MPISIM_NARROWED(Exscan, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, comm))
MPISIM_NARROWED(Exscan_init, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, comm, info, request))
MPISIM_NARROWED(Gather, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
MPISIM_NARROWED(Gather_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request))
MPISIM_NARROWED(Gatherv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, at_root(comm, root)), Array<int>(displs, at_root(comm, root)), recvtype, root, comm))
MPISIM_NARROWED(Get_accumulate, on_win(win), (const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win), (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win))
MPISIM_NARROWED(Get, on_win(win), (void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win), (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win))
MPISIM_NARROWED(Iallgather, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
MPISIM_NARROWED(Iallreduce, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, comm, request))
MPISIM_NARROWED(Ialltoall, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
MPISIM_NARROWED(Ibcast, on_comm(comm), (void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request), (buffer, count, datatype, root, comm, request))
MPISIM_NARROWED(Ibsend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Iexscan, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, comm, request))
MPISIM_NARROWED(Igather, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
MPISIM_NARROWED(Imrecv, on_comm(MPI_COMM_WORLD), (void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request), (buf, count, datatype, message, request))
MPISIM_NARROWED(Ineighbor_allgather, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
MPISIM_NARROWED(Ineighbor_alltoall, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
MPISIM_NARROWED(Irecv, on_comm(comm), (void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, source, tag, comm, request))
MPISIM_NARROWED(Ireduce, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, root, comm, request))
MPISIM_NARROWED(Ireduce_scatter_block, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request), (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
MPISIM_NARROWED(Irsend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Iscan, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, comm, request))
MPISIM_NARROWED(Iscatter, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
MPISIM_NARROWED(Isend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Isendrecv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, request))
MPISIM_NARROWED(Isendrecv_replace, on_comm(comm), (void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, sendtag, source, recvtag, comm, request))
MPISIM_NARROWED(Issend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Mrecv, on_comm(MPI_COMM_WORLD), (void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status), (buf, count, datatype, message, status))
MPISIM_NARROWED(Neighbor_allgather, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
MPISIM_NARROWED(Neighbor_allgather_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request))
MPISIM_NARROWED(Neighbor_alltoall, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
MPISIM_NARROWED(Neighbor_alltoall_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request))
MPISIM_NARROWED(Pack, on_comm(comm), (const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf, MPI_Count outsize, MPI_Count* position, MPI_Comm comm), (inbuf, incount, datatype, outbuf, outsize, Through<int, MPI_Count>(position, Through<int, MPI_Count>::in_out), comm))
MPISIM_NARROWED(Pack_external, on_comm(MPI_COMM_WORLD), (const char* datarep, const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf, MPI_Count outsize, MPI_Count* position), (datarep, inbuf, incount, datatype, outbuf, outsize, Through<MPI_Aint, MPI_Count>(position, Through<MPI_Aint, MPI_Count>::in_out)))
MPISIM_NARROWED(Pack_external_size, on_comm(MPI_COMM_WORLD), (const char* datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count* size), (datarep, incount, datatype, Through<MPI_Aint, MPI_Count>(size, Through<MPI_Aint, MPI_Count>::out)))
MPISIM_NARROWED(Pack_size, on_comm(comm), (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size), (incount, datatype, comm, Through<int, MPI_Count>(size, Through<int, MPI_Count>::out)))
MPISIM_NARROWED(Put, on_win(win), (const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win), (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win))
MPISIM_NARROWED(Raccumulate, on_win(win), (const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request), (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request))
MPISIM_NARROWED(Recv, on_comm(comm), (void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status), (buf, count, datatype, source, tag, comm, status))
MPISIM_NARROWED(Recv_init, on_comm(comm), (void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, source, tag, comm, request))
MPISIM_NARROWED(Reduce, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, root, comm))
MPISIM_NARROWED(Reduce_init, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, root, comm, info, request))
MPISIM_NARROWED(Reduce_local, on_comm(MPI_COMM_WORLD), (const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op), (inbuf, inoutbuf, count, datatype, op))
MPISIM_NARROWED(Reduce_scatter_block, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, recvcount, datatype, op, comm))
MPISIM_NARROWED(Reduce_scatter_block_init, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, recvbuf, recvcount, datatype, op, comm, info, request))
MPISIM_NARROWED(Reduce_scatter, on_comm(comm), (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, Array<int>(recvcounts, local_size(comm)), datatype, op, comm))
MPISIM_NARROWED(Rget_accumulate, on_win(win), (const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request), (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request))
MPISIM_NARROWED(Rget, on_win(win), (void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request), (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request))
MPISIM_NARROWED(Rput, on_win(win), (const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request), (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request))
MPISIM_NARROWED(Rsend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
MPISIM_NARROWED(Rsend_init, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Scan, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, comm))
MPISIM_NARROWED(Scan_init, on_comm(comm), (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, recvbuf, count, datatype, op, comm, info, request))
MPISIM_NARROWED(Scatter, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
MPISIM_NARROWED(Scatter_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request))
MPISIM_NARROWED(Scatterv, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm), (sendbuf, Array<int>(sendcounts, at_root(comm, root)), Array<int>(displs, at_root(comm, root)), sendtype, recvbuf, recvcount, recvtype, root, comm))
MPISIM_NARROWED(Send, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
MPISIM_NARROWED(Send_init, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Sendrecv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status), (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status))
MPISIM_NARROWED(Sendrecv_replace, on_comm(comm), (void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status* status), (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))
MPISIM_NARROWED(Ssend, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
MPISIM_NARROWED(Ssend_init, on_comm(comm), (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request), (buf, count, datatype, dest, tag, comm, request))
MPISIM_NARROWED(Type_contiguous, on_comm(MPI_COMM_WORLD), (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype), (count, oldtype, newtype))
MPISIM_NARROWED(Type_create_darray, on_comm(MPI_COMM_WORLD), (int size, int rank, int ndims, const MPI_Count array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype), (size, rank, ndims, Array<int>(array_of_gsizes, ndims), array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, newtype))
MPISIM_NARROWED(Type_create_hindexed_block, on_comm(MPI_COMM_WORLD), (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype), (count, blocklength, Array<MPI_Aint>(array_of_displacements, count), oldtype, newtype))
MPISIM_NARROWED(Type_create_hindexed, on_comm(MPI_COMM_WORLD), (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype), (count, Array<int>(array_of_blocklengths, count), Array<MPI_Aint>(array_of_displacements, count), oldtype, newtype))
MPISIM_NARROWED(Type_create_hvector, on_comm(MPI_COMM_WORLD), (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype* newtype), (count, blocklength, stride, oldtype, newtype))
MPISIM_NARROWED(Type_create_indexed_block, on_comm(MPI_COMM_WORLD), (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype), (count, blocklength, Array<int>(array_of_displacements, count), oldtype, newtype))
MPISIM_NARROWED(Type_create_resized, on_comm(MPI_COMM_WORLD), (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype* newtype), (oldtype, lb, extent, newtype))
MPISIM_NARROWED(Type_create_struct, on_comm(MPI_COMM_WORLD), (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype* newtype), (count, Array<int>(array_of_blocklengths, count), Array<MPI_Aint>(array_of_displacements, count), array_of_types, newtype))
MPISIM_NARROWED(Type_create_subarray, on_comm(MPI_COMM_WORLD), (int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype), (ndims, Array<int>(array_of_sizes, ndims), Array<int>(array_of_subsizes, ndims), Array<int>(array_of_starts, ndims), order, oldtype, newtype))
MPISIM_NARROWED(Type_indexed, on_comm(MPI_COMM_WORLD), (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype), (count, Array<int>(array_of_blocklengths, count), Array<int>(array_of_displacements, count), oldtype, newtype))
MPISIM_NARROWED(Type_vector, on_comm(MPI_COMM_WORLD), (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype* newtype), (count, blocklength, stride, oldtype, newtype))
MPISIM_NARROWED(Unpack, on_comm(comm), (const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm), (inbuf, insize, Through<int, MPI_Count>(position, Through<int, MPI_Count>::in_out), outbuf, outcount, datatype, comm))
MPISIM_NARROWED(Unpack_external, on_comm(MPI_COMM_WORLD), (const char datarep[], const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf, MPI_Count outcount, MPI_Datatype datatype), (datarep, inbuf, insize, Through<MPI_Aint, MPI_Count>(position, Through<MPI_Aint, MPI_Count>::in_out), outbuf, outcount, datatype))
MPISIM_NARROWED(Win_allocate, on_comm(comm), (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win), (size, disp_unit, info, comm, baseptr, win))
MPISIM_NARROWED(Win_allocate_shared, on_comm(comm), (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win), (size, disp_unit, info, comm, baseptr, win))
MPISIM_NARROWED(Win_create, on_comm(comm), (void* base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win), (base, size, disp_unit, info, comm, win))
MPISIM_NARROWED(Win_shared_query, on_win(win), (MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit, void* baseptr), (win, rank, size, Through<int, MPI_Aint>(disp_unit, Through<int, MPI_Aint>::out), baseptr))
MPISIM_NARROWED(Neighbor_allgatherv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), Array<int>(displs, neighbours(comm, true)), recvtype, comm))
MPISIM_NARROWED(Neighbor_alltoallv, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm), (sendbuf, Array<int>(sendcounts, neighbours(comm, false)), Array<int>(sdispls, neighbours(comm, false)), sendtype, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), Array<int>(rdispls, neighbours(comm, true)), recvtype, comm))
MPISIM_NARROWED(Neighbor_alltoallw, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm), (sendbuf, Array<int>(sendcounts, neighbours(comm, false)), sdispls, sendtypes, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), rdispls, recvtypes, comm))
MPISIM_NARROWED(Iallgatherv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(displs, blocks(comm)), recvtype, comm, request))
MPISIM_NARROWED(Allgatherv_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(displs, blocks(comm)), recvtype, comm, info, request))
MPISIM_NARROWED(Ialltoallv, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, Array<int>(sendcounts, blocks(comm)), Array<int>(sdispls, blocks(comm)), sendtype, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(rdispls, blocks(comm)), recvtype, comm, request))
MPISIM_NARROWED(Alltoallv_init, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, Array<int>(sendcounts, blocks(comm)), Array<int>(sdispls, blocks(comm)), sendtype, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(rdispls, blocks(comm)), recvtype, comm, info, request))
MPISIM_NARROWED(Ialltoallw, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request), (sendbuf, Array<int>(sendcounts, blocks(comm)), Array<int>(sdispls, blocks(comm)), sendtypes, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(rdispls, blocks(comm)), recvtypes, comm, request))
MPISIM_NARROWED(Alltoallw_init, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, Array<int>(sendcounts, blocks(comm)), Array<int>(sdispls, blocks(comm)), sendtypes, recvbuf, Array<int>(recvcounts, blocks(comm)), Array<int>(rdispls, blocks(comm)), recvtypes, comm, info, request))
MPISIM_NARROWED(Igatherv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, at_root(comm, root)), Array<int>(displs, at_root(comm, root)), recvtype, root, comm, request))
MPISIM_NARROWED(Gatherv_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, at_root(comm, root)), Array<int>(displs, at_root(comm, root)), recvtype, root, comm, info, request))
MPISIM_NARROWED(Ireduce_scatter, on_comm(comm), (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request), (sendbuf, recvbuf, Array<int>(recvcounts, local_size(comm)), datatype, op, comm, request))
MPISIM_NARROWED(Reduce_scatter_init, on_comm(comm), (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, recvbuf, Array<int>(recvcounts, local_size(comm)), datatype, op, comm, info, request))
MPISIM_NARROWED(Iscatterv, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request), (sendbuf, Array<int>(sendcounts, at_root(comm, root)), Array<int>(displs, at_root(comm, root)), sendtype, recvbuf, recvcount, recvtype, root, comm, request))
MPISIM_NARROWED(Scatterv_init, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, Array<int>(sendcounts, at_root(comm, root)), Array<int>(displs, at_root(comm, root)), sendtype, recvbuf, recvcount, recvtype, root, comm, info, request))
MPISIM_NARROWED(Ineighbor_allgatherv, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), Array<int>(displs, neighbours(comm, true)), recvtype, comm, request))
MPISIM_NARROWED(Neighbor_allgatherv_init, on_comm(comm), (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, sendcount, sendtype, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), Array<int>(displs, neighbours(comm, true)), recvtype, comm, info, request))
MPISIM_NARROWED(Ineighbor_alltoallv, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request), (sendbuf, Array<int>(sendcounts, neighbours(comm, false)), Array<int>(sdispls, neighbours(comm, false)), sendtype, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), Array<int>(rdispls, neighbours(comm, true)), recvtype, comm, request))
MPISIM_NARROWED(Neighbor_alltoallv_init, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, Array<int>(sendcounts, neighbours(comm, false)), Array<int>(sdispls, neighbours(comm, false)), sendtype, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), Array<int>(rdispls, neighbours(comm, true)), recvtype, comm, info, request))
MPISIM_NARROWED(Ineighbor_alltoallw, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request), (sendbuf, Array<int>(sendcounts, neighbours(comm, false)), sdispls, sendtypes, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), rdispls, recvtypes, comm, request))
MPISIM_NARROWED(Neighbor_alltoallw_init, on_comm(comm), (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request), (sendbuf, Array<int>(sendcounts, neighbours(comm, false)), sdispls, sendtypes, recvbuf, Array<int>(recvcounts, neighbours(comm, true)), rdispls, recvtypes, comm, info, request))
// clang-format on

extern "C" {

int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  ApiCall c("MPI_Get_count_c");
  return count_in_status(c, status, datatype, count);
}
MPISIM_WEAK_ALIAS(Get_count_c)

// MPI-3.1's _x forms already take MPI_Count.
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  return PMPI_Type_size_x(datatype, size);
}
MPISIM_WEAK_ALIAS(Type_size_c)

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return PMPI_Type_get_extent_x(datatype, lb, extent);
}
MPISIM_WEAK_ALIAS(Type_get_extent_c)

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return PMPI_Type_get_true_extent_x(datatype, true_lb, true_extent);
}
MPISIM_WEAK_ALIAS(Type_get_true_extent_c)

int PMPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return PMPI_Get_elements_x(status, datatype, count);
}
MPISIM_WEAK_ALIAS(Get_elements_c)

} // extern "C"
