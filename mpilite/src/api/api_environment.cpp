// MPI entry points: initialization, environment, errors, communicator queries.
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "api_call.hpp"
#include "api_compute.hpp"
#include "attributes.hpp"
#include "mpisim.h"
#include "node_name.hpp"
#include "time_limit.hpp"
#include "zeroed_blocks.hpp"

using namespace mpilite;

namespace {

void charge_declared(ApiCall& c, SimTime ps, const char* what_unit, double amount) {
  if (ps <= 0) return;
  if (ps > kTimeLimit - c.r.clock)
    fail_time_limit(c.r, fmt::format("{}({:g} {})", c.name, amount, what_unit));
  c.r.spend_compute(ps);
  if (c.w.op_log) c.w.op_log->compute(c.r.id, ps, false);
}

} // namespace

void mpilite::charge_compute(SimTime ps, const char* call) {
  ApiCall c(call);
  charge_declared(c, ps, "ps", static_cast<double>(ps));
}

SimTime mpilite::read_clock(const char* call) {
  ApiCall c(call);
  Rank& r = c.r;
  r.stats.clock_reads += r.stats.clock_reads != UINT32_MAX; // RankStats::clock_reads
  World::ClockRead& last = c.w.last_clock_read;
  if (last.rank != r.id || last.at != r.clock) last = {r.id, r.clock, 0};
  if (++last.repeats == kClockRepeatLimit)
    c.w.stop(RunEnd::FatalError, 1,
             fmt::format("rank {}: {} read the same simulated time, {:.9f} s, {} times in a row: "
                         "the rank is in a loop that waits for its clock to pass a value, and "
                         "nothing in the loop takes simulated time, so it would never end (with "
                         "`--cpu off` only declared compute does: MPISIM_Compute, a sleep). Run "
                         "with measured CPU (`--cpu measured`, the default), or declare the "
                         "loop's work (docs/model.md, Time of the C library)",
                         r.id, call, time_to_seconds(r.clock), kClockRepeatLimit));
  return r.clock;
}

std::string mpilite::node_name(const char* call) {
  ApiCall c(call);
  const int node = c.w.node_of(c.r.id);
  // What the rank does with the name was recorded for this node: the replay checks it.
  MPISIM_RECORD_OP(c, "node", node);
  return fmt::format("mpisim-node-{}", node);
}

extern "C" {

int PMPI_Init(int*, char***) {
  ApiCall c("MPI_Init");
  if (c.r.initialized) return c.error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init called twice");
  c.r.initialized = true;
  MPISIM_RECORD_OP(c, "init");
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Init)

int PMPI_Init_thread(int* argc, char*** argv, int, int* provided) {
  // Ranks are fibers of one thread each: a rank's calls come from that thread, also inside its
  // OpenMP regions (openmp_calls.hpp), so MPI_THREAD_FUNNELED whatever is asked.
  if (provided) *provided = MPI_THREAD_FUNNELED;
  return PMPI_Init(argc, argv);
}
MPISIM_WEAK_ALIAS(Init_thread)

int PMPI_Finalize(void) {
  ApiCall c("MPI_Finalize");
  if (int e = c.check_init()) return e;
  // MPI-3.1 section 8.7.1: first the equivalent of freeing MPI_COMM_SELF, whose attributes'
  // delete callbacks libraries use as finalization hooks.
  if (int e = delete_attributes(c, *c.w.comm(MPI_COMM_SELF))) return e;
  // Then MPI_COMM_WORLD's, as MPICH does: libraries hang their clean-up there too.
  if (int e = delete_attributes(c, *c.w.comm(MPI_COMM_WORLD))) return e;
  c.r.finalized = true;
  MPISIM_RECORD_OP(c, "finalize");
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Finalize)

int PMPI_Initialized(int* flag) {
  ApiCall c("MPI_Initialized");
  *flag = c.r.initialized;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Initialized)

int PMPI_Finalized(int* flag) {
  ApiCall c("MPI_Finalized");
  *flag = c.r.finalized;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Finalized)

int PMPI_Abort(MPI_Comm comm, int errorcode) {
  ApiCall c("MPI_Abort");
  c.w.stop(RunEnd::Abort, errorcode,
           fmt::format("rank {} called MPI_Abort({}, {})", c.r.id,
                       comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
                                              : fmt::format("{:#x}", static_cast<unsigned>(comm)),
                       errorcode));
}
MPISIM_WEAK_ALIAS(Abort)

double PMPI_Wtime(void) {
  return time_to_seconds(read_clock("MPI_Wtime"));
}
MPISIM_WEAK_ALIAS(Wtime)

double PMPI_Wtick(void) {
  return 1.0 / static_cast<double>(kPicosPerSecond);
}
MPISIM_WEAK_ALIAS(Wtick)

int PMPI_Get_processor_name(char* name, int* resultlen) {
  const std::string n = node_name("MPI_Get_processor_name");
  std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", n.c_str());
  *resultlen = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Get_processor_name)

int PMPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Get_version)

