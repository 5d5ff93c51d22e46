// The compute-speed probe of mpisim-calibrate: a fixed piece of work timed with the thread CPU
// clock, the clock mpisim charges compute with. The ratio of its times on the target and on the
// simulation host is the target's MPISIM_CPU_SCALE.
#pragma once

namespace mpisim::calibrate {

/// CPU seconds of the probe's work on this machine: the median of `runs` runs.
double cpu_probe_seconds(int runs = 5);

} // namespace mpisim::calibrate
