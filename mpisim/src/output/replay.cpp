#include "replay.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "api_compute.hpp"
#include "datatype.hpp"
#include "mpi.h"
#include "op.hpp"
#include "op_log.hpp"
#include "replay_checks.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

/// The format of meta.json and rank-*.ops that observer.cpp writes; this replay also reads the
/// older ones (1 has no outcome lines, 2 none of the operations 3 added): each is a subset.
constexpr int kRecordVersion = mpilite::kRecordFormat;
constexpr int kOldestRecordVersion = 1;

/// Thrown for a line replay cannot understand; the rank reports it and aborts the run.
struct BadRecord : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void user_op_noop(void*, void*, int*, MPI_Datatype*) {}

/// The collectives a record names, blocking; "i" before the name is the non-blocking one.
bool is_collective(std::string_view op) {
  static constexpr std::string_view kCollectives[] = {"barrier",
                                                      "bcast",
                                                      "reduce",
                                                      "allreduce",
                                                      "scan",
                                                      "exscan",
                                                      "gather",
                                                      "gatherv",
                                                      "scatter",
                                                      "scatterv",
                                                      "allgather",
                                                      "allgatherv",
                                                      "alltoall",
                                                      "alltoallv",
                                                      "alltoallw",
                                                      "reduce_scatter",
                                                      "reduce_scatter_block",
                                                      "neighbor_allgather",
                                                      "neighbor_allgatherv",
                                                      "neighbor_alltoall",
                                                      "neighbor_alltoallv",
                                                      "neighbor_alltoallw"};
  return std::find(std::begin(kCollectives), std::end(kCollectives), op) != std::end(kCollectives);
}

std::string ordinal(long long n) {
  const long long tens = n % 100, ones = n % 10;
  const char* suffix = tens >= 11 && tens <= 13 ? "th"
                       : ones == 1              ? "st"
                       : ones == 2              ? "nd"
                       : ones == 3              ? "rd"
                                                : "th";
  return fmt::format("{}{}", n, suffix);
}

/// The MPI function a recorded operation ("waitany") stands for ("MPI_Waitany").
std::string mpi_name(std::string_view op) {
  std::string name = fmt::format("MPI_{}", op);
  if (name.size() > 4)
    name[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[4])));
  return name;
}

/// " from MPI_ANY_SOURCE", " from rank 2 with MPI_ANY_TAG": what a recorded receive or probe
/// asked for ("" for other operations).
std::string peer_text(std::string_view op_line) {
  std::vector<std::string_view> words;
  for (std::size_t at = 0; at <= op_line.size();) {
    const std::size_t end = std::min(op_line.find(' ', at), op_line.size());
    words.push_back(op_line.substr(at, end - at));
    at = end + 1;
  }
  // Where the source is on the line (the tag follows it): recv BYTES SOURCE TAG, probe SOURCE
  // TAG, sendrecv SBYTES DEST STAG RBYTES SOURCE TAG.
  const std::size_t at = words[0] == "recv"            ? 2
                         : words[0].ends_with("probe") ? 1
                         : words[0] == "sendrecv"      ? 5
                                                       : 0;
  if (at == 0 || at + 1 >= words.size()) return "";
  int source = 0, tag = 0;
  std::from_chars(words[at].data(), words[at].data() + words[at].size(), source);
  std::from_chars(words[at + 1].data(), words[at + 1].data() + words[at + 1].size(), tag);
  std::string text =
      source == MPI_ANY_SOURCE ? " from MPI_ANY_SOURCE" : fmt::format(" from rank {}", source);
  if (tag == MPI_ANY_TAG) text += " with MPI_ANY_TAG";
  return text;
}

std::string matches_text(const std::vector<mpilite::Outcome::Match>& matches, bool with_tags) {
  if (matches.empty()) return "nothing";
  std::string text;
  for (const mpilite::Outcome::Match& m : matches) {
    text += fmt::format("{}rank {}", text.empty() ? "" : ", ", m.source);
    if (with_tags) text += fmt::format(" with tag {}", m.tag);
  }
  return text;
}

