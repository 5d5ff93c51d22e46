// Process ids as ranks see them: under mpiexec every rank is a process with an id of its own,
// and programs name scratch files after it (`sprintf(name, "scratch.%d", getpid())`), seed
// generators with it, or read their own /proc/<pid>/ files. The ranks of a host process share
// its id, so their scratch files were one file and their seeds one seed; getpid() now gives each
// rank an id of its own (pid_interpose.cpp).
#pragma once

#include <sys/types.h>

namespace mpilite {

/// The id getpid() gives world rank `rank`: above every id Linux gives a process (PID_MAX_LIMIT,
/// 2^22), so it names no other process on the host, and the same in every run.
constexpr pid_t kFirstRankPid = pid_t{1} << 22;
constexpr pid_t rank_pid(int rank) {
  return kFirstRankPid + rank;
}

/// The host process's own id, whoever asks (the runtime's own calls that need the real one).
pid_t host_pid();

} // namespace mpilite
