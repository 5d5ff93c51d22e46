#include "rank_replay.hpp"

namespace mpisim::replaying {
namespace {

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
             : op == "parrived"    ? (f ? "found the partition arrived" : "found it not arrived")
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

} // namespace

void RankReplay::run(std::string_view op) {
  if (op == "compute") {
    const long long measured = time(), declared = time();
    mpilite::SimTime charged = 0;
    try {
      charged = replayed_compute(measured, declared, scale_);
    } catch (const BadComputeRecord& e) {
      throw BadRecord(e.what());
    }
    // The ideal balance: the mean of every rank's stretch at this step instead of its own.
    if (balanced_) charged = (*balanced_)[step_++];
    mpilite::charge_compute(charged);
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
    const long long index = request_index();
    MPI_Request_free(&request_at(index));
    forget_request(index);
  } else if (op == "grequest_start") {
    const long long index = num_at(next_);
    MPI_Request* q = new_request_slot();
    MPI_Grequest_start(generalized_query, generalized_free, generalized_cancel, nullptr, q);
    generalized_[index] = *q;
  } else if (op == "grequest_complete") {
    // By index, not by slot: the program may have freed the request before completing it.
    const long long index = request_index();
    const auto it = generalized_.find(index);
    if (it == generalized_.end())
      throw BadRecord(fmt::format("request {} is no pending generalized request", index));
    MPI_Grequest_complete(it->second);
    generalized_.erase(it);
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
  } else if (op == "sendrecv" || op == "isendrecv") {
    sendrecv(op == "isendrecv");
  } else if (op == "psend_init" || op == "precv_init") {
    partitioned_init(op == "psend_init");
  } else if (op == "pready") {
    const MPI_Request q = *request_slot();
    std::vector<int> partitions = ints();
    MPI_Pready_list(static_cast<int>(partitions.size()), partitions.data(), q);
  } else if (op == "parrived") {
    const MPI_Request q = *request_slot();
    int flag = 0;
    MPI_Parrived(q, integer(), &flag);
    expect(mpilite::Outcome{flag != 0, {}, {}});
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
  } else if (op == "node") {
    check_node(integer());
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
  } else if (op == "idup") {
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Comm_idup(comm(), &made, &q);
    new_comm(made); // the communicator is named before the request
    *new_request_slot() = q;
  } else if (op == "free") {
    const long long i = num_at(next_);
    MPI_Comm c = comm();
    MPI_Comm_free(&c);
    comms_[static_cast<std::size_t>(i)] = MPI_COMM_NULL;
  } else if (!made_comm(op) && !one_sided(op) && !file_io(op)) {
    // A non-blocking collective is its blocking form's line with an "i" and the request last, a
    // persistent one the same with "_init" after the name.
    const bool nonblocking = op.size() > 1 && op[0] == 'i' && is_collective(op.substr(1));
    persistent_ = op.ends_with("_init") && is_collective(op.substr(0, op.size() - 5));
    nonblocking_ = nonblocking || persistent_ ? num_at(words_.size() - 1) : -1;
    collective(nonblocking ? op.substr(1) : persistent_ ? op.substr(0, op.size() - 5) : op);
    nonblocking_ = -1;
    persistent_ = false;
  }
}

bool RankReplay::made_comm(std::string_view op) {
  if (op == "session_init") {
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    ++sessions_;
  } else if (op == "session_finalize") {
    // The k-th session a rank opens has the same handle in the replay as in the recorded run.
    const int k = integer();
    if (k < 1 || k > sessions_) throw BadRecord(fmt::format("session {} was not opened", k));
    MPI_Session s = MPI_SESSION_NULL + k;
    MPI_Session_finalize(&s);
  } else if (op == "comm_create_from_group") {
    MPI_Group members = world_group();
    const std::string tag = text();
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Comm_create_from_group(members, tag.c_str(), MPI_INFO_NULL, MPI_ERRORS_RETURN, &made);
    MPI_Group_free(&members);
    new_comm(made);
  } else if (op == "intercomm_create_from_groups") {
    MPI_Group local = world_group();
    const int local_leader = integer();
    MPI_Group remote = world_group();
    const int remote_leader = integer();
    const std::string tag = text();
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Intercomm_create_from_groups(local, local_leader, remote, remote_leader, tag.c_str(),
                                     MPI_INFO_NULL, MPI_ERRORS_RETURN, &made);
    MPI_Group_free(&remote);
    MPI_Group_free(&local);
    new_comm(made);
  } else if (op == "cart_create") {
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
  } else if (op == "intercomm_create") {
    const MPI_Comm local = comm();
    const int local_leader = integer();
    const MPI_Comm peer = comm_or_null(); // none at the ranks other than the local leader
    const int remote_leader = integer(), tag = integer();
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, &made);
    new_comm(made);
  } else if (op == "intercomm_merge") {
    const MPI_Comm c = comm();
    const int high = integer();
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Intercomm_merge(c, high, &made);
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
  // A request that completed is done with its buffers and its entry; a persistent one, which may
  // start again, keeps them. Kept to the end, the buffers of a long run's non-blocking
  // operations grew without bound (NPB BT at 16 ranks: 104 MB for a live run's 17 MiB).
  for (const long long where : s.where)
    if (where >= 0 && request_at(where) == MPI_REQUEST_NULL) {
      pending_.erase(where);
      forget_request(where);
    }
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

void RankReplay::check_node(int recorded) {
  mpilite::World& w = mpilite::World::get();
  const int here = w.node_of(rank_);
  ++checks_.checked;
  if (here == recorded) return;
  checks_.differ(rank_, w.self().clock, [&] {
    return fmt::format("rank {} asked for its node (MPI_Comm_split_type with "
                       "MPI_COMM_TYPE_SHARED or MPI_Get_processor_name): node {} in the recorded "
                       "run, node {} on this machine ({} ranks per node)",
                       rank_, recorded, here, w.ranks_per_node);
  });
}

void RankReplay::note_served() {
  std::vector<int>& origins = recorded_served_.emplace(items());
  for (int& origin : origins)
    origin = integer();
}

void RankReplay::check_served() {
  mpilite::World& w = mpilite::World::get();
  if (!recorded_served_ && w.served.empty()) return; // no passive target has served anything
  std::vector<int> replayed;
  if (auto it = w.served.find(rank_); it != w.served.end()) replayed.swap(it->second);
  const bool had_line = recorded_served_.has_value();
  const std::vector<int> recorded = std::move(recorded_served_).value_or(std::vector<int>{});
  recorded_served_.reset();
  if (!had_line && replayed.empty()) return;
  ++checks_.checked;
  if (replayed == recorded) return;
  checks_.differ(rank_, w.self().clock, [&] {
    const auto list = [](const std::vector<int>& v) {
      return v.empty() ? std::string("none") : fmt::format("rank(s) {}", fmt::join(v, ", "));
    };
    return fmt::format("before {}, its passive targets served the batches of one-sided "
                       "operations of {} in the replay, of {} in the recorded run",
                       locate(line_), list(replayed), list(recorded));
  });
}

std::string RankReplay::locate(std::string_view op_line) const {
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
  return fmt::format("rank {}'s {} {}{} (rank-{}.ops:{})", rank_, ordinal(nth), mpi_name(op),
                     peer_text(op_line), rank_, line_no);
}

std::string RankReplay::describe(std::string_view op_line, const mpilite::Outcome& replayed,
                                 const mpilite::Outcome& recorded) const {
  const std::string_view op = op_line.substr(0, op_line.find(' '));
  return fmt::format("{} {}", locate(op_line), difference(op, replayed, recorded));
}

} // namespace mpisim::replaying