int PMPI_Get_library_version(char* version, int* resultlen) {
  // Like MPI_Get_version, callable at any time, even outside a rank.
  if (!version || !resultlen) return MPI_ERR_ARG;
  std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                "mpisim %s (MPI %d.%d on simulated ranks; MPI_Wtime is simulated time)",
                MPISIM_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
  *resultlen = static_cast<int>(std::strlen(version));
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Get_library_version)

int PMPI_Query_thread(int* provided) {
  ApiCall c("MPI_Query_thread");
  if (!provided) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null provided pointer");
  *provided = MPI_THREAD_FUNNELED; // what MPI_Init_thread provides
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Query_thread)

int PMPI_Is_thread_main(int* flag) {
  ApiCall c("MPI_Is_thread_main");
  if (!flag) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null flag pointer");
  // A rank is one fiber; MPI calls from other threads never reach here (see ApiCall).
  *flag = 1;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Is_thread_main)

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info, void* baseptr) {
  // Info hints (e.g. for registered memory) do not change the simulation: they are ignored.
  ApiCall c("MPI_Alloc_mem");
  if (size < 0) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative size {}", size);
  if (!baseptr) return c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null baseptr");
  void* p = allocate_for_rank(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (!p) return c.error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "cannot allocate {} bytes", size);
  *static_cast<void**>(baseptr) = p;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Alloc_mem)

int PMPI_Free_mem(void* base) {
  ApiCall c("MPI_Free_mem");
  std::free(base);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Free_mem)

int PMPI_Pcontrol(const int, ...) {
  // Profiling control: mpisim's own report is always on, so the level changes nothing.
  ApiCall c("MPI_Pcontrol");
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Pcontrol)

int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  ApiCall c("MPI_Comm_rank");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  *rank = cm->rank_of(c.r.id);
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_rank)

int PMPI_Comm_size(MPI_Comm comm, int* size) {
  ApiCall c("MPI_Comm_size");
  Comm* cm;
  if (int e = c.check_comm(comm, cm)) return e;
  *size = cm->size;
  return MPI_SUCCESS;
}
MPISIM_WEAK_ALIAS(Comm_size)

void MPISIM_Compute(double seconds) {
  ApiCall c("MPISIM_Compute");
  if (std::isnan(seconds)) {
    c.error(MPI_COMM_WORLD, MPI_ERR_ARG, "the time to charge is not a number");
    return;
  }
  if (!(seconds > 0)) return; // nothing to charge; negative times are ignored, as documented
  // Checked as a double first: converting a time past the limit to SimTime is undefined.
  if (!within_time_limit(seconds * static_cast<double>(kPicosPerSecond)))
    fail_time_limit(c.r, fmt::format("MPISIM_Compute({:g} s)", seconds));
  charge_declared(c, seconds_to_time(seconds), "s", seconds);
}

long long MPISIM_Clock_ps(void) {
  return read_clock("MPISIM_Clock_ps");
}

} // extern "C"