/// How the replay's outcome of `op` differs from the recorded one: "matched rank 1 in the
/// replay, rank 2 in the recorded run".
std::string difference(std::string_view op, const mpilite::Outcome& replayed,
                       const mpilite::Outcome& recorded) {
  std::string what, in_replay, in_record;
  if (replayed.flag != recorded.flag) {
    const auto flag = [op](bool f) {
      return op.ends_with("probe") ? (f ? "found a message" : "found none")
             : op == "cancel"      ? (f ? "cancelled it" : "did not cancel it")
                                   : (f ? "completed" : "did not complete");
    };
    in_replay = flag(replayed.flag);
    in_record = flag(recorded.flag);
  } else if (replayed.indices != recorded.indices) {
    const auto which = [](const std::vector<int>& indices) {
      return indices.empty() ? std::string("none") : fmt::format("{}", fmt::join(indices, ", "));
    };
    what = "completed request(s) ";
    in_replay = which(replayed.indices);
    in_record = which(recorded.indices);
  } else {
    // A difference of tags alone is told by tags; one of sources by sources.
    const auto sources = [](const mpilite::Outcome& o) {
      std::vector<int> v;
      for (const auto& m : o.matches)
        v.push_back(m.source);
      return v;
    };
    const bool with_tags = sources(replayed) == sources(recorded);
    what = "matched ";
    in_replay = matches_text(replayed.matches, with_tags);
    in_record = matches_text(recorded.matches, with_tags);
  }
  return fmt::format("{}{} in the replay, {} in the recorded run", what, in_replay, in_record);
}

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
    settle();
    line_ = text;
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
    if (i < 0) return;
    if (comms_.size() <= static_cast<std::size_t>(i)) comms_.resize(i + 1, MPI_COMM_NULL);
    comms_[static_cast<std::size_t>(i)] = c;
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
  /// Per-rank counts are recorded for every rank of `c`, or not at all (a rank that does not
  /// use them): MPI reads one per rank.
  static void fit(std::vector<int>& counts, MPI_Comm c) {
    const auto p = static_cast<std::size_t>(comm_size(c));
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
  /// The request named next on the line, as an index (-1: the null request); the table grows to
  /// hold it, so a pointer into it is only good until the next request is named.
  long long request_index() {
    const long long i = index();
    if (i >= 0 && requests_.size() <= static_cast<std::size_t>(i))
      requests_.resize(i + 1, MPI_REQUEST_NULL);
    return i;
  }
  MPI_Request& request_at(long long i) {
    return i < 0 ? null_request_ : requests_[static_cast<std::size_t>(i)];
  }
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
  /// The request slot of the collective being replayed (named after its communicator), or null
  /// when it is blocking.
  MPI_Request* started() { return nonblocking_ >= 0 ? new_request_slot() : nullptr; }
  /// Scratch for blocking operations: nothing refers to it once they return.
  void* scratch(int which, std::size_t bytes) {
    Buffer& b = scratch_[which];
    if (b.size < bytes) b = allocate(bytes);
    return b.size == 0 ? static_cast<void*>(&null_request_) : b.data.get();
  }
  static std::size_t bytes_of(long long count, MPI_Datatype t, long long copies = 1) {
    int size = 0;
    MPI_Type_size(t, &size);
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(count > 0 ? count : 0),
                               static_cast<std::size_t>(size), &bytes) ||
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
  static long long sum(const std::vector<int>& v) {
    long long s = 0;
    for (int x : v)
      s += x;
    return s;
  }

  /// The requests of a wait/test call: the handles, where they go back to, and which are
  /// wildcard receives.
  struct Slots {
    std::vector<long long> where; ///< indices: naming a later request may move the table
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
  std::string describe(std::string_view op_line, const mpilite::Outcome& replayed,
                       const mpilite::Outcome& recorded) const;

  /// Whether request `index` (its handle `h` before the call) is a receive that takes whichever
  /// message comes first.
  bool wildcard_request(long long index, MPI_Request h) const {
    return h != MPI_REQUEST_NULL && index >= 0 &&
           static_cast<std::size_t>(index) < wildcard_.size() &&
           wildcard_[static_cast<std::size_t>(index)];
  }
  void mark_wildcard(long long index, bool wildcard) {
    if (index < 0) return;
    if (wildcard_.size() <= static_cast<std::size_t>(index)) wildcard_.resize(index + 1, false);
    wildcard_[static_cast<std::size_t>(index)] = wildcard;
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
  std::string_view line_; ///< of the operation being replayed
  /// What the operation on `line` found, until the record's next line tells what it should.
  struct Pending {
    mpilite::Outcome found;
    std::string_view line;
  };
  std::optional<Pending> expected_;
  std::vector<bool> wildcard_; ///< per request index: a wildcard receive
  std::vector<std::string_view> words_;
  std::size_t next_ = 1;
  std::vector<MPI_Comm> comms_{MPI_COMM_WORLD, MPI_COMM_SELF};
  std::vector<MPI_Request> requests_;
  MPI_Request null_request_ = MPI_REQUEST_NULL;
  std::vector<MPI_Message> messages_; ///< per message index: what a matched probe set aside
  MPI_Message no_message_ = MPI_MESSAGE_NULL;
  std::map<std::string, MPI_Datatype> types_;
  MPI_Op user_ops_[2] = {MPI_OP_NULL, MPI_OP_NULL};
  std::unordered_map<long long, std::array<Buffer, 2>> pending_;
  long long nonblocking_ = -1; ///< the request index of the collective being replayed, if any
  Buffer bsend_;               ///< the buffer attached for buffered sends
  Buffer scratch_[2];
};

void RankReplay::run(std::string_view op) {
  if (op == "compute") {
    const long long measured = time(), declared = time();
    const double scaled = static_cast<double>(measured) * scale_;
    if (!mpilite::within_time_limit(scaled))
      throw BadRecord(fmt::format("measured compute {} ps times the CPU scale ratio {:g} passes "
                                  "the limit of simulated time",
                                  measured, scale_));
    // Both terms are within the limit, so their sum cannot overflow; charge_compute checks it.
    mpilite::charge_compute((scale_ == 1.0 ? measured : static_cast<long long>(scaled)) + declared);
  } else if (op == "init") {
    MPI_Init(nullptr, nullptr);
  } else if (op == "finalize") {
    MPI_Finalize();
  } else if (op == "send" || op == "isend" || op == "send_init") {
    const std::string_view mode = word();
    send(mode, op == "send"    ? Start::Blocking
               : op == "isend" ? Start::Nonblocking
                               : Start::Persistent);
  } else if (op == "recv") {
    const long long bytes = count();
    const int source = integer(), tag = integer();
    MPI_Status st;
    MPI_Recv(scratch(1, static_cast<std::size_t>(bytes)), static_cast<int>(bytes), MPI_BYTE, source,
             tag, comm(), &st);
    if (mpilite::wildcard(source, tag)) expect(mpilite::Outcome::matched(st));
  } else if (op == "irecv" || op == "recv_init") {
    receive_request(op == "recv_init");
  } else if (op == "start") {
    MPI_Start(request_slot());
  } else if (op == "startall") {
    Slots s = slots(items());
    MPI_Startall(static_cast<int>(s.handles.size()), s.handles.data());
    put_back(s);
  } else if (op == "request_free") {
    MPI_Request_free(request_slot());
  } else if (op == "cancel") {
    MPI_Request* q = request_slot();
    MPI_Cancel(q);
    // A cancelled operation completes at once: its status says so.
    int done = 0, cancelled = 0;
    MPI_Status st;
    MPI_Request_get_status(*q, &done, &st);
    if (done) MPI_Test_cancelled(&st, &cancelled);
    expect(mpilite::Outcome{cancelled != 0, {}, {}});
  } else if (op == "request_get_status") {
    int flag = 0;
    MPI_Status st;
    MPI_Request_get_status(*request_slot(), &flag, &st);
    expect(mpilite::Outcome{flag != 0, {}, {}});
  } else if (op == "buffer_attach") {
    const long long size = count();
    // MPI refuses a second buffer, but the first must not be freed while attached.
    if (bsend_.data)
      throw BadRecord("a buffer is attached while one is (no buffer_detach between)");
    bsend_ = allocate(static_cast<std::size_t>(size));
    MPI_Buffer_attach(bsend_.data.get(), static_cast<int>(size));
  } else if (op == "buffer_detach") {
    void* attached = nullptr;
    int size = 0;
    MPI_Buffer_detach(&attached, &size);
    bsend_ = {};
  } else if (op == "sendrecv") {
    const long long sbytes = count();
    const int dest = integer(), stag = integer();
    const long long rbytes = count();
    const int source = integer(), rtag = integer();
    MPI_Status st;
    MPI_Sendrecv(scratch(0, static_cast<std::size_t>(sbytes)), static_cast<int>(sbytes), MPI_BYTE,
                 dest, stag, scratch(1, static_cast<std::size_t>(rbytes)), static_cast<int>(rbytes),
                 MPI_BYTE, source, rtag, comm(), &st);
    if (mpilite::wildcard(source, rtag)) expect(mpilite::Outcome::matched(st));
  } else if (op == "wait" || op == "test" || op == "waitall" || op == "testall" ||
             op == "waitany" || op == "testany" || op == "waitsome" || op == "testsome") {
    completion(op);
  } else if (op == "probe" || op == "iprobe") {
    const int source = integer(), tag = integer();
    const MPI_Comm c = comm();
    int flag = 1;
    MPI_Status st;
    if (op == "probe")
      MPI_Probe(source, tag, c, &st);
    else
      MPI_Iprobe(source, tag, c, &flag, &st);
    const bool matched = flag && mpilite::wildcard(source, tag);
    if (op == "iprobe" || matched)
      expect(matched ? mpilite::Outcome::matched(st) : mpilite::Outcome{flag != 0, {}, {}});
  } else if (op == "mprobe" || op == "improbe") {
    const int source = integer(), tag = integer();
    const MPI_Comm c = comm();
    MPI_Message* m = message_slot();
    int flag = 1;
    MPI_Status st;
    if (op == "mprobe")
      MPI_Mprobe(source, tag, c, m, &st);
    else
      MPI_Improbe(source, tag, c, &flag, m, &st);
    const bool matched = flag && mpilite::wildcard(source, tag);
    if (op == "improbe" || matched)
      expect(matched ? mpilite::Outcome::matched(st) : mpilite::Outcome{flag != 0, {}, {}});
  } else if (op == "mrecv") {
    const long long bytes = count();
    MPI_Status st;
    MPI_Mrecv(scratch(1, static_cast<std::size_t>(bytes)), static_cast<int>(bytes), MPI_BYTE,
              message_slot(), &st);
  } else if (op == "imrecv") {
    const long long bytes = count();
    MPI_Message* m = message_slot();
    const long long index = num_at(next_);
    MPI_Request* q = new_request_slot();
    MPI_Imrecv(buffer_for(index, static_cast<std::size_t>(bytes)), static_cast<int>(bytes),
               MPI_BYTE, m, q);
  } else if (op == "split") {
    const MPI_Comm c = comm();
    const int color = integer(), key = integer();
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Comm_split(c, color, key, &made);
    new_comm(made);
  } else if (op == "dup") {
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Comm_dup(comm(), &made);
    new_comm(made);
  } else if (op == "free") {
    const long long i = num_at(next_);
    MPI_Comm c = comm();
    MPI_Comm_free(&c);
    comms_[static_cast<std::size_t>(i)] = MPI_COMM_NULL;
  } else if (!made_comm(op)) {
    // A non-blocking collective is its blocking form's line with an "i" and the request last.
    const bool nonblocking = op.size() > 1 && op[0] == 'i' && is_collective(op.substr(1));
    nonblocking_ = nonblocking ? num_at(words_.size() - 1) : -1;
    collective(nonblocking ? op.substr(1) : op);
    nonblocking_ = -1;
  }
}

bool RankReplay::made_comm(std::string_view op) {
  if (op == "cart_create") {
    const MPI_Comm c = comm();
    std::vector<int> dims = ints(), periods = ints();
    if (dims.size() != periods.size())
      throw BadRecord(fmt::format("{} dimensions, {} periods", dims.size(), periods.size()));
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Cart_create(c, static_cast<int>(dims.size()), dims.data(), periods.data(), 0, &made);
    new_comm(made);
  } else if (op == "cart_sub") {
    const MPI_Comm c = comm();
    std::vector<int> remain = ints();
    MPI_Comm made = MPI_COMM_NULL;
    if (remain.size() != static_cast<std::size_t>(cart_dims(c)))
      throw BadRecord(fmt::format("{} dimensions to keep or drop, the grid has {}", remain.size(),
                                  cart_dims(c)));
    MPI_Cart_sub(c, remain.data(), &made);
    new_comm(made);
  } else if (op == "graph_create") {
    const MPI_Comm c = comm();
    std::vector<int> index = ints(), edges = ints();
    if (!index.empty() && static_cast<std::size_t>(index.back()) != edges.size())
      throw BadRecord(
          fmt::format("the index ends at {}, {} edges follow", index.back(), edges.size()));
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Graph_create(c, static_cast<int>(index.size()), index.data(), edges.data(), 0, &made);
    new_comm(made);
  } else if (op == "dist_graph_adjacent") {
    const MPI_Comm c = comm();
    std::vector<int> sources = ints(), destinations = ints();
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Dist_graph_create_adjacent(c, static_cast<int>(sources.size()), sources.data(),
                                   MPI_UNWEIGHTED, static_cast<int>(destinations.size()),
                                   destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &made);
    new_comm(made);
  } else if (op == "dist_graph") {
    const MPI_Comm c = comm();
    std::vector<int> sources = ints(), degrees = ints(), destinations = ints();
    if (sources.size() != degrees.size() ||
        sum(degrees) != static_cast<long long>(destinations.size()))
      throw BadRecord(fmt::format("{} sources, {} degrees adding up to {}, {} destinations",
                                  sources.size(), degrees.size(), sum(degrees),
                                  destinations.size()));
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Dist_graph_create(c, static_cast<int>(sources.size()), sources.data(), degrees.data(),
                          destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &made);
    new_comm(made);
  } else if (op == "comm_create" || op == "comm_create_group") {
    const MPI_Comm c = comm();
    const int tag = op == "comm_create_group" ? integer() : 0;
    const std::vector<int> ranks = ints();
    MPI_Group all = MPI_GROUP_NULL, members = MPI_GROUP_NULL;
    MPI_Comm_group(c, &all);
    MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &members);
    MPI_Comm made = MPI_COMM_NULL;
    if (op == "comm_create")
      MPI_Comm_create(c, members, &made);
    else
      MPI_Comm_create_group(c, members, tag, &made);
    MPI_Group_free(&members);
    MPI_Group_free(&all);
    new_comm(made);
  } else {
    return false;
  }
  return true;
}

/// The wait and test calls, on one request ("wait", "test") or several.
void RankReplay::completion(std::string_view op) {
  Slots s = slots(op == "wait" || op == "test" ? 1 : items());
  int flag = 1;
  std::vector<MPI_Status> statuses(std::max<std::size_t>(s.handles.size(), 1));
  const std::vector<std::size_t> done = complete(op, s, flag, statuses.data());
  put_back(s);
  const mpilite::Recorded what = op == "wait" || op == "waitall"   ? mpilite::Recorded::Matches
                                 : op == "test" || op == "testall" ? mpilite::Recorded::Flag
                                                                   : mpilite::Recorded::Which;
  expect(mpilite::completion_outcome(what, flag != 0, done, [&](std::size_t k) {
    return s.wildcard[done[k]] ? &statuses[k] : nullptr;
  }));
}

std::vector<std::size_t> RankReplay::complete(std::string_view op, Slots& s, int& flag,
                                              MPI_Status* statuses) {
  const int n = static_cast<int>(s.handles.size());
  MPI_Request* h = s.handles.data();
  std::vector<std::size_t> done;
  if (op == "wait" || op == "waitall" || op == "test" || op == "testall") {
    if (op == "wait")
      MPI_Wait(h, statuses);
    else if (op == "test")
      MPI_Test(h, &flag, statuses);
    else if (op == "waitall")
      MPI_Waitall(n, h, statuses);
    else
      MPI_Testall(n, h, &flag, statuses);
    for (std::size_t i = 0; flag && i < s.handles.size(); ++i)
      done.push_back(i);
  } else if (op == "waitany" || op == "testany") {
    int index = MPI_UNDEFINED;
    if (op == "waitany")
      MPI_Waitany(n, h, &index, statuses);
    else
      MPI_Testany(n, h, &index, &flag, statuses);
    if (index != MPI_UNDEFINED) done.push_back(static_cast<std::size_t>(index));
  } else {
    int outcount = 0;
    std::vector<int> indices(s.handles.size());
    if (op == "waitsome")
      MPI_Waitsome(n, h, &outcount, indices.data(), statuses);
    else
      MPI_Testsome(n, h, &outcount, indices.data(), statuses);
    for (int k = 0; k < outcount; ++k) // MPI_UNDEFINED (no active request) is negative
      done.push_back(static_cast<std::size_t>(indices[static_cast<std::size_t>(k)]));
  }
  return done;
}

void RankReplay::check_outcome() {
  if (!expected_) throw BadRecord("an outcome line follows no operation that has one");
  mpilite::Outcome recorded;
  recorded.flag = integer() != 0;
  recorded.indices.resize(items());
  for (int& i : recorded.indices)
    i = integer();
  recorded.matches.resize(items());
  for (mpilite::Outcome::Match& m : recorded.matches) {
    m.source = integer();
    m.tag = integer();
  }
  const Pending replayed = std::move(*expected_);
  expected_.reset();
  ++checks_.checked;
  if (recorded == replayed.found) return;
  checks_.differ(rank_, mpilite::World::get().self().clock,
                 [&] { return describe(replayed.line, replayed.found, recorded); });
}

std::string RankReplay::describe(std::string_view op_line, const mpilite::Outcome& replayed,
                                 const mpilite::Outcome& recorded) const {
  const std::string_view op = op_line.substr(0, op_line.find(' '));
  const auto offset = static_cast<std::size_t>(op_line.data() - file_.data());
  long long line_no = 1, nth = 0;
  for (std::size_t at = 0; at <= offset;) {
    const std::size_t end = std::min(file_.find('\n', at), file_.size());
    const std::string_view line = file_.substr(at, end - at);
    nth += line.substr(0, line.find(' ')) == op ? 1 : 0;
    line_no += at < offset ? 1 : 0;
    at = end + 1;
  }
  return fmt::format("rank {}'s {} {}{} (rank-{}.ops:{}) {}", rank_, ordinal(nth), mpi_name(op),
                     peer_text(op_line), rank_, line_no, difference(op, replayed, recorded));
}

void RankReplay::collective(std::string_view op) {
  if (op == "barrier") {
    const MPI_Comm c = comm();
    MPI_Request* q = started();
    q ? MPI_Ibarrier(c, q) : MPI_Barrier(c);
    return;
  }
  if (op == "bcast") {
    const long long n = count();
    const MPI_Datatype t = type();
    const int root = integer();
    const MPI_Comm c = comm();
    void* buf = data(0, bytes_of(n, t));
    MPI_Request* q = started();
    const int k = static_cast<int>(n);
    q ? MPI_Ibcast(buf, k, t, root, c, q) : MPI_Bcast(buf, k, t, root, c);
    return;
  }
  if (op.starts_with("neighbor_")) return neighbor(op.substr(9));
  const bool in_place = integer() != 0;
  if (op == "reduce" || op == "allreduce" || op == "scan" || op == "exscan" ||
      op == "reduce_scatter_block") {
    const long long n = count();
    const MPI_Datatype t = type();
    const MPI_Op o = reduce_op();
    const int root = op == "reduce" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long copies = op == "reduce_scatter_block" ? comm_size(c) : 1;
    const void* in = in_place ? MPI_IN_PLACE : data(0, bytes_of(n, t, copies));
    void* out = data(1, bytes_of(n, t, copies));
    MPI_Request* q = started();
    const int k = static_cast<int>(n);
    if (op == "reduce")
      q ? MPI_Ireduce(in, out, k, t, o, root, c, q) : MPI_Reduce(in, out, k, t, o, root, c);
    else if (op == "allreduce")
      q ? MPI_Iallreduce(in, out, k, t, o, c, q) : MPI_Allreduce(in, out, k, t, o, c);
    else if (op == "scan")
      q ? MPI_Iscan(in, out, k, t, o, c, q) : MPI_Scan(in, out, k, t, o, c);
    else if (op == "exscan")
      q ? MPI_Iexscan(in, out, k, t, o, c, q) : MPI_Exscan(in, out, k, t, o, c);
    else
      q ? MPI_Ireduce_scatter_block(in, out, k, t, o, c, q)
        : MPI_Reduce_scatter_block(in, out, k, t, o, c);
  } else if (op == "reduce_scatter") {
    std::vector<int> counts_of = counts();
    const MPI_Datatype t = type();
    const MPI_Op o = reduce_op();
    const MPI_Comm c = comm();
    fit(counts_of, c);
    const std::size_t bytes = bytes_of(sum(counts_of), t);
    const void* in = in_place ? MPI_IN_PLACE : data(0, bytes);
    void* out = data(1, bytes);
    MPI_Request* q = started();
    q ? MPI_Ireduce_scatter(in, out, counts_of.data(), t, o, c, q)
      : MPI_Reduce_scatter(in, out, counts_of.data(), t, o, c);
  } else if (op == "gather" || op == "scatter" || op == "allgather" || op == "alltoall") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const int root = op == "gather" || op == "scatter" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long p = comm_size(c);
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    void* sbuf = data(0, bytes_of(scount, stype, p));
    void* rbuf = data(1, bytes_of(rcount, rtype, p));
    MPI_Request* q = started();
    if (op == "gather") {
      const void* in = in_place ? MPI_IN_PLACE : sbuf;
      q ? MPI_Igather(in, sn, stype, rbuf, rn, rtype, root, c, q)
        : MPI_Gather(in, sn, stype, rbuf, rn, rtype, root, c);
    } else if (op == "scatter") {
      void* out = in_place ? MPI_IN_PLACE : rbuf;
      q ? MPI_Iscatter(sbuf, sn, stype, out, rn, rtype, root, c, q)
        : MPI_Scatter(sbuf, sn, stype, out, rn, rtype, root, c);
    } else if (op == "allgather") {
      const void* in = in_place ? MPI_IN_PLACE : sbuf;
      q ? MPI_Iallgather(in, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Allgather(in, sn, stype, rbuf, rn, rtype, c);
    } else {
      const void* in = in_place ? MPI_IN_PLACE : sbuf;
      q ? MPI_Ialltoall(in, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Alltoall(in, sn, stype, rbuf, rn, rtype, c);
    }
  } else if (op == "gatherv" || op == "allgatherv") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const int root = op == "gatherv" ? integer() : 0;
    const MPI_Comm c = comm();
    fit(rcounts, c);
    const std::vector<int> displs = displacements(rcounts);
    void* sbuf = in_place ? MPI_IN_PLACE : data(0, bytes_of(scount, stype));
    void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
    MPI_Request* q = started();
    const int sn = static_cast<int>(scount);
    if (op == "gatherv")
      q ? MPI_Igatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, root, c, q)
        : MPI_Gatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, root, c);
    else
      q ? MPI_Iallgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c, q)
        : MPI_Allgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c);
  } else if (op == "scatterv") {
    std::vector<int> scounts = counts();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const int root = integer();
    const MPI_Comm c = comm();
    fit(scounts, c);
    const std::vector<int> displs = displacements(scounts);
    void* sbuf = data(0, bytes_of(sum(scounts), stype));
    void* rbuf = in_place ? MPI_IN_PLACE : data(1, bytes_of(rcount, rtype));
    MPI_Request* q = started();
    const int rn = static_cast<int>(rcount);
    q ? MPI_Iscatterv(sbuf, scounts.data(), displs.data(), stype, rbuf, rn, rtype, root, c, q)
      : MPI_Scatterv(sbuf, scounts.data(), displs.data(), stype, rbuf, rn, rtype, root, c);
  } else if (op == "alltoallv") {
    alltoallv(false, in_place);
  } else if (op == "alltoallw") {
    std::vector<int> scounts = counts();
    std::vector<MPI_Datatype> stypes = types();
    std::vector<int> rcounts = counts();
    std::vector<MPI_Datatype> rtypes = types();
    const MPI_Comm c = comm();
    fit(scounts, c);
    fit(rcounts, c);
    stypes.resize(scounts.size(), MPI_BYTE);
    rtypes.resize(rcounts.size(), MPI_BYTE);
    std::vector<int> sdispls, rdispls;
    const std::size_t sbytes = byte_displacements(scounts, stypes, sdispls);
    const std::size_t rbytes = byte_displacements(rcounts, rtypes, rdispls);
    void* sbuf = in_place ? MPI_IN_PLACE : data(0, sbytes);
    void* rbuf = data(1, rbytes);
    MPI_Request* q = started();
    q ? MPI_Ialltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf, rcounts.data(),
                       rdispls.data(), rtypes.data(), c, q)
      : MPI_Alltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf, rcounts.data(),
                      rdispls.data(), rtypes.data(), c);
  } else {
    throw BadRecord(fmt::format("unknown operation {}", op));
  }
}

