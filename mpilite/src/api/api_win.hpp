// What the one-sided entry points share: the window handle check, and errors that follow the
// window's handler.
#pragma once

#include "api_call.hpp"
#include "window.hpp"

namespace mpilite {

/// MPI_SUCCESS and the window in `out` if `h` is a window of the calling rank; else the error.
int check_window(ApiCall& c, MPI_Win h, Window*& out);

/// Passive target (api_win_batch.cpp): sends the operations queued for `target` as one batch
/// and returns its request, which completes when the reply has come and the data it returns is
/// placed (MPI_ERROR: the target's error), or null if there is nothing to send (a lock is only
/// observable through operations). `unlock`: the batch ends the epoch, releasing the lock the
/// target granted. A batch in flight that asks for the lock is waited for first.
Request* start_batch(ApiCall& c, Window& w, int target, bool unlock);

/// Waits until the batches in flight to `target` (every target: -1) have been answered, in
/// simulated time too.
void complete_batches(ApiCall& c, Window& w, int target);

/// start_batch, then waits for its reply and for those of the batches before it.
int flush_target(ApiCall& c, Window& w, int target, bool unlock);

/// Raises error `code` of call `c` on window `w`, following the window's error handler.
template <class... Args>
int win_error(ApiCall& c, const Window& w, int code, fmt::format_string<Args...> f,
              Args&&... args) {
  MPI_Win handle = w.handle;
  return raise_object_error(c.w, c.r, &handle, w.errhandler, c.name, code,
                            fmt::format(f, std::forward<Args>(args)...));
}

} // namespace mpilite
