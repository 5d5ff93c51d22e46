// Persistent collectives (MPI-4.0 section 6.13): one kind of persistent request for all of
// them, which stores how to start its collective. The init call checks the arguments as the
// non-blocking collective would; each MPI_Start runs that non-blocking collective again, so a
// started persistent collective costs exactly what the non-blocking one costs.
#include "api_collective_call.hpp"
#include "api_object_checks.hpp"
#include "api_p2p.hpp"

namespace mpilite {
namespace {

class PersistentCollective final : public PersistentOp {
public:
  PersistentCollective(MPI_Comm comm, CollectiveStart how) : comm_(comm), how_(std::move(how)) {}

  /// The init call's checks, on its frame (`init_frame`); nothing runs.
  int check(CollectiveCall& k) { return how_(k); }
  /// The frame of the init call: its checks hold the handles each start resolves.
  CollectiveCall init_frame(const char* name, MPI_Request* request) {
    return CollectiveCall(name, comm_, request, held_, false);
  }

  int start(ApiCall& c, Request& self) override {
    MPI_Request started = MPI_REQUEST_NULL;
    CollectiveCall k(c.name, comm_, &started, held_, true);
    if (int e = how_(k)) return e;
    self.started = c.w.request(started);
    return MPI_SUCCESS;
  }

private:
  MPI_Comm comm_;
  CollectiveStart how_;
  HeldHandles held_;
};

} // namespace

int init_persistent_collective(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                               CollectiveStart start) {
  auto op = std::make_shared<PersistentCollective>(comm, std::move(start));
  // The init call's own frame: what it records is of the outermost call.
  CollectiveCall k = op->init_frame(name, request);
  if (int e = op->check(k)) return e;
  InfoEntries* hints; // none that mpisim acts on
  if (int e = check_info(k.c, info, hints, true, comm)) return e;
  if (int e = make_persistent(k.c, op, RequestKind::Collective, comm, request)) return e;
  k.write_record();
  return MPI_SUCCESS;
}

} // namespace mpilite