void RankReplay::alltoallv(bool neighbors, bool in_place) {
  std::vector<int> scounts = counts();
  const MPI_Datatype stype = type();
  std::vector<int> rcounts = counts();
  const MPI_Datatype rtype = type();
  const MPI_Comm c = comm();
  if (neighbors) {
    fit_neighbors(scounts, c, false);
    fit_neighbors(rcounts, c, true);
  } else {
    fit(scounts, c);
    fit(rcounts, c);
  }
  const std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
  void* sbuf = in_place ? MPI_IN_PLACE : data(0, bytes_of(sum(scounts), stype));
  void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
  MPI_Request* q = started();
  // The neighbourhood form takes the same arguments, per neighbour instead of per rank.
  if (q)
    (neighbors ? MPI_Ineighbor_alltoallv : MPI_Ialltoallv)(sbuf, scounts.data(), sdispls.data(),
                                                           stype, rbuf, rcounts.data(),
                                                           rdispls.data(), rtype, c, q);
  else
    (neighbors ? MPI_Neighbor_alltoallv : MPI_Alltoallv)(sbuf, scounts.data(), sdispls.data(),
                                                         stype, rbuf, rcounts.data(),
                                                         rdispls.data(), rtype, c);
}

void RankReplay::neighbor(std::string_view kind) {
  if (kind == "allgather" || kind == "alltoall") {
    const long long in = count(), out = count();
    const long long scount = count();
    const MPI_Datatype stype = type();
    const long long rcount = count();
    const MPI_Datatype rtype = type();
    const MPI_Comm c = comm();
    fit_neighbors(std::vector<int>(static_cast<std::size_t>(in)), c, true);
    fit_neighbors(std::vector<int>(static_cast<std::size_t>(out)), c, false);
    void* sbuf = data(0, bytes_of(scount, stype, kind == "alltoall" ? out : 1));
    void* rbuf = data(1, bytes_of(rcount, rtype, in));
    MPI_Request* q = started();
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    if (kind == "allgather")
      q ? MPI_Ineighbor_allgather(sbuf, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Neighbor_allgather(sbuf, sn, stype, rbuf, rn, rtype, c);
    else
      q ? MPI_Ineighbor_alltoall(sbuf, sn, stype, rbuf, rn, rtype, c, q)
        : MPI_Neighbor_alltoall(sbuf, sn, stype, rbuf, rn, rtype, c);
  } else if (kind == "allgatherv") {
    const long long scount = count();
    const MPI_Datatype stype = type();
    const std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const MPI_Comm c = comm();
    fit_neighbors(rcounts, c, true);
    const std::vector<int> displs = displacements(rcounts);
    void* sbuf = data(0, bytes_of(scount, stype));
    void* rbuf = data(1, bytes_of(sum(rcounts), rtype));
    MPI_Request* q = started();
    const int sn = static_cast<int>(scount);
    q ? MPI_Ineighbor_allgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c, q)
      : MPI_Neighbor_allgatherv(sbuf, sn, stype, rbuf, rcounts.data(), displs.data(), rtype, c);
  } else if (kind == "alltoallv") {
    alltoallv(true, false);
  } else if (kind == "alltoallw") {
    const std::vector<int> scounts = counts();
    const std::vector<MPI_Datatype> stypes = types();
    const std::vector<int> rcounts = counts();
    const std::vector<MPI_Datatype> rtypes = types();
    const MPI_Comm c = comm();
    fit_neighbors(scounts, c, false);
    fit_neighbors(rcounts, c, true);
    if (stypes.size() != scounts.size() || rtypes.size() != rcounts.size())
      throw BadRecord("a count and a datatype per neighbour");
    std::vector<MPI_Aint> sdispls, rdispls;
    void* sbuf = data(0, byte_displacements(scounts, stypes, sdispls));
    void* rbuf = data(1, byte_displacements(rcounts, rtypes, rdispls));
    MPI_Request* q = started();
    q ? MPI_Ineighbor_alltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf,
                                rcounts.data(), rdispls.data(), rtypes.data(), c, q)
      : MPI_Neighbor_alltoallw(sbuf, scounts.data(), sdispls.data(), stypes.data(), rbuf,
                               rcounts.data(), rdispls.data(), rtypes.data(), c);
  } else {
    throw BadRecord(fmt::format("unknown operation neighbor_{}", kind));
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

RecordMeta read_record_meta(const std::string& dir) {
  const std::string path = dir + "/meta.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{} is not a record's meta.json: {}", path, e.what()));
  } catch (const std::runtime_error&) {
    throw std::runtime_error(fmt::format(
        "{} has no meta.json: record a run first with MPISIM_RECORD={} (or mpisimrun --record)",
        dir, dir));
  }
  const auto bad = [&](const std::string& problem) {
    return std::runtime_error(
        fmt::format("{}: {}; is it a record made by MPISIM_RECORD?", path, problem));
  };
  if (!j.is_object()) throw bad("not a JSON object");
  const auto version = j.find("mpisim_record");
  if (version == j.end() || !version->is_number_integer())
    throw bad("no format version (mpisim_record)");
  if (*version < kOldestRecordVersion || *version > kRecordVersion)
    throw bad(fmt::format("format version {} (this mpisim-replay reads versions {} to {})",
                          version->dump(), kOldestRecordVersion, kRecordVersion));
  RecordMeta m;
  const auto ranks = j.find("ranks");
  if (ranks == j.end() || !ranks->is_number_integer() || *ranks <= 0 || *ranks > INT_MAX)
    throw bad("ranks must be a positive integer");
  m.ranks = ranks->get<int>();
  const auto scale = j.find("cpu_scale");
  if (scale == j.end() || !scale->is_number() || !(scale->get<double>() > 0) ||
      !std::isfinite(scale->get<double>()))
    throw bad("cpu_scale must be a number > 0");
  m.cpu_scale = scale->get<double>();
  if (const auto team = j.find("widest_team"); team != j.end()) {
    const auto cores = j.find("cores_per_rank");
    const auto fork_join = j.find("fork_join_ps");
    if (!team->is_number_unsigned() || *team > INT_MAX || cores == j.end() ||
        !cores->is_number_unsigned() || *cores == 0 || *cores > INT_MAX || fork_join == j.end() ||
        !fork_join->is_number_unsigned())
      throw bad("widest_team, cores_per_rank and fork_join_ps must be integers >= 0");
    m.widest_team = team->get<int>();
    m.cores_per_rank = cores->get<int>();
    m.fork_join = fork_join->get<SimTime>();
  }
  if (const auto peak = j.find("peak_memory_kib"); peak != j.end()) {
    const auto hosts = j.find("hosts");
    if (!peak->is_number_unsigned() || hosts == j.end() || !hosts->is_number_unsigned() ||
        *hosts == 0 || *peak > (std::uint64_t{1} << 40) || *hosts > INT_MAX)
      throw bad("peak_memory_kib and hosts must be positive integers");
    // Each host process held its ranks' buffers: twice its peak, and room for small records.
    m.buffer_bound = 2 * peak->get<std::uint64_t>() * 1024 * hosts->get<std::uint64_t>() +
                     (std::uint64_t{64} << 20);
  }
  for (const char* key : {"machine", "outcome"})
    if (!j.contains(key) || !j[key].is_string()) throw bad(fmt::format("{} must be a string", key));
  m.machine = j["machine"].get<std::string>();
  m.outcome = j["outcome"].get<std::string>();
  // Every rank has its file: a count the directory cannot back would only make memory grow.
  std::size_t files = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    files += name.starts_with("rank-") && name.ends_with(".ops") ? 1 : 0;
  }
  if (files < static_cast<std::size_t>(m.ranks))
    throw bad(
        fmt::format("it says {} ranks, but {} holds {} rank-*.ops files", m.ranks, dir, files));
  return m;
}

