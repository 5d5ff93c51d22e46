// The parameters of a target machine (docs/machines.md), its presets and its file format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "network_topology.hpp"
#include "sim_time.hpp"

namespace mpisim {

using mpilite::SimTime;

/// How a message crosses the links of its route (PUPPET's Table 3.1).
enum class Switching { StoreAndForward, CutThrough, Circuit, Wormhole };

/// Whether messages that share a link slow each other down.

/// Messages of at least `from` bytes cross the network with this latency and bandwidth instead of
/// the machine's: a piecewise-linear link time, as real MPI libraries change protocol with size.
struct LinkSegment {
  std::uint64_t from = 0; ///< first message size of the segment (> 0)
  /// The intercept of the segment's line: it may be negative, as long as a message of `from`
  /// bytes takes a positive time.
  SimTime latency = 0;
  double bandwidth = 0; ///< bytes per second; 0 means infinite

  bool operator==(const LinkSegment&) const = default;
};

/// A measured time at a message size: a point of a table interpolated linearly between sizes.
struct SizedTime {
  std::uint64_t bytes = 0;
  SimTime time = 0;

  bool operator==(const SizedTime&) const = default;
};

/// The cores of nodes first..last run `speed` times as fast as cpu_scale alone says: measured
/// compute on them is divided by `speed` (heterogeneous targets, or a faster or slower part).
struct NodeSpeed {
  int first = 0;
  int last = 0;
  double speed = 1;

  bool operator==(const NodeSpeed&) const = default;
};

/// Everything that describes a target machine. The defaults are a fully connected network with
/// one rank per node and cut-through switching at no per-hop cost, where a message of n bytes
/// takes latency + n / bandwidth.
struct MachineParams {
  std::string name;                   ///< preset name or file it came from
  std::string description;            ///< one line for listings
  SimTime send_overhead = 0;          ///< CPU time the sender spends per message
  SimTime recv_overhead = 0;          ///< CPU time the receiver spends per message
  SimTime latency = 0;                ///< end-to-end latency of a message, paid once per message
  double bandwidth = 0;               ///< link bandwidth in bytes per second; 0 means infinite
  std::uint64_t eager_limit = 0;      ///< largest message sent eagerly, in bytes
  SimTime poll_overhead = 0;          ///< cost of an MPI_Test/Iprobe call that finds nothing new
  double cpu_scale = 1.0;             ///< target seconds per host CPU second
  std::vector<NodeSpeed> node_speeds; ///< by increasing node; nodes not listed run at speed 1
  /// Cores the threads of one rank run on (OpenMP): a larger team shares them.
  int cores_per_rank = 1;
  /// Time to start and end one parallel region of two or more threads (fork and join).
  SimTime fork_join = 0;
  std::vector<LinkSegment> segments; ///< larger messages, by increasing `from`
  /// What an MPI_Sendrecv of n bytes costs its rank beyond a send and a receive of n bytes, by
  /// increasing size (mpisim-calibrate measures it: MPI libraries progress the two together,
  /// and both ranks copy at once); empty: nothing.
  std::vector<SizedTime> sendrecv_extra;

  TopologySpec topology;  ///< fully connected by default
  int ranks_per_node = 1; ///< ranks r*k .. r*k+k-1 share node r
  Switching switching = Switching::CutThrough;
  SimTime hop_latency = 0;        ///< t0's fixed part: a header's routing time per link
  SimTime packet_overhead = 0;    ///< t's fixed part: initialization time per packet
  std::uint64_t packet_size = 0;  ///< p; 0: a message is one packet
  std::uint64_t header_size = 0;  ///< h: header of virtual cut-through
  std::uint64_t control_size = 0; ///< c: control packet of circuit switching
  std::uint64_t flit_size = 0;    ///< f: flit of wormhole routing (> 0 when wormhole)
  /// The link between two ranks of one node (also a rank to itself). With neither set, such a
  /// message costs as much as one over a single network link.
  std::optional<SimTime> intra_latency;
  std::optional<double> intra_bandwidth; ///< bytes per second; 0 means infinite
  std::string network = "nic";           ///< a registered network model (network_model.hpp)
  /// MPI-IO (docs/machines.md, Storage): an access of n bytes by one rank takes
  /// io_latency + n / io_bandwidth; a collective access at least io_latency + (all ranks'
  /// bytes) / io_shared_bandwidth. Bandwidths in bytes per second; 0 means infinite.
  SimTime io_latency = 0;
  double io_bandwidth = 0;
  double io_shared_bandwidth = 0;

  bool operator==(const MachineParams&) const = default;

  /// Target picoseconds that `host_ns` of measured host CPU time on world rank `rank` stands for:
  /// host_ns * 1000 * cpu_scale / the speed of the rank's node.
  double compute_ps(double host_ns, int rank) const;
};

/// Parses MPISIM_NODE_SPEED / node_speed ("uniform" or "0-15:2, 16:0.5"); throws ConfigError
/// naming `what`.
std::vector<NodeSpeed> parse_node_speeds(const std::string& value, const std::string& what);
/// The text parse_node_speeds reads back to `speeds`.
std::string format_node_speeds(const std::vector<NodeSpeed>& speeds);

/// Named machine presets (MPISIM_MACHINE): "cluster" (default), "sp2", "ethernet-1996", "ideal".
/// Throws ConfigError listing the presets when `name` is unknown.
MachineParams machine_preset(const std::string& name);
std::vector<std::string> machine_preset_names();

/// The machine that MPISIM_MACHINE=`value` names: a preset, or else a machine file.
/// Throws ConfigError (naming `what`) when it is neither, or when the file is bad.
MachineParams load_machine(const std::string& value, const std::string& what);

/// One line of a machine's parameters: "send overhead 200 ns, recv overhead 200 ns, ...".
std::string describe_machine(const MachineParams& machine);

/// Every preset with its description and its parameters (mpisimrun --list-machines).
std::string describe_machine_presets();

/// The name of a switching mode, as files and variables spell it.
std::string switching_name(Switching s);

} // namespace mpisim
