// Per-rank segments of privatized variables (the runtime half of mpisim_privatize.h).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#include "mpisim_privatize.h"

namespace mpilite {

/// One rank's copy of every privatized variable of the program.
class PrivateSegment {
public:
  PrivateSegment() = default;
  ~PrivateSegment();
  PrivateSegment(const PrivateSegment&) = delete;
  PrivateSegment& operator=(const PrivateSegment&) = delete;

  /// Maps the segment (zeros cost nothing until touched) and copies the non-zero initial
  /// images: the simulator's set-up, not the program's time. Call from the rank's fiber; it
  /// makes the segment current and stores its base in `task_base` (Task::data_base), which
  /// the scheduler switches in from then on.
  void create(char*& task_base);
  /// Runs the init functions (initializers that are code, C++ constructors, the program's
  /// constructor functions) in the rank: the program's own time.
  void initialize();
  /// Runs the fini functions (C++ destructors), newest first, of every thread's copies.
  /// Idempotent.
  void finish();

  char* base() const { return base_; }

  /// Before the rank starts an OpenMP team of `threads`: gives each of its threads but the
  /// rank's own a copy of the thread-local variables (images and init functions, as a new
  /// thread's), kept for later teams. Call on the rank's thread.
  void prepare_team(int threads);
  /// mpisim_priv_thread_base for thread `thread` of the team (nullptr for thread 0, or one
  /// prepare_team did not make).
  char* team_thread_base(int thread) const;
  /// copyin: threads 1 to `threads`-1 take the calling thread's value of the thread-local at
  /// `offset`.
  void copy_in(int threads, std::size_t offset, std::size_t size) const;

private:
  char* base_ = nullptr;
  /// Thread bases of threads 1, 2, ... of the rank's teams (none until a team needs them: a
  /// rank costs one pointer for them).
  std::unique_ptr<std::vector<char*>> team_;
  char* mapped_ = nullptr;
  std::size_t mapped_size_ = 0;
  std::size_t align_ = 0;
  bool finished_ = false;
};

/// Makes `base` the current segment (and points the units' cells into it), whatever the
/// current one is.
void install_segment(char* base);

/// install_segment() unless `base` is current already: the scheduler calls it on every fiber
/// switch, and in a program without privatized variables every fiber's base is null.
inline void switch_segment(char* base) {
  if (base != mpisim_priv_base) install_segment(base);
}

/// Makes another rank's segment current for a while: a user-defined MPI_Op that runs while
/// a schedule of its rank progresses in some other rank's fiber must see its own globals.
class SegmentScope {
public:
  explicit SegmentScope(char* base);
  ~SegmentScope();
  SegmentScope(const SegmentScope&) = delete;
  SegmentScope& operator=(const SegmentScope&) = delete;

private:
  char* saved_;
};

/// Bytes of one rank's segment (0 when the program has no privatized variables). Lays the
/// registered variables out on the first call; a conflict between registrations (two units
/// defining the same variable) ends the process with a message naming both places.
std::size_t private_segment_size();

/// Whether the program has thread-local (or OpenMP threadprivate) variables.
bool private_segment_has_thread_locals();

/// Whether a unit of the program named std::cout, std::cerr or std::clog
/// (mpisim_priv_uses_streams): their format is then switched with the ranks (cxx_streams.hpp).
bool standard_streams_named();

/// Whether a unit of the program has a catch handler (mpisim_priv_uses_exceptions): the C++
/// runtime's record of the exceptions being handled is then switched with the ranks.
bool exceptions_caught();

} // namespace mpilite