std::string openmp_mismatch(const RecordMeta& meta, const MachineParams& machine) {
  if (meta.widest_team < 2) return "";
  // A team no larger than either machine's cores takes as long as its busiest thread on both.
  const bool cores_differ =
      machine.cores_per_rank != meta.cores_per_rank &&
      meta.widest_team > std::min(machine.cores_per_rank, meta.cores_per_rank);
  if (!cores_differ && machine.fork_join == meta.fork_join) return "";
  return fmt::format("its OpenMP regions (teams of up to {} threads) were charged for "
                     "cores_per_rank={} and fork_join={}, and this machine has {} and {}: the "
                     "record keeps each region's time, not its threads' work. Replay it with "
                     "--cores-per-rank {} --fork-join {}ps, or record the run again on this "
                     "machine",
                     meta.widest_team, meta.cores_per_rank, format_time(meta.fork_join),
                     machine.cores_per_rank, format_time(machine.fork_join), meta.cores_per_rank,
                     meta.fork_join);
}

mpilite::World::Main replay_main(std::string dir, double compute_scale, std::uint64_t buffer_bound,
                                 std::shared_ptr<ReplayChecks> checks) {
  if (!checks) checks = std::make_shared<ReplayChecks>();
  // Each rank's replay outlives the rank: a record that ends with receives still posted (a
  // truncated file) must not have them written into freed buffers, and a rank that ends the run
  // (MPI_Abort) never unwinds its fiber, which would leak what lived on it.
  struct RankFile {
    std::string path;
    std::string text;
    std::unique_ptr<RankReplay> replay;
  };
  auto kept = std::make_shared<std::deque<RankFile>>();
  return [dir = std::move(dir), compute_scale, buffer_bound, kept, checks](int, char**) {
    RankFile& f = kept->emplace_back();
    const int rank = mpilite::World::get().self().id;
    f.path = fmt::format("{}/rank-{}.ops", dir, rank);
    bool readable = true;
    try {
      f.text = read_file(f.path);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "mpisim-replay: %s (was the run recorded completely?)\n", e.what());
      readable = false;
    }
    if (!readable) MPI_Abort(MPI_COMM_WORLD, 2); // outside the handler: it never returns
    f.replay = std::make_unique<RankReplay>(compute_scale, buffer_bound, rank, f.text, *checks);
    std::size_t line_no = 0;
    for (std::size_t at = 0; at < f.text.size();) {
      const std::size_t end = std::min(f.text.find('\n', at), f.text.size());
      ++line_no;
      bool bad = false;
      try {
        f.replay->line(std::string_view(f.text).substr(at, end - at));
      } catch (const std::exception& e) { // BadRecord, or what the standard library refused
        std::fprintf(stderr, "mpisim-replay: %s:%zu: %s\n", f.path.c_str(), line_no, e.what());
        bad = true;
      }
      if (bad) MPI_Abort(MPI_COMM_WORLD, 2);
      at = end + 1;
    }
    f.replay->settle();
    return 0;
  };
}

} // namespace mpisim
