// The files a run writes after it ends (report, trace, communication matrix, record) are checked
// before it starts: a typo must not cost a long run and then lose its results.
#pragma once

#include "config.hpp"

namespace mpisim {

/// Throws ConfigError naming the variable, the path, the problem and the fix when an output of
/// `config` cannot be written: a file path that is a folder or lies in a missing or read-only
/// folder, a record folder that cannot be created or written. Creates the record folder.
void check_output_paths(const Config& config);

} // namespace mpisim
