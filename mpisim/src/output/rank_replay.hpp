// One rank's replay of its recorded operations (replay.hpp): the handles the record's indices
// stand for, the buffers, and the outcomes to compare. rank_replay.cpp replays point-to-point,
// completion and communicators, replay_collectives.cpp the collectives, replay_rma.cpp windows
// and one-sided communication, replay_io.cpp MPI-IO.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "api_compute.hpp"
#include "datatype.hpp"
#include "mpi.h"
#include "op.hpp"
#include "op_log.hpp"
#include "replay_checks.hpp"
#include "replay_compute.hpp"
#include "units.hpp"
#include "world.hpp"

namespace mpisim::replaying {

/// Thrown for a line replay cannot understand; the rank reports it and aborts the run.
struct BadRecord : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The function of a user-defined reduction in a replay: data are not kept.
inline void user_op_noop(void*, void*, int*, MPI_Datatype*) {}
/// The callbacks of a replayed generalized request: the program's own did its work, which the
/// record holds as compute, and what they returned is not simulated time.
inline int generalized_query(void*, MPI_Status* status) {
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  return MPI_Status_set_cancelled(status, 0);
}
inline int generalized_free(void*) {
  return MPI_SUCCESS;
}
inline int generalized_cancel(void*, int) {
  return MPI_SUCCESS;
}

/// The collectives a record names, blocking; "i" before the name is the non-blocking one.
bool is_collective(std::string_view op);

/// One rank's replay: the handles the recorded indices stand for, and buffers.
class RankReplay {
public:
  /// `file`: the text of `rank`'s record, which outlives the replay; its line count bounds the
  /// index of a request or communicator the rank creates, and so the tables an edited record
  /// could make grow. What the replay finds of outcomes goes to `checks`.
  RankReplay(double compute_scale, std::uint64_t buffer_bound, int rank, std::string_view file,
             ReplayChecks& checks)
      : scale_(compute_scale),
        max_index_(static_cast<long long>(std::count(file.begin(), file.end(), '\n')) + 3),
        buffer_bound_(buffer_bound), rank_(rank), file_(file), checks_(checks) {}

  /// Charges `means[k]` for the rank's k-th stretch of compute instead of its own (the ideal
  /// balance); `means` outlives the replay.
  void balance(const std::vector<mpilite::SimTime>* means) { balanced_ = means; }

  /// Replays one line of the file (a view into it).
  void line(std::string_view text) {
    words_.clear();
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t space = text.find(' ', at);
      const std::size_t end = space == std::string_view::npos ? text.size() : space;
      if (end > at) words_.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    next_ = 1;
    if (words_.empty()) return;
    if (words_[0] == "outcome") return check_outcome();
    if (words_[0] == "served") return note_served();
    settle();
    line_ = text;
    if (words_[0] != "compute") check_served();
    run(words_[0]);
  }

  /// An outcome the replay found that no outcome line followed: the record does not hold it.
  void settle() {
    if (expected_) ++checks_.unchecked;
    expected_.reset();
  }

private:
  long long num() {
    if (next_ >= words_.size()) throw BadRecord("missing argument");
    const std::string_view w = words_[next_++];
    long long v = 0;
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (error != std::errc{} || end != w.data() + w.size())
      throw BadRecord(fmt::format("not a number: {}", w));
    return v;
  }
  int integer() {
    const long long v = num();
    if (v < INT_MIN || v > INT_MAX) throw BadRecord(fmt::format("{} is not an int", v));
    return static_cast<int>(v);
  }
  /// A count or size: an int >= 0, as MPI counts are.
  long long count() {
    const long long v = num();
    if (v < 0 || v > INT_MAX)
      throw BadRecord(fmt::format("count {} is out of range (0 to {})", v, INT_MAX));
    return v;
  }
  /// An index of a request or communicator made by this rank (or -1 for none).
  long long index() {
    const long long v = num();
    if (v < -1 || v > max_index_)
      throw BadRecord(fmt::format("index {} is out of range (-1 to {}, by the record's length)", v,
                                  max_index_));
    return v;
  }
  /// How many items follow on the line: no more than the words left on it.
  std::size_t items() {
    const long long n = num();
    if (n < 0 || static_cast<unsigned long long>(n) > words_.size() - next_)
      throw BadRecord(fmt::format("{} items announced, {} words follow", n, words_.size() - next_));
    return static_cast<std::size_t>(n);
  }
  std::string_view word() {
    if (next_ >= words_.size()) throw BadRecord("missing argument");
    return words_[next_++];
  }

