// Per-rank segments of privatized variables (the runtime half of mpisim_privatize.h).
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace mpilite {

/// One rank's copy of every privatized variable of the program.
class PrivateSegment {
public:
  PrivateSegment() = default;
  ~PrivateSegment();
  PrivateSegment(const PrivateSegment&) = delete;
  PrivateSegment& operator=(const PrivateSegment&) = delete;

  /// Allocates the segment, copies the initial images and runs the init functions. Call from
  /// the rank's fiber: init functions see the rank's own segment. The scheduler must already
  /// switch `base()` in for this fiber (Task::data_base).
  void create(char*& task_base);
  /// Runs the fini functions (C++ destructors), newest first. Idempotent.
  void finish();

  char* base() const { return base_; }

private:
  char* base_ = nullptr;
  bool finished_ = false;
};

/// Makes `base` the current segment (and points the units' cells into it): the scheduler
/// calls it on every fiber switch.
void switch_segment(char* base);

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

} // namespace mpilite
