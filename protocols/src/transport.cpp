#include "transport.hpp"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace mpisim::protocols {
namespace {

constexpr int kTag = 7;
// Outstanding sends beyond which send() makes progress first: bounds the memory of a host that
// produces messages faster than its peers take them.
constexpr std::size_t kMaxPending = 4096;

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(rc, text, &n);
  std::fprintf(stderr, "mpisim: transport between host processes failed in %s: %s\n", what, text);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

} // namespace

struct Transport::Pending {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<std::byte> frame;
};

bool Transport::launched_as_several_processes() {
  const char* size = std::getenv("PMI_SIZE");
  return size && std::atoi(size) > 1;
}

Transport::Transport(int* argc, char*** argv) {
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm dup;
  check(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "MPI_Comm_dup");
  comm_ = dup;
  MPI_Comm_rank(dup, &host_);
  MPI_Comm_size(dup, &hosts_);
  // A failing peer must end this process too, with MPICH's message, rather than leave it waiting.
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL);
}

Transport::~Transport() {
  while (!pending_.empty())
    progress();
  MPI_Comm c = comm_;
  MPI_Comm_free(&c);
  MPI_Finalize();
}

void Transport::send(int to, FrameKind kind, const void* body, std::size_t bytes) {
  while (pending_.size() >= kMaxPending) {
    progress();
    sched_yield();
  }
  auto p = std::make_unique<Pending>();
  p->frame.resize(bytes + 1);
  p->frame[0] = static_cast<std::byte>(kind);
  if (bytes) std::memcpy(p->frame.data() + 1, body, bytes);
  check(MPI_Isend(p->frame.data(), static_cast<int>(p->frame.size()), MPI_BYTE, to, kTag, comm_,
                  &p->request),
        "MPI_Isend");
  pending_.push_back(std::move(p));
}

void Transport::progress() {
  // Sends to one peer complete in order; testing from the front frees most of them.
  while (!pending_.empty()) {
    int done = 0;
    check(MPI_Test(&pending_.front()->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) break;
    pending_.pop_front();
  }
}

bool Transport::poll(Frame& out) {
  progress();
  int flag = 0;
  MPI_Status st;
  check(MPI_Iprobe(MPI_ANY_SOURCE, kTag, comm_, &flag, &st), "MPI_Iprobe");
  if (!flag) return false;
  int bytes = 0;
  MPI_Get_count(&st, MPI_BYTE, &bytes);
  std::vector<std::byte> frame(static_cast<std::size_t>(bytes));
  check(MPI_Recv(frame.data(), bytes, MPI_BYTE, st.MPI_SOURCE, kTag, comm_, MPI_STATUS_IGNORE),
        "MPI_Recv");
  if (frame.empty()) throw std::runtime_error("empty frame between host processes");
  out.from = st.MPI_SOURCE;
  out.kind = static_cast<FrameKind>(frame[0]);
  out.body.assign(frame.begin() + 1, frame.end());
  return true;
}

std::vector<std::vector<std::byte>> Transport::gather(const std::vector<std::byte>& mine) {
  while (!pending_.empty())
    progress();
  int n = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<std::size_t>(hosts_));
  check(MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm_), "MPI_Gather");
  std::vector<int> displs(static_cast<std::size_t>(hosts_), 0);
  int total = 0;
  for (int h = 0; h < hosts_; ++h) {
    displs[static_cast<std::size_t>(h)] = total;
    total += sizes[static_cast<std::size_t>(h)];
  }
  std::vector<std::byte> all(static_cast<std::size_t>(host_ == 0 ? total : 0));
  check(MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE, 0,
                    comm_),
        "MPI_Gatherv");
  std::vector<std::vector<std::byte>> out;
  if (host_ != 0) return out;
  for (int h = 0; h < hosts_; ++h) {
    auto first = all.begin() + displs[static_cast<std::size_t>(h)];
    out.emplace_back(first, first + sizes[static_cast<std::size_t>(h)]);
  }
  return out;
}

void Transport::abort_all(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  // mpiexec ends every process as soon as one aborts: give it a moment to pass on what this one
  // just wrote, which says why.
  usleep(200000);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

} // namespace mpisim::protocols
