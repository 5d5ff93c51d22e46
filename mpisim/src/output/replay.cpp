#include "replay.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api_compute.hpp"
#include "mpi.h"

namespace mpisim {
namespace {

/// Thrown for a line replay cannot understand; the rank reports it and aborts the run.
struct BadRecord : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void user_op_noop(void*, void*, int*, MPI_Datatype*) {}

/// One rank's replay: the handles the recorded indices stand for, and buffers.
class RankReplay {
public:
  RankReplay(double compute_scale) : scale_(compute_scale) {}

  void line(std::string_view text) {
    words_.clear();
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t space = text.find(' ', at);
      const std::size_t end = space == std::string_view::npos ? text.size() : space;
      if (end > at) words_.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    next_ = 1;
    if (!words_.empty()) run(words_[0]);
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
  int integer() { return static_cast<int>(num()); }
  std::string_view word() {
    if (next_ >= words_.size()) throw BadRecord("missing argument");
    return words_[next_++];
  }

  MPI_Comm comm() {
    const long long i = num();
    if (i < 0 || i >= static_cast<long long>(comms_.size()) || comms_[i] == MPI_COMM_NULL)
      throw BadRecord(fmt::format("communicator {} was not created", i));
    return comms_[static_cast<std::size_t>(i)];
  }
  void new_comm(MPI_Comm c) {
    const long long i = num();
    if (i < 0) return;
    if (comms_.size() <= static_cast<std::size_t>(i)) comms_.resize(i + 1, MPI_COMM_NULL);
    comms_[static_cast<std::size_t>(i)] = c;
  }
  MPI_Datatype type() {
    const std::string_view w = word();
    if (w.empty() || w[0] != 'd') {
      --next_;
      return static_cast<MPI_Datatype>(num());
    }
    auto& t = types_[std::string(w)];
    if (t == 0) {
      // A derived type is replayed as contiguous data of its size (of its basic type, so that
      // reductions apply): simulated time depends on sizes only.
      unsigned long long size = 0, count = 0;
      long long basic = 0;
      if (std::sscanf(std::string(w).c_str(), "d%llu:%lld:%llu", &size, &basic, &count) != 3)
        throw BadRecord(fmt::format("bad datatype {}", w));
      int basic_size = 0;
      if (basic != MPI_DATATYPE_NULL) MPI_Type_size(static_cast<MPI_Datatype>(basic), &basic_size);
      if (basic_size > 0 && count * static_cast<unsigned long long>(basic_size) == size)
        MPI_Type_contiguous(static_cast<int>(count), static_cast<MPI_Datatype>(basic), &t);
      else
        MPI_Type_contiguous(static_cast<int>(size), MPI_BYTE, &t);
      MPI_Type_commit(&t);
    }
    return t;
  }
  MPI_Op reduce_op() {
    const std::string_view w = word();
    if (w != "u0" && w != "u1") {
      --next_;
      return static_cast<MPI_Op>(num());
    }
    MPI_Op& o = user_ops_[w == "u1"];
    if (o == MPI_OP_NULL) MPI_Op_create(user_op_noop, w == "u1", &o);
    return o;
  }
  std::vector<int> counts() {
    std::vector<int> c(static_cast<std::size_t>(integer()));
    for (int& x : c)
      x = integer();
    return c;
  }
  static std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> d(counts.size());
    for (std::size_t i = 1; i < counts.size(); ++i)
      d[i] = d[i - 1] + counts[i - 1];
    return d;
  }
  MPI_Request* request_slot() {
    const long long i = num();
    if (i < 0) return &null_request_;
    if (requests_.size() <= static_cast<std::size_t>(i)) requests_.resize(i + 1, MPI_REQUEST_NULL);
    return &requests_[static_cast<std::size_t>(i)];
  }
  /// A buffer for `bytes` that lives as long as the request at `slot` (non-blocking operations).
  void* buffer_for(long long slot, std::size_t bytes) {
    auto& b = pending_[slot];
    b.assign(bytes ? bytes : 1, std::byte{0});
    return b.data();
  }
  /// Scratch for blocking operations: nothing refers to it once they return.
  void* scratch(int which, std::size_t bytes) {
    auto& b = scratch_[which];
    if (b.size() < bytes) b.assign(bytes, std::byte{0});
    return b.empty() ? static_cast<void*>(&null_request_) : b.data();
  }
  static std::size_t bytes_of(long long count, MPI_Datatype t, long long copies = 1) {
    int size = 0;
    MPI_Type_size(t, &size);
    return static_cast<std::size_t>(count > 0 ? count : 0) * static_cast<std::size_t>(size) *
           static_cast<std::size_t>(copies > 0 ? copies : 1);
  }
  static int comm_size(MPI_Comm c) {
    int n = 0;
    MPI_Comm_size(c, &n);
    return n;
  }
  static int sum(const std::vector<int>& v) {
    int s = 0;
    for (int x : v)
      s += x;
    return s;
  }

