// MPI calls that the rank's own thread (the master of its team) makes inside one of its OpenMP
// parallel regions: funnelled (MPI_THREAD_FUNNELED). openmp_interpose.cpp; docs/model.md, OpenMP.
#pragma once

#include "sim_time.hpp"

namespace mpilite {

class World;
struct Rank;

/// Before the call `call` of `rank`, made inside its region under way: waits until the team's
/// other threads are parked (waiting for the team, or done with their share), has the region's
/// time so far charged (CallHooks::region_call), and leaves the thread to other ranks' regions.
void openmp_call_begins(World& w, Rank& rank, const char* call);
/// After that call, which took `took` of simulated time: the region goes on.
void openmp_call_ends(Rank& rank, SimTime took);

/// The world rank whose OpenMP team the calling thread works in (-1: none), for what the C and
/// Fortran libraries keep per process on the team's other threads.
int team_rank();

} // namespace mpilite
