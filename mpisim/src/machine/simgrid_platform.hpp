// The same target machine in SimGrid SMPI's terms (mpisim-to-simgrid; docs/machines.md,
// "The same model in SimGrid"), so that the two simulators can be compared on one model.
#pragma once

#include <string>
#include <vector>

#include "machine.hpp"

namespace mpisim {

/// What smpirun needs to simulate `machine`: a platform, a host file and --cfg options.
struct SimgridModel {
  std::string platform_xml;          ///< one <cluster>, a host per node
  std::vector<std::string> hostfile; ///< one line per rank: the host of its node
  std::vector<std::string> options;  ///< smpirun's --cfg=... options, in order
  /// Parameters of `machine` SimGrid's cluster cannot express, each with what it does instead.
  std::vector<std::string> unmapped;
};

/// Whether SMPI should run the program's compute (measured, scaled by the machine's cpu_scale)
/// or skip it, as `mpisimrun --cpu off` does.
enum class SimgridCompute { Measured, Off };

/// `machine` for `ranks` ranks. Throws ConfigError when ranks < 1.
SimgridModel to_simgrid(const MachineParams& machine, int ranks, SimgridCompute compute);

} // namespace mpisim
