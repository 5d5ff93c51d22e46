// Replaying windows and one-sided communication: each window is made again with its recorded
// size, displacement unit and passive target service, and each operation is issued again with
// the target's datatype as recorded (its layout travels in the operation's message and decides
// which bytes of the window it reaches) and the origin's and result's data by size.
#include "datatype_wire.hpp"
#include "rank_replay.hpp"

namespace mpisim::replaying {

MPI_Win RankReplay::window() {
  const long long i = index();
  if (i < 0 || i >= static_cast<long long>(windows_.size()) || windows_[i] == MPI_WIN_NULL)
    throw BadRecord(fmt::format("window {} was not created", i));
  return windows_[static_cast<std::size_t>(i)];
}

MPI_Datatype RankReplay::target_type() {
  if (next_ >= words_.size() || !words_[next_].starts_with('L')) return type();
  const std::string_view w = words_[next_];
  MPI_Datatype& t = types_[std::string(w)];
  if (t != 0) {
    ++next_;
    return t;
  }
  const std::vector<std::byte> layout = hex_bytes('L');
  if (mpilite::layout_bytes(layout.data(), layout.size()) != layout.size())
    throw BadRecord(fmt::format("bad datatype layout {} ({} bytes)", w, layout.size()));
  std::size_t used = 0;
  mpilite::Datatype decoded = mpilite::decode_layout(layout.data(), used);
  // An edited record must not make an operation reach outside the window its range was checked
  // against, nor walk for ever.
  if (const std::string why = mpilite::unsound_layout(decoded); !why.empty())
    throw BadRecord(fmt::format("bad datatype layout {}: {}", w, why));
  t = mpilite::World::get().add_datatype(std::move(decoded));
  return t;
}

void* RankReplay::result_buffer(long long win, int target, std::size_t bytes) {
  return results_[{win, target}].emplace_back(allocate(bytes)).data.get();
}

void RankReplay::release_results(long long win, int target) {
  std::erase_if(results_, [&](const auto& r) {
    return r.first.first == win && (target < 0 || r.first.second == target);
  });
}

void RankReplay::rma(std::string_view kind, bool with_request) {
  const long long win_index = num_at(next_);
  const MPI_Win win = window();
  const int target = integer();
  const long long disp = num();
  const int target_count = static_cast<int>(count());
  const MPI_Datatype target_datatype = target_type();
  // An operation that sends nothing (a get, a get-accumulate with MPI_NO_OP) may name no origin
  // datatype, as one that returns nothing may name no result datatype: MPI ignores them.
  const std::string none = std::to_string(static_cast<long long>(MPI_DATATYPE_NULL));
  const auto ignored_or_type = [&] {
    if (next_ >= words_.size() || words_[next_] != none) return type();
    ++next_;
    return static_cast<MPI_Datatype>(MPI_BYTE);
  };
  const int origin_count = static_cast<int>(count());
  const MPI_Datatype origin_type = ignored_or_type();
  const int result_count = static_cast<int>(count());
  const MPI_Datatype result_type = ignored_or_type();
  const MPI_Op op = reduce_op();
  void* origin = scratch(0, bytes_of(origin_count, origin_type));
  const std::size_t result_bytes = bytes_of(result_count, result_type);
  void* result = nullptr;
  MPI_Request* request = nullptr;
  if (with_request) {
    const long long index = num_at(next_);
    request = new_request_slot();
    result = buffer_for(index, result_bytes, 1);
  } else if (result_bytes > 0) {
    result = result_buffer(win_index, target, result_bytes);
  }
  const auto at = static_cast<MPI_Aint>(disp);
  if (kind == "put") {
    if (request)
      MPI_Rput(origin, origin_count, origin_type, target, at, target_count, target_datatype, win,
               request);
    else
      MPI_Put(origin, origin_count, origin_type, target, at, target_count, target_datatype, win);
  } else if (kind == "get") {
    if (request)
      MPI_Rget(result, result_count, result_type, target, at, target_count, target_datatype, win,
               request);
    else
      MPI_Get(result, result_count, result_type, target, at, target_count, target_datatype, win);
  } else if (kind == "accumulate") {
    if (request)
      MPI_Raccumulate(origin, origin_count, origin_type, target, at, target_count, target_datatype,
                      op, win, request);
    else
      MPI_Accumulate(origin, origin_count, origin_type, target, at, target_count, target_datatype,
                     op, win);
  } else if (kind == "get_accumulate") {
    if (request)
      MPI_Rget_accumulate(origin, origin_count, origin_type, result, result_count, result_type,
                          target, at, target_count, target_datatype, op, win, request);
    else
      MPI_Get_accumulate(origin, origin_count, origin_type, result, result_count, result_type,
                         target, at, target_count, target_datatype, op, win);
  } else if (kind == "compare_and_swap" && !request) {
    void* compare = scratch(1, bytes_of(1, target_datatype));
    MPI_Compare_and_swap(origin, compare, result, target_datatype, target, at, win);
  } else {
    throw BadRecord(
        fmt::format("one-sided operation {}{} is not replayed", request ? "r" : "", kind));
  }
}

bool RankReplay::one_sided(std::string_view op) {
  static constexpr std::string_view kOperations[] = {"put", "get", "accumulate", "get_accumulate",
                                                     "compare_and_swap"};
  for (std::string_view kind : kOperations)
    if (op == kind || (op.size() == kind.size() + 1 && op[0] == 'r' && op.substr(1) == kind)) {
      rma(kind, op != kind);
      return true;
    }
  if (op == "win_create" || op == "win_allocate" || op == "win_allocate_shared") {
    const long long size = num();
    if (size < 0 || (buffer_bound_ && static_cast<std::uint64_t>(size) > buffer_bound_))
      throw BadRecord(fmt::format("a window of {} bytes (the recorded run's memory justifies up "
                                  "to {})",
                                  size, buffer_bound_));
    const int disp_unit = integer();
    const bool no_locks = integer() != 0;
    const MPI_Comm c = comm();
    const long long made_index = num_at(next_);
    MPI_Info info = MPI_INFO_NULL;
    if (no_locks) {
      MPI_Info_create(&info);
      MPI_Info_set(info, "no_locks", "true");
    }
    MPI_Win made = MPI_WIN_NULL;
    void* base = nullptr;
    if (op == "win_create") {
      Buffer memory = allocate(static_cast<std::size_t>(size));
      MPI_Win_create(memory.data.get(), size, disp_unit, info, c, &made);
      window_memory_[made_index] = std::move(memory);
    } else if (op == "win_allocate") {
      MPI_Win_allocate(size, disp_unit, info, c, &base, &made);
    } else {
      MPI_Win_allocate_shared(size, disp_unit, info, c, &base, &made);
    }
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    const long long i = index();
    if (i < 0) throw BadRecord("a window with no index");
    keep(windows_, i, made, MPI_WIN_NULL);
  } else if (op == "win_free") {
    const long long i = num_at(next_);
    MPI_Win w = window();
    MPI_Win_free(&w);
    windows_[static_cast<std::size_t>(i)] = MPI_WIN_NULL;
    window_memory_.erase(i);
    release_results(i, -1);
  } else if (op == "win_fence") {
    const int assert = integer();
    const long long i = num_at(next_);
    MPI_Win_fence(assert, window());
    release_results(i, -1);
  } else if (op == "win_post" || op == "win_start") {
    const std::vector<int> ranks = ints();
    const int assert = integer();
    const MPI_Win w = window();
    MPI_Group all = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    MPI_Win_get_group(w, &all);
    MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &group);
    (op == "win_post" ? MPI_Win_post : MPI_Win_start)(group, assert, w);
    MPI_Group_free(&group);
    MPI_Group_free(&all);
  } else if (op == "win_complete") {
    const long long i = num_at(next_);
    MPI_Win_complete(window());
    release_results(i, -1);
  } else if (op == "win_wait") {
    MPI_Win_wait(window());
  } else if (op == "win_test") {
    int flag = 0;
    MPI_Win_test(window(), &flag);
    expect(mpilite::Outcome{flag != 0, {}, {}});
  } else if (op == "win_lock") {
    const int type = integer(), rank = integer(), assert = integer();
    MPI_Win_lock(type, rank, assert, window());
  } else if (op == "win_unlock" || op == "win_flush" || op == "win_flush_local") {
    const int rank = integer();
    const long long i = num_at(next_);
    const MPI_Win w = window();
    (op == "win_unlock"  ? MPI_Win_unlock
     : op == "win_flush" ? MPI_Win_flush
                         : MPI_Win_flush_local)(rank, w);
    release_results(i, rank);
  } else if (op == "win_lock_all") {
    const int assert = integer();
    MPI_Win_lock_all(assert, window());
  } else if (op == "win_unlock_all" || op == "win_flush_all" || op == "win_flush_local_all") {
    const long long i = num_at(next_);
    const MPI_Win w = window();
    (op == "win_unlock_all"  ? MPI_Win_unlock_all
     : op == "win_flush_all" ? MPI_Win_flush_all
                             : MPI_Win_flush_local_all)(w);
    release_results(i, -1);
  } else if (op == "win_sync") {
    MPI_Win_sync(window());
  } else {
    return false;
  }
  return true;
}

} // namespace mpisim::replaying
