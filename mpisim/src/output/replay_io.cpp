// Replaying MPI-IO: each open is made again on a stand-in file (host_file.hpp), which neither
// reads nor changes the recorded run's files, and each access is issued again with its recorded
// count and datatype through a view of bytes: what an access costs is its size and how it is
// made (independent, collective, ordered, split, non-blocking), not where its data lies.
#include "rank_replay.hpp"
#include "stand_in_files.hpp"

namespace mpisim::replaying {
namespace {

/// Any access call, adapted to one signature: the offset goes to the forms with an explicit
/// one, the request to the non-blocking forms.
using Access = int (*)(MPI_File, void*, int, MPI_Datatype, MPI_Request*);

// An explicit offset is where the data lies, not what it costs: 0 on a stand-in file.
template <auto F> int blocking(MPI_File f, void* b, int n, MPI_Datatype t, MPI_Request*) {
  return F(f, b, n, t, MPI_STATUS_IGNORE);
}
template <auto F> int blocking_at(MPI_File f, void* b, int n, MPI_Datatype t, MPI_Request*) {
  return F(f, 0, b, n, t, MPI_STATUS_IGNORE);
}
template <auto F> int nonblocking(MPI_File f, void* b, int n, MPI_Datatype t, MPI_Request* q) {
  return F(f, b, n, t, q);
}
template <auto F> int nonblocking_at(MPI_File f, void* b, int n, MPI_Datatype t, MPI_Request* q) {
  return F(f, 0, b, n, t, q);
}
template <auto F> int begin(MPI_File f, void* b, int n, MPI_Datatype t, MPI_Request*) {
  return F(f, b, n, t);
}
template <auto F> int begin_at(MPI_File f, void* b, int n, MPI_Datatype t, MPI_Request*) {
  return F(f, 0, b, n, t);
}
template <auto F> int end(MPI_File f) {
  return F(f, nullptr, MPI_STATUS_IGNORE);
}

struct AccessCall {
  std::string_view op;
  Access call;
};

constexpr AccessCall kAccesses[] = {
    {"file_read", blocking<MPI_File_read>},
    {"file_write", blocking<MPI_File_write>},
    {"file_read_all", blocking<MPI_File_read_all>},
    {"file_write_all", blocking<MPI_File_write_all>},
    {"file_read_shared", blocking<MPI_File_read_shared>},
    {"file_write_shared", blocking<MPI_File_write_shared>},
    {"file_read_ordered", blocking<MPI_File_read_ordered>},
    {"file_write_ordered", blocking<MPI_File_write_ordered>},
    {"file_read_at", blocking_at<MPI_File_read_at>},
    {"file_write_at", blocking_at<MPI_File_write_at>},
    {"file_read_at_all", blocking_at<MPI_File_read_at_all>},
    {"file_write_at_all", blocking_at<MPI_File_write_at_all>},
    {"file_iread", nonblocking<MPI_File_iread>},
    {"file_iwrite", nonblocking<MPI_File_iwrite>},
    {"file_iread_shared", nonblocking<MPI_File_iread_shared>},
    {"file_iwrite_shared", nonblocking<MPI_File_iwrite_shared>},
    {"file_iread_all", nonblocking<MPI_File_iread_all>},
    {"file_iwrite_all", nonblocking<MPI_File_iwrite_all>},
    {"file_iread_at", nonblocking_at<MPI_File_iread_at>},
    {"file_iwrite_at", nonblocking_at<MPI_File_iwrite_at>},
    {"file_iread_at_all", nonblocking_at<MPI_File_iread_at_all>},
    {"file_iwrite_at_all", nonblocking_at<MPI_File_iwrite_at_all>},
    {"file_read_all_begin", begin<MPI_File_read_all_begin>},
    {"file_write_all_begin", begin<MPI_File_write_all_begin>},
    {"file_read_ordered_begin", begin<MPI_File_read_ordered_begin>},
    {"file_write_ordered_begin", begin<MPI_File_write_ordered_begin>},
    {"file_read_at_all_begin", begin_at<MPI_File_read_at_all_begin>},
    {"file_write_at_all_begin", begin_at<MPI_File_write_at_all_begin>},
};

/// The calls on an open file that take nothing else from the record.
struct FileCall {
  std::string_view op;
  int (*call)(MPI_File);
};

constexpr FileCall kFileCalls[] = {
    {"file_read_all_end", end<MPI_File_read_all_end>},
    {"file_write_all_end", end<MPI_File_write_all_end>},
    {"file_read_ordered_end", end<MPI_File_read_ordered_end>},
    {"file_write_ordered_end", end<MPI_File_write_ordered_end>},
    {"file_read_at_all_end", end<MPI_File_read_at_all_end>},
    {"file_write_at_all_end", end<MPI_File_write_at_all_end>},
    {"file_sync", MPI_File_sync},
    {"file_set_size", [](MPI_File f) { return MPI_File_set_size(f, 0); }},
    {"file_preallocate", [](MPI_File f) { return MPI_File_preallocate(f, 0); }},
    {"file_set_atomicity", [](MPI_File f) { return MPI_File_set_atomicity(f, 0); }},
    {"file_seek_shared", [](MPI_File f) { return MPI_File_seek_shared(f, 0, MPI_SEEK_SET); }},
    // Byte etypes: every recorded access is a whole number of them.
    {"file_set_view",
     [](MPI_File f) {
       return MPI_File_set_view(f, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
     }},
};

template <class Table> auto find(const Table& table, std::string_view op) {
  const auto* it = std::find_if(std::begin(table), std::end(table),
                                [op](const auto& entry) { return entry.op == op; });
  return it == std::end(table) ? nullptr : it;
}

} // namespace

MPI_File RankReplay::file() {
  const long long i = index();
  if (i < 0 || i >= static_cast<long long>(files_.size()) || files_[i] == MPI_FILE_NULL)
    throw BadRecord(fmt::format("file {} was not opened", i));
  return files_[static_cast<std::size_t>(i)];
}

bool RankReplay::file_io(std::string_view op) {
  if (!op.starts_with("file_")) return false;
  if (const AccessCall* access = find(kAccesses, op)) {
    const MPI_File fh = file();
    const int n = static_cast<int>(count());
    const MPI_Datatype t = type();
    const std::size_t bytes = bytes_of(n, t);
    if (!op.starts_with("file_i")) {
      access->call(fh, scratch(0, bytes), n, t, nullptr);
      return true;
    }
    const long long index = num_at(next_);
    MPI_Request* q = new_request_slot();
    access->call(fh, buffer_for(index, bytes), n, t, q);
  } else if (const FileCall* call = find(kFileCalls, op)) {
    call->call(file());
  } else if (op == "file_open") {
    const MPI_Comm c = comm();
    const int amode = integer();
    const int err = integer();
    if (err < 0) throw BadRecord(fmt::format("an open failed with errno {}", err));
    MPI_File made = MPI_FILE_NULL;
    MPI_File_open(c, mpilite::stand_in_path(err).c_str(), amode, MPI_INFO_NULL, &made);
    const long long i = index();
    if ((i < 0) != (made == MPI_FILE_NULL))
      throw BadRecord(fmt::format("an open {} as recorded",
                                  i < 0 ? "succeeded, not failed" : "failed, not succeeded"));
    if (i >= 0) keep(files_, i, made, MPI_FILE_NULL);
  } else if (op == "file_close") {
    const long long i = num_at(next_);
    MPI_File fh = file();
    MPI_File_close(&fh);
    files_[static_cast<std::size_t>(i)] = MPI_FILE_NULL;
  } else if (op == "file_delete") {
    MPI_File_delete(mpilite::stand_in_path(0).c_str(), MPI_INFO_NULL);
  } else {
    return false;
  }
  return true;
}

} // namespace mpisim::replaying
