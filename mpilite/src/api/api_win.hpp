// What the one-sided entry points share: the window handle check, and errors that follow the
// window's handler.
#pragma once

#include "api_call.hpp"
#include "window.hpp"

namespace mpilite {

/// MPI_SUCCESS and the window in `out` if `h` is a window of the calling rank; else the error.
int check_window(ApiCall& c, MPI_Win h, Window*& out);

/// Passive target: sends the operations queued for `target` as one batch, waits for the reply
/// and places the data it returns (api_win_lock.cpp). `unlock`: the batch ends the epoch,
/// releasing the lock the target granted. A batch that would do nothing is not sent: a lock is
/// only observable through operations.
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