  /// The requests of a wait/test call: the handles, and where they go back to.
  struct Slots {
    std::vector<MPI_Request*> where;
    std::vector<MPI_Request> handles;
    void put_back() {
      for (std::size_t i = 0; i < where.size(); ++i)
        *where[i] = handles[i];
    }
  };
  Slots slots() {
    Slots s;
    const int n = integer();
    for (int i = 0; i < n; ++i) {
      s.where.push_back(request_slot());
      s.handles.push_back(*s.where.back());
    }
    return s;
  }

  void send(std::string_view mode, bool nonblocking) {
    const long long bytes = num();
    const int dest = integer(), tag = integer();
    const MPI_Comm c = comm();
    if (!nonblocking) {
      void* buf = scratch(0, static_cast<std::size_t>(bytes));
      const int n = static_cast<int>(bytes);
      if (mode == "standard")
        MPI_Send(buf, n, MPI_BYTE, dest, tag, c);
      else if (mode == "synchronous")
        MPI_Ssend(buf, n, MPI_BYTE, dest, tag, c);
      else if (mode == "ready")
        MPI_Rsend(buf, n, MPI_BYTE, dest, tag, c);
      else
        throw BadRecord(fmt::format("send mode {} is not replayed", mode));
      return;
    }
    const long long index = num_at(next_);
    MPI_Request* q = request_slot();
    void* buf = buffer_for(index, static_cast<std::size_t>(bytes));
    const int n = static_cast<int>(bytes);
    if (mode == "standard")
      MPI_Isend(buf, n, MPI_BYTE, dest, tag, c, q);
    else if (mode == "synchronous")
      MPI_Issend(buf, n, MPI_BYTE, dest, tag, c, q);
    else if (mode == "ready")
      MPI_Irsend(buf, n, MPI_BYTE, dest, tag, c, q);
    else
      throw BadRecord(fmt::format("send mode {} is not replayed", mode));
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

  double scale_;
  std::vector<std::string_view> words_;
  std::size_t next_ = 1;
  std::vector<MPI_Comm> comms_{MPI_COMM_WORLD, MPI_COMM_SELF};
  std::vector<MPI_Request> requests_;
  MPI_Request null_request_ = MPI_REQUEST_NULL;
  std::map<std::string, MPI_Datatype> types_;
  MPI_Op user_ops_[2] = {MPI_OP_NULL, MPI_OP_NULL};
  std::unordered_map<long long, std::vector<std::byte>> pending_;
  std::vector<std::byte> scratch_[2];
};

void RankReplay::run(std::string_view op) {
  if (op == "compute") {
    const long long measured = num(), declared = num();
    const auto scaled =
        scale_ == 1.0 ? measured : static_cast<long long>(static_cast<double>(measured) * scale_);
    mpilite::charge_compute(scaled + declared);
  } else if (op == "init") {
    MPI_Init(nullptr, nullptr);
  } else if (op == "finalize") {
    MPI_Finalize();
  } else if (op == "send" || op == "isend") {
    send(word(), op == "isend");
  } else if (op == "recv") {
    const long long bytes = num();
    const int source = integer(), tag = integer();
    MPI_Recv(scratch(1, static_cast<std::size_t>(bytes)), static_cast<int>(bytes), MPI_BYTE, source,
             tag, comm(), MPI_STATUS_IGNORE);
  } else if (op == "irecv") {
    const long long bytes = num();
    const int source = integer(), tag = integer();
    const MPI_Comm c = comm();
    const long long index = num_at(next_);
    MPI_Request* q = request_slot();
    MPI_Irecv(buffer_for(index, static_cast<std::size_t>(bytes)), static_cast<int>(bytes), MPI_BYTE,
              source, tag, c, q);
  } else if (op == "sendrecv") {
    const long long sbytes = num();
    const int dest = integer(), stag = integer();
    const long long rbytes = num();
    const int source = integer(), rtag = integer();
    MPI_Sendrecv(scratch(0, static_cast<std::size_t>(sbytes)), static_cast<int>(sbytes), MPI_BYTE,
                 dest, stag, scratch(1, static_cast<std::size_t>(rbytes)), static_cast<int>(rbytes),
                 MPI_BYTE, source, rtag, comm(), MPI_STATUS_IGNORE);
  } else if (op == "wait" || op == "test") {
    MPI_Request* q = request_slot();
    int flag = 1;
    if (op == "wait")
      MPI_Wait(q, MPI_STATUS_IGNORE);
    else
      MPI_Test(q, &flag, MPI_STATUS_IGNORE);
  } else if (op == "waitall" || op == "testall" || op == "waitany" || op == "testany" ||
             op == "waitsome" || op == "testsome") {
    Slots s = slots();
    const int n = static_cast<int>(s.handles.size());
    int flag = 0, index = 0, outcount = 0;
    std::vector<int> indices(s.handles.size());
    MPI_Request* h = s.handles.data();
    if (op == "waitall")
      MPI_Waitall(n, h, MPI_STATUSES_IGNORE);
    else if (op == "testall")
      MPI_Testall(n, h, &flag, MPI_STATUSES_IGNORE);
    else if (op == "waitany")
      MPI_Waitany(n, h, &index, MPI_STATUS_IGNORE);
    else if (op == "testany")
      MPI_Testany(n, h, &index, &flag, MPI_STATUS_IGNORE);
    else if (op == "waitsome")
      MPI_Waitsome(n, h, &outcount, indices.data(), MPI_STATUSES_IGNORE);
    else
      MPI_Testsome(n, h, &outcount, indices.data(), MPI_STATUSES_IGNORE);
    s.put_back();
  } else if (op == "probe" || op == "iprobe") {
    const int source = integer(), tag = integer();
    const MPI_Comm c = comm();
    int flag = 0;
    if (op == "probe")
      MPI_Probe(source, tag, c, MPI_STATUS_IGNORE);
    else
      MPI_Iprobe(source, tag, c, &flag, MPI_STATUS_IGNORE);
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
  } else if (op == "barrier") {
    MPI_Barrier(comm());
  } else if (op == "bcast") {
    const long long count = num();
    const MPI_Datatype t = type();
    const int root = integer();
    MPI_Bcast(scratch(0, bytes_of(count, t)), static_cast<int>(count), t, root, comm());
  } else {
    collective(op);
  }
}

void RankReplay::collective(std::string_view op) {
  const bool in_place = integer() != 0;
  if (op == "reduce" || op == "allreduce" || op == "scan" || op == "exscan" ||
      op == "reduce_scatter_block") {
    const long long count = num();
    const MPI_Datatype t = type();
    const MPI_Op o = reduce_op();
    const int root = op == "reduce" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long copies = op == "reduce_scatter_block" ? comm_size(c) : 1;
    const void* in = in_place ? MPI_IN_PLACE : scratch(0, bytes_of(count, t, copies));
    void* out = scratch(1, bytes_of(count, t, copies));
    const int n = static_cast<int>(count);
    if (op == "reduce")
      MPI_Reduce(in, out, n, t, o, root, c);
    else if (op == "allreduce")
      MPI_Allreduce(in, out, n, t, o, c);
    else if (op == "scan")
      MPI_Scan(in, out, n, t, o, c);
    else if (op == "exscan")
      MPI_Exscan(in, out, n, t, o, c);
    else
      MPI_Reduce_scatter_block(in, out, n, t, o, c);
  } else if (op == "gather" || op == "scatter" || op == "allgather" || op == "alltoall") {
    const long long scount = num();
    const MPI_Datatype stype = type();
    const long long rcount = num();
    const MPI_Datatype rtype = type();
    const int root = op == "gather" || op == "scatter" ? integer() : 0;
    const MPI_Comm c = comm();
    const long long p = comm_size(c);
    const int sn = static_cast<int>(scount), rn = static_cast<int>(rcount);
    void* sbuf = scratch(0, bytes_of(scount, stype, p));
    void* rbuf = scratch(1, bytes_of(rcount, rtype, p));
    if (op == "gather")
      MPI_Gather(in_place ? MPI_IN_PLACE : sbuf, sn, stype, rbuf, rn, rtype, root, c);
    else if (op == "scatter")
      MPI_Scatter(sbuf, sn, stype, in_place ? MPI_IN_PLACE : rbuf, rn, rtype, root, c);
    else if (op == "allgather")
      MPI_Allgather(in_place ? MPI_IN_PLACE : sbuf, sn, stype, rbuf, rn, rtype, c);
    else
      MPI_Alltoall(in_place ? MPI_IN_PLACE : sbuf, sn, stype, rbuf, rn, rtype, c);
  } else if (op == "gatherv" || op == "allgatherv") {
    const long long scount = num();
    const MPI_Datatype stype = type();
    const std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const int root = op == "gatherv" ? integer() : 0;
    const MPI_Comm c = comm();
    const std::vector<int> displs = displacements(rcounts);
    void* sbuf = in_place ? MPI_IN_PLACE : scratch(0, bytes_of(scount, stype));
    void* rbuf = scratch(1, bytes_of(sum(rcounts), rtype));
    if (op == "gatherv")
      MPI_Gatherv(sbuf, static_cast<int>(scount), stype, rbuf, rcounts.data(), displs.data(), rtype,
                  root, c);
    else
      MPI_Allgatherv(sbuf, static_cast<int>(scount), stype, rbuf, rcounts.data(), displs.data(),
                     rtype, c);
  } else if (op == "scatterv") {
    const std::vector<int> scounts = counts();
    const MPI_Datatype stype = type();
    const long long rcount = num();
    const MPI_Datatype rtype = type();
    const int root = integer();
    const MPI_Comm c = comm();
    const std::vector<int> displs = displacements(scounts);
    MPI_Scatterv(scratch(0, bytes_of(sum(scounts), stype)), scounts.data(), displs.data(), stype,
                 in_place ? MPI_IN_PLACE : scratch(1, bytes_of(rcount, rtype)),
                 static_cast<int>(rcount), rtype, root, c);
  } else if (op == "alltoallv") {
    const std::vector<int> scounts = counts();
    const MPI_Datatype stype = type();
    const std::vector<int> rcounts = counts();
    const MPI_Datatype rtype = type();
    const MPI_Comm c = comm();
    const std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
    MPI_Alltoallv(in_place ? MPI_IN_PLACE : scratch(0, bytes_of(sum(scounts), stype)),
                  scounts.data(), sdispls.data(), stype, scratch(1, bytes_of(sum(rcounts), rtype)),
                  rcounts.data(), rdispls.data(), rtype, c);
  } else {
    throw BadRecord(fmt::format("unknown operation {}", op));
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
  RecordMeta m;
  m.ranks = j.value("ranks", 0);
  m.cpu_scale = j.value("cpu_scale", 1.0);
  m.machine = j.value("machine", "");
  m.outcome = j.value("outcome", "");
  if (m.ranks <= 0) throw std::runtime_error(fmt::format("{}: no ranks recorded", path));
  return m;
}

mpilite::World::Main replay_main(std::string dir, double compute_scale) {
  return [dir = std::move(dir), compute_scale](int, char**) {
    const int rank = mpilite::World::get().self().id;
    const std::string path = fmt::format("{}/rank-{}.ops", dir, rank);
    std::string text;
    try {
      text = read_file(path);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "mpisim-replay: %s (was the run recorded completely?)\n", e.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    RankReplay replay(compute_scale);
    std::size_t line_no = 0;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      ++line_no;
      try {
        replay.line(std::string_view(text).substr(at, end - at));
      } catch (const BadRecord& e) {
        std::fprintf(stderr, "mpisim-replay: %s:%zu: %s\n", path.c_str(), line_no, e.what());
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
      at = end + 1;
    }
    return 0;
  };
}

} // namespace mpisim
