// The named machines of MPISIM_MACHINE and how machines are shown to users.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "config_error.hpp"
#include "machine_file.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

constexpr SimTime kNs = 1'000;
constexpr SimTime kUs = 1'000'000;

MachineParams cluster() {
  MachineParams m;
  m.name = "cluster";
  m.description = "modern InfiniBand-class cluster (the default); shared memory inside a node";
  m.send_overhead = 200 * kNs;
  m.recv_overhead = 200 * kNs;
  m.latency = 1'500 * kNs;
  m.bandwidth = 12e9;
  m.eager_limit = 64 * 1024;
  m.poll_overhead = 100 * kNs;
  // One rank per node of two 16-core sockets; a fork and join of such a team takes ~1 us.
  m.cores_per_rank = 32;
  m.fork_join = 1 * kUs;
  m.intra_latency = 100 * kNs;
  m.intra_bandwidth = 20e9;
  // A parallel file system: a node's client reaches ~2 GB/s, the servers together ~20 GB/s.
  m.io_latency = 50 * kUs;
  m.io_bandwidth = 2e9;
  m.io_shared_bandwidth = 20e9;
  return m;
}

MachineParams sp2() {
  MachineParams m;
  m.name = "sp2";
  m.description = "IBM SP2 of the MPI-SIM paper: POWER2 nodes on a multistage switch, ~39 us MPI "
                  "latency end to end, ~37 MB/s";
  m.send_overhead = 6 * kUs;
  m.recv_overhead = 6 * kUs;
  m.latency = 27 * kUs;
  m.bandwidth = 37e6;
  m.eager_limit = 4096;
  m.poll_overhead = 1 * kUs;
  // POWER2 nodes had one processor: a team of threads shares it.
  m.cores_per_rank = 1;
  m.fork_join = 10 * kUs;
  // The SP2's High-Performance Switch: radix-4 switching elements, cut-through, well under a
  // microsecond per element.
  m.topology = {.kind = "multistage", .size = "4"};
  m.switching = Switching::CutThrough;
  m.hop_latency = 125 * kNs;
  // Disks of the period: ~10 ms per access, a few MB/s per node, the file servers ~40 MB/s.
  m.io_latency = 10'000 * kUs;
  m.io_bandwidth = 4e6;
  m.io_shared_bandwidth = 40e6;
  return m;
}

MachineParams ethernet_1996() {
  MachineParams m;
  m.name = "ethernet-1996";
  m.description = "1996 Ethernet as fitted by PUPPET's network evaluator: 1449.8 us + 1.0086 us "
                  "per byte";
  m.latency = 1'449'800 * kNs;
  m.bandwidth = 1 / 1.0086e-6;
  m.eager_limit = 4096;
  m.poll_overhead = 10 * kUs;
  m.cores_per_rank = 1;
  m.fork_join = 10 * kUs;
  m.io_latency = 10'000 * kUs;
  m.io_bandwidth = 1e6;
  m.io_shared_bandwidth = 1e6;
  return m;
}

MachineParams ideal() {
  MachineParams m;
  m.name = "ideal";
  m.description = "a free network: no overheads, 1 ps latency, infinite bandwidth, every message "
                  "eager";
  // Latency 1 ps, not 0: conservative synchronization needs a positive lookahead.
  m.latency = 1;
  m.bandwidth = 0;
  m.eager_limit = 1ULL << 62;
  m.poll_overhead = 1;
  // As many cores as any team has threads, started for free.
  m.cores_per_rank = 1 << 20;
  m.intra_latency = 1;
  m.intra_bandwidth = 0;
  return m;
}

const std::vector<MachineParams>& presets() {
  static const std::vector<MachineParams> all{cluster(), sp2(), ethernet_1996(), ideal()};
  return all;
}

std::string join(const std::vector<std::string>& items) {
  return fmt::format("{}", fmt::join(items, ", "));
}

} // namespace

MachineParams machine_preset(const std::string& name) {
  for (const MachineParams& p : presets())
    if (p.name == name) return p;
  throw ConfigError(fmt::format("unknown machine preset '{}'; the presets are: {}", name,
                                join(machine_preset_names())));
}

std::vector<std::string> machine_preset_names() {
  std::vector<std::string> names;
  for (const MachineParams& p : presets())
    names.push_back(p.name);
  return names;
}

MachineParams load_machine(const std::string& value, const std::string& what) {
  const auto names = machine_preset_names();
  if (std::find(names.begin(), names.end(), value) != names.end()) return machine_preset(value);
  if (std::filesystem::is_regular_file(value)) return read_machine_file(value);
  throw ConfigError(fmt::format("{}={} is not valid: no preset or machine file of that name; the "
                                "presets are: {}",
                                what, value, join(names)));
}

std::string describe_machine(const MachineParams& m) {
  std::string intra;
  if (m.intra_latency || m.intra_bandwidth)
    intra =
        fmt::format(", intra-node {} and {}",
                    m.intra_latency ? format_time(*m.intra_latency) : "network latency",
                    m.intra_bandwidth ? format_bandwidth(*m.intra_bandwidth) : "network bandwidth");
  return fmt::format(
      "send overhead {}, recv overhead {}, latency {}, bandwidth {}, eager limit {}, "
      "poll overhead {}, cpu scale {:g}, {} core(s) per rank, fork-join {}; topology {}, {} "
      "rank(s) per node{}; switching {}, hop "
      "latency {}; network {}",
      format_time(m.send_overhead), format_time(m.recv_overhead), format_time(m.latency),
      format_bandwidth(m.bandwidth), format_size(m.eager_limit), format_time(m.poll_overhead),
      m.cpu_scale, m.cores_per_rank, format_time(m.fork_join), format_topology(m.topology),
      m.ranks_per_node, intra, switching_name(m.switching), format_time(m.hop_latency), m.network);
}

std::string describe_machine_presets() {
  std::string text;
  for (const MachineParams& p : presets())
    text += fmt::format("{}: {}\n    {}\n", p.name, p.description, describe_machine(p));
  return text;
}

} // namespace mpisim
