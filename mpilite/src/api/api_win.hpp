// What the one-sided entry points share: the window handle check.
#pragma once

#include "api_call.hpp"
#include "window.hpp"

namespace mpilite {

/// MPI_SUCCESS and the window in `out` if `h` is a window of the calling rank; else the error.
int check_window(ApiCall& c, MPI_Win h, Window*& out);

} // namespace mpilite