  MPI_Comm comm() {
    const long long i = index();
    if (i < 0 || i >= static_cast<long long>(comms_.size()) || comms_[i] == MPI_COMM_NULL)
      throw BadRecord(fmt::format("communicator {} was not created", i));
    return comms_[static_cast<std::size_t>(i)];
  }
  void new_comm(MPI_Comm c) {
    const long long i = index();
    if (i >= 0) keep(comms_, i, c, MPI_COMM_NULL);
  }
  /// Puts `h` at index `i` (>= 0, bounded by index()) of `table`, whose gaps hold `null`.
  template <class H> static void keep(std::vector<H>& table, long long i, H h, H null) {
    if (table.size() <= static_cast<std::size_t>(i)) table.resize(i + 1, null);
    table[static_cast<std::size_t>(i)] = h;
  }
  MPI_Datatype type() {
    const std::string_view w = word();
    if (w.empty() || w[0] != 'd') {
      --next_;
      return predefined_type(num());
    }
    auto& t = types_[std::string(w)];
    if (t == 0) {
      // A derived type is replayed as contiguous data of its size (of its basic type, so that
      // reductions apply): simulated time depends on sizes only.
      unsigned long long size = 0, count = 0;
      long long basic = 0;
      int used = 0;
      const std::string text(w);
      if (std::sscanf(text.c_str(), "d%llu:%lld:%llu%n", &size, &basic, &count, &used) != 3 ||
          used != static_cast<int>(text.size()) || size > INT_MAX || count > INT_MAX)
        throw BadRecord(fmt::format("bad datatype {} (d<size>:<basic type>:<count>, sizes up "
                                    "to {})",
                                    w, INT_MAX));
      int basic_size = 0;
      if (basic != MPI_DATATYPE_NULL) MPI_Type_size(predefined_type(basic), &basic_size);
      if (basic_size > 0 && count * static_cast<unsigned long long>(basic_size) == size)
        MPI_Type_contiguous(static_cast<int>(count), static_cast<MPI_Datatype>(basic), &t);
      else
        MPI_Type_contiguous(static_cast<int>(size), MPI_BYTE, &t);
      MPI_Type_commit(&t);
    }
    return t;
  }
  static MPI_Datatype predefined_type(long long h) {
    if (h < INT_MIN || h > INT_MAX || !mpilite::builtin_datatype(static_cast<MPI_Datatype>(h)))
      throw BadRecord(fmt::format("{} is not a predefined datatype", h));
    return static_cast<MPI_Datatype>(h);
  }
  MPI_Op reduce_op() {
    const std::string_view w = word();
    if (w != "u0" && w != "u1") {
      --next_;
      const long long h = num();
      if (h < INT_MIN || h > INT_MAX || !mpilite::builtin_op(static_cast<MPI_Op>(h)))
        throw BadRecord(fmt::format("{} is not a predefined reduction operation", h));
      return static_cast<MPI_Op>(h);
    }
    MPI_Op& o = user_ops_[w == "u1"];
    if (o == MPI_OP_NULL) MPI_Op_create(user_op_noop, w == "u1", &o);
    return o;
  }
  std::vector<int> counts() {
    std::vector<int> c(items());
    for (int& x : c)
      x = static_cast<int>(count());
    return c;
  }
  /// Per-rank counts are recorded for each of the `ranks` they are for, or not at all (a rank
  /// that does not use them): MPI reads one per rank.
  static void fit(std::vector<int>& counts, int ranks) {
    const auto p = static_cast<std::size_t>(ranks);
    if (!counts.empty() && counts.size() != p)
      throw BadRecord(fmt::format("{} counts for a communicator of {} ranks", counts.size(), p));
    counts.resize(p, 0);
  }
  /// Byte displacements of blocks of counts[i] elements of types[i], one after another (the
  /// collectives with a datatype per block); their total.
  template <class Displacement>
  static std::size_t byte_displacements(const std::vector<int>& counts,
                                        const std::vector<MPI_Datatype>& types,
                                        std::vector<Displacement>& displs) {
    displs.assign(counts.size(), 0);
    std::size_t at = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (at > static_cast<std::size_t>(std::numeric_limits<Displacement>::max()))
        throw BadRecord("the blocks add up to more bytes than a displacement holds");
      displs[i] = static_cast<Displacement>(at);
      at += bytes_of(counts[i], types[i]);
    }
    return at;
  }
  static std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> d(counts.size());
    for (std::size_t i = 1; i < counts.size(); ++i)
      if (__builtin_add_overflow(d[i - 1], counts[i - 1], &d[i]))
        throw BadRecord("the counts add up to more than an int");
    return d;
  }
  /// The request named next on the line, as an index (-1: the null request).
  long long request_index() { return index(); }
  /// The handle at index `i`, made null when first named. A reference stays good until the
  /// request is forgotten, whatever is named meanwhile.
  MPI_Request& request_at(long long i) { return i < 0 ? null_request_ : requests_[i].handle; }
  /// Drops request `i` once it is done (completed or freed): a record names each request once,
  /// so a long run's table holds only the requests still alive, not every one it ever made.
  void forget_request(long long i) { requests_.erase(i); }
  MPI_Request* request_slot() { return &request_at(request_index()); }
  /// The message (of a matched probe) named next on the line; -1 is a probe that found none.
  MPI_Message* message_slot() {
    const long long i = index();
    if (i < 0) return &no_message_;
    if (messages_.size() <= static_cast<std::size_t>(i)) messages_.resize(i + 1, MPI_MESSAGE_NULL);
    return &messages_[static_cast<std::size_t>(i)];
  }
  /// The slot of a request the line starts: a record names each request once, so a slot still
  /// holding an active one (whose buffer a new operation would free) is damage.
  MPI_Request* new_request_slot() {
    const long long i = request_index();
    MPI_Request& q = request_at(i);
    if (q != MPI_REQUEST_NULL)
      throw BadRecord(fmt::format("request {} is started again while still active", i));
    return &q;
  }
  /// A buffer for `bytes` that lives as long as the request at `slot` (non-blocking operations;
  /// a collective's send buffer is `which` 0, its receive buffer 1).
  void* buffer_for(long long slot, std::size_t bytes, int which = 0) {
    Buffer& b = pending_[slot][static_cast<std::size_t>(which)];
    b = allocate(bytes ? bytes : 1);
    return b.data.get();
  }
  /// The buffer `which` of the collective being replayed: the request's when it is non-blocking.
  void* data(int which, std::size_t bytes) {
    return nonblocking_ >= 0 ? buffer_for(nonblocking_, bytes, which) : scratch(which, bytes);
  }
  /// Issues the collective being replayed with `args`: `blocking`, or with the request named
  /// after its communicator the non-blocking form or the persistent one (made without info).
  template <class Blocking, class Nonblocking, class Persistent, class... Args>
  void issue(Blocking blocking, Nonblocking nonblocking, Persistent persistent,
             const Args&... args) {
    if (nonblocking_ < 0) {
      blocking(arg(args)...);
      return;
    }
    MPI_Request* q = new_request_slot();
    if (persistent_)
      persistent(arg(args)..., MPI_INFO_NULL, q);
    else
      nonblocking(arg(args)..., q);
  }
  /// An argument of issue(), an array by its data: a persistent collective reads its arrays at
  /// every start (MPI binds them at the init call), so they are kept to the end of the replay.
  template <class T> static const T& arg(const T& a) { return a; }
  template <class T> const T* arg(const std::vector<T>& v) {
    if (!persistent_) return v.data();
    auto kept = std::make_shared<const std::vector<T>>(v);
    kept_.push_back(kept);
    return kept->data();
  }
  /// Scratch for blocking operations: nothing refers to it once they return.
  void* scratch(int which, std::size_t bytes) {
    Buffer& b = scratch_[which];
    if (b.size < bytes) b = allocate(bytes);
    return b.size == 0 ? static_cast<void*>(&null_request_) : b.data.get();
  }
  /// Bytes of a buffer of `count` elements of `t` (`copies` times over). Elements lie `t`'s
  /// extent apart, which is more than its size for the padded pair types (MPI_DOUBLE_INT: 12
  /// bytes of data in 16): a buffer sized by the data alone was overrun.
  static std::size_t bytes_of(long long count, MPI_Datatype t, long long copies = 1) {
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &extent);
    const auto element = static_cast<std::size_t>(std::max<MPI_Aint>(size, extent));
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(count > 0 ? count : 0), element, &bytes) ||
        __builtin_mul_overflow(bytes, static_cast<std::size_t>(copies > 0 ? copies : 1), &bytes))
      throw BadRecord("the buffer's size overflows");
    return bytes;
  }
  static int cart_dims(MPI_Comm c) {
    int n = 0;
    MPI_Cartdim_get(c, &n);
    return n;
  }
  /// Datatypes recorded as a count and each (TypesArg).
  std::vector<MPI_Datatype> types() {
    std::vector<MPI_Datatype> v(items());
    for (MPI_Datatype& t : v)
      t = type();
    return v;
  }
  static int comm_size(MPI_Comm c) {
    int n = 0;
    MPI_Comm_size(c, &n);
    return n;
  }
  /// How many ranks' blocks a buffer of all of them holds: the remote group's size on an
  /// intercommunicator.
  static int blocks(MPI_Comm c) {
    int inter = 0, n = 0;
    MPI_Comm_test_inter(c, &inter);
    (inter ? MPI_Comm_remote_size : MPI_Comm_size)(c, &n);
    return n;
  }
  /// A communicator that may be none (-1, for MPI_COMM_NULL).
  MPI_Comm comm_or_null() {
    if (num_at(next_) != -1) return comm();
    ++next_;
    return MPI_COMM_NULL;
  }
  static long long sum(const std::vector<int>& v) {
    long long s = 0;
    for (int x : v)
      s += x;
    return s;
  }

  /// The requests of a wait/test call: the handles, where they go back to, and which are
  /// wildcard receives.
  struct Slots {
    std::vector<long long> where; ///< indices into the table
    std::vector<MPI_Request> handles;
    std::vector<bool> wildcard;
  };
  void put_back(const Slots& s) {
    for (std::size_t i = 0; i < s.where.size(); ++i)
      request_at(s.where[i]) = s.handles[i];
  }
  /// The `n` requests named next on the line.
  Slots slots(std::size_t n) {
    Slots s;
    for (std::size_t i = 0; i < n; ++i) {
      const long long index = num_at(next_);
      s.where.push_back(request_index());
      s.handles.push_back(request_at(s.where.back()));
      s.wildcard.push_back(wildcard_request(index, s.handles.back()));
    }
    return s;
  }

  /// How a recorded send starts: blocking ("send"), non-blocking ("isend") or persistent
  /// ("send_init").
  enum class Start { Blocking, Nonblocking, Persistent };
  void send(std::string_view mode, Start how) {
    using Blocking = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm);
    using WithRequest = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
    struct Calls {
      std::string_view mode;
      Blocking blocking;
      WithRequest nonblocking, persistent;
    };
    static constexpr Calls kModes[] = {{"standard", MPI_Send, MPI_Isend, MPI_Send_init},
                                       {"synchronous", MPI_Ssend, MPI_Issend, MPI_Ssend_init},
                                       {"ready", MPI_Rsend, MPI_Irsend, MPI_Rsend_init},
                                       {"buffered", MPI_Bsend, MPI_Ibsend, MPI_Bsend_init}};
    const Calls* calls = nullptr;
    for (const Calls& k : kModes)
      calls = k.mode == mode ? &k : calls;
    if (!calls) throw BadRecord(fmt::format("send mode {} is not replayed", mode));
    const long long bytes = count();
    const int dest = integer(), tag = integer();
    const MPI_Comm c = comm();
    const int n = static_cast<int>(bytes);
    if (how == Start::Blocking) {
      calls->blocking(scratch(0, static_cast<std::size_t>(bytes)), n, MPI_BYTE, dest, tag, c);
      return;
    }
    const long long index = num_at(next_);
    MPI_Request* q = new_request_slot();
    void* buf = buffer_for(index, static_cast<std::size_t>(bytes));
    (how == Start::Nonblocking ? calls->nonblocking : calls->persistent)(buf, n, MPI_BYTE, dest,
                                                                         tag, c, q);
  }
  /// MPI_Sendrecv, or MPI_Isendrecv (`nonblocking`, its request last).
  void sendrecv(bool nonblocking) {
    const long long sbytes = count();
    const int dest = integer(), stag = integer();
    const long long rbytes = count();
    const int source = integer(), rtag = integer();
    const MPI_Comm c = comm();
    const int sn = static_cast<int>(sbytes), rn = static_cast<int>(rbytes);
    const auto s = static_cast<std::size_t>(sbytes), r = static_cast<std::size_t>(rbytes);
    if (nonblocking) {
      const long long index = num_at(next_);
      MPI_Request* q = new_request_slot();
      MPI_Isendrecv(buffer_for(index, s, 0), sn, MPI_BYTE, dest, stag, buffer_for(index, r, 1), rn,
                    MPI_BYTE, source, rtag, c, q);
      mark_wildcard(index, mpilite::wildcard(source, rtag));
      return;
    }
    MPI_Status st;
    MPI_Sendrecv(scratch(0, s), sn, MPI_BYTE, dest, stag, scratch(1, r), rn, MPI_BYTE, source, rtag,
                 c, &st);
    if (mpilite::wildcard(source, rtag)) expect(mpilite::Outcome::matched(st));
  }
  /// MPI_Psend_init and MPI_Precv_init (`send` false): partitions of bytes.
  void partitioned_init(bool send) {
    const int partitions = integer();
    if (partitions < 1) throw BadRecord(fmt::format("{} partitions (at least 1)", partitions));
    const long long bytes = count();
    const int peer = integer(), tag = integer();
    const MPI_Comm c = comm();
    const long long index = num_at(next_);
    MPI_Request* q = new_request_slot();
    const std::size_t total = bytes_of(bytes, MPI_BYTE, partitions);
    if (total > INT_MAX) throw BadRecord("the partitions add up to more than an int of bytes");
    void* buf = buffer_for(index, total);
    if (send)
      MPI_Psend_init(buf, partitions, bytes, MPI_BYTE, peer, tag, c, MPI_INFO_NULL, q);
    else
      MPI_Precv_init(buf, partitions, bytes, MPI_BYTE, peer, tag, c, MPI_INFO_NULL, q);
  }
  /// A receive that starts a request: non-blocking ("irecv") or persistent ("recv_init").
  void receive_request(bool persistent) {
    const long long bytes = count();
    const int source = integer(), tag = integer();
    const MPI_Comm c = comm();
    const long long index = num_at(next_);
    MPI_Request* q = new_request_slot();
    void* buf = buffer_for(index, static_cast<std::size_t>(bytes));
    (persistent ? MPI_Recv_init : MPI_Irecv)(buf, static_cast<int>(bytes), MPI_BYTE, source, tag, c,
                                             q);
    mark_wildcard(index, mpilite::wildcard(source, tag));
  }
  /// A group recorded as world ranks (GroupArg of MPI_COMM_WORLD), for the caller to free.
  MPI_Group world_group() {
    const std::vector<int> ranks = ints();
    MPI_Group all = MPI_GROUP_NULL, members = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &all);
    MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &members);
    MPI_Group_free(&all);
    return members;
  }
  /// Bytes written in hex after `prefix` ("L" for a datatype's layout, "x" for a string).
  std::vector<std::byte> hex_bytes(char prefix) {
    const std::string_view w = word();
    std::vector<std::byte> bytes(w.size() / 2);
    bool good = !w.empty() && w[0] == prefix && w.size() % 2 == 1;
    for (std::size_t i = 0; good && i < bytes.size(); ++i) {
      unsigned v = 0;
      const char* at = w.data() + 1 + 2 * i;
      const auto [end, error] = std::from_chars(at, at + 2, v, 16);
      good = error == std::errc{} && end == at + 2;
      bytes[i] = static_cast<std::byte>(v);
    }
    if (!good)
      throw BadRecord(fmt::format("bad hex {} (\"{}\" and pairs of hex digits)", w, prefix));
    return bytes;
  }
  /// A string recorded in hex (a string tag).
  std::string text() {
    const std::vector<std::byte> bytes = hex_bytes('x');
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
  /// Integers recorded as a count and the values (IntsArg).
  std::vector<int> ints() {
    std::vector<int> v(items());
    for (int& x : v)
      x = integer();
    return v;
  }
  /// The communicators made from topologies and groups, re-created from what was recorded.
  bool made_comm(std::string_view op);
  /// A time in picoseconds, from 0 to the limit of simulated time.
  long long time() {
    const long long v = num();
    if (v < 0 || v > mpilite::kTimeLimit)
      throw BadRecord(
          fmt::format("time {} ps is out of range (0 to {} ps)", v, mpilite::kTimeLimit));
    return v;
  }
  long long num_at(std::size_t at) {
    const std::size_t saved = next_;
    next_ = at;
    const long long v = num();
    next_ = saved;
    return v;
  }

  void run(std::string_view op);
  void collective(std::string_view op);
  /// Windows and one-sided communication (replay_rma.cpp); false if `op` is none of theirs.
  bool one_sided(std::string_view op);
  /// A one-sided operation ("put", "rget", ...): `kind` is its name without the "r" of the
  /// request-based forms.
  void rma(std::string_view kind, bool with_request);
  /// The window named next on the line.
  MPI_Win window();
  /// MPI-IO (replay_io.cpp); false if `op` is none of its calls.
  bool file_io(std::string_view op);
  /// The file named next on the line.
  MPI_File file();
  /// The datatype at the target of a one-sided operation (TargetTypeArg): its layout whole.
  MPI_Datatype target_type();
  /// Where an operation's result (a get's data) goes until the epoch to `target` of window
  /// `win` (an index) ends; release_results() then frees them (`target` -1: every target).
  void* result_buffer(long long win, int target, std::size_t bytes);
  void release_results(long long win, int target);
  /// A `served` line: the origins this rank's passive targets served before its next
  /// operation in the recorded run, which check_served() compares with the replay's.
  void note_served();
  void check_served();
  /// The neighbourhood collectives ("neighbor_" and `kind`), blocking or not.
  void neighbor(std::string_view kind);
  /// MPI_Alltoallv, or MPI_Neighbor_alltoallv (`neighbors`), blocking or not.
  void alltoallv(bool neighbors, bool in_place);
  /// Per-neighbour counts recorded for the sources (`in`) or destinations of `c`: as many as it
  /// has, or MPI would read past them.
  static void fit_neighbors(const std::vector<int>& counts, MPI_Comm c, bool in) {
    int sources = 0, destinations = 0, kind = MPI_UNDEFINED, me = 0;
    MPI_Topo_test(c, &kind);
    MPI_Comm_rank(c, &me);
    if (kind == MPI_CART) {
      sources = destinations = 2 * cart_dims(c);
    } else if (kind == MPI_GRAPH) {
      MPI_Graph_neighbors_count(c, me, &sources);
      destinations = sources;
    } else if (kind == MPI_DIST_GRAPH) {
      int weighted = 0;
      MPI_Dist_graph_neighbors_count(c, &sources, &destinations, &weighted);
    }
    const std::size_t want = static_cast<std::size_t>(in ? sources : destinations);
    if (counts.size() != want)
      throw BadRecord(fmt::format("{} counts for the {} {} of this communicator", counts.size(),
                                  want, in ? "sources" : "destinations"));
  }

  /// Replay buffers hold no recorded contents, but reductions read them: they are zeroed, by
  /// calloc, so that large ones still cost address space, not memory, until written.
  struct FreeBytes {
    void operator()(std::byte* p) const { std::free(p); }
  };
  struct Buffer {
    std::unique_ptr<std::byte[], FreeBytes> data;
    std::size_t size = 0;
  };
  Buffer allocate(std::size_t bytes) const {
    if (buffer_bound_ && bytes > buffer_bound_)
      throw BadRecord(fmt::format("a buffer of {} bytes is more than the recorded run's memory "
                                  "can justify ({} bytes)",
                                  bytes, buffer_bound_));
    try {
      auto* p = static_cast<std::byte*>(std::calloc(bytes ? bytes : 1, 1));
      if (!p) throw std::bad_alloc();
      return {std::unique_ptr<std::byte[], FreeBytes>(p), bytes};
    } catch (const std::bad_alloc&) {
      throw BadRecord(fmt::format("a buffer of {} bytes cannot be allocated", bytes));
    }
  }

  /// What the operation just replayed found, to compare with the record's next line.
  void expect(std::optional<mpilite::Outcome> found) {
    if (found) expected_ = {std::move(*found), line_};
  }
  void check_outcome();
  /// A `node` line: the rank learned that it runs on node `recorded` of the recorded machine;
  /// what it did next may differ on a machine that puts it on another.
  void check_node(int recorded);
  std::string describe(std::string_view op_line, const mpilite::Outcome& replayed,
                       const mpilite::Outcome& recorded) const;
  /// "rank 2's 3rd MPI_Recv from MPI_ANY_SOURCE (rank-2.ops:14)": the operation on `op_line`.
  std::string locate(std::string_view op_line) const;

  /// Whether request `index` (its handle `h` before the call) is a receive that takes whichever
  /// message comes first.
  bool wildcard_request(long long index, MPI_Request h) const {
    if (h == MPI_REQUEST_NULL || index < 0) return false;
    const auto live = requests_.find(index);
    return live != requests_.end() && live->second.wildcard;
  }
  void mark_wildcard(long long index, bool wildcard) {
    if (index >= 0) requests_[index].wildcard = wildcard;
  }
  void completion(std::string_view op);
  /// Issues the wait or test call `op` on the requests of `s`: which completed (positions in
  /// the array, in the order the call reports them; statuses[k] is done[k]'s), and `flag`.
  std::vector<std::size_t> complete(std::string_view op, Slots& s, int& flag, MPI_Status* statuses);

  double scale_;
  long long max_index_;
  std::uint64_t buffer_bound_;
  int rank_;
  std::string_view file_;
  ReplayChecks& checks_;
  const std::vector<mpilite::SimTime>* balanced_ = nullptr;
  std::size_t step_ = 0;  ///< stretches of compute replayed so far
  std::string_view line_; ///< of the operation being replayed
  /// What the operation on `line` found, until the record's next line tells what it should.
  struct Pending {
    mpilite::Outcome found;
    std::string_view line;
  };
  std::optional<Pending> expected_;
  std::vector<std::string_view> words_;
  std::size_t next_ = 1;
  std::vector<MPI_Comm> comms_{MPI_COMM_WORLD, MPI_COMM_SELF};
  /// A request the record has named and that is not done yet.
  struct LiveRequest {
    MPI_Request handle = MPI_REQUEST_NULL;
    bool wildcard = false; ///< a receive that takes whichever message comes first
  };
  std::unordered_map<long long, LiveRequest> requests_;
  MPI_Request null_request_ = MPI_REQUEST_NULL;
  std::vector<MPI_Message> messages_; ///< per message index: what a matched probe set aside
  MPI_Message no_message_ = MPI_MESSAGE_NULL;
  std::map<std::string, MPI_Datatype> types_;
  MPI_Op user_ops_[2] = {MPI_OP_NULL, MPI_OP_NULL};
  std::unordered_map<long long, std::array<Buffer, 2>> pending_;
  long long nonblocking_ = -1; ///< the request index of the collective being replayed, if any
  bool persistent_ = false;    ///< whether that request is a persistent collective's
  std::vector<std::shared_ptr<const void>> kept_; ///< the arrays of persistent collectives
  Buffer bsend_;                                  ///< the buffer attached for buffered sends
  Buffer scratch_[2];
  std::vector<MPI_Win> windows_; ///< per window index
  std::vector<MPI_File> files_;  ///< per file index
  /// Generalized requests started and not yet completed, by request index.
  std::unordered_map<long long, MPI_Request> generalized_;
  int sessions_ = 0;                          ///< sessions opened
  std::map<long long, Buffer> window_memory_; ///< of the windows MPI_Win_create was given
  /// Results of one-sided operations by (window index, target), until their epoch ends.
  std::map<std::pair<long long, int>, std::vector<Buffer>> results_;
  /// The origins of the `served` line since the last operation, if one came.
  std::optional<std::vector<int>> recorded_served_;
};

} // namespace mpisim::replaying
