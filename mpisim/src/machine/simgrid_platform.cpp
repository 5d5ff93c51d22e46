#include "simgrid_platform.hpp"

#include <algorithm>
#include <climits>
#include <iterator>
#include <vector>

#include <fmt/format.h>

#include "config_error.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

// SimGrid has no infinite bandwidth: this one moves 4 MiB in 4 ps.
constexpr double kInfiniteBandwidth = 1e18;

double seconds(SimTime t) {
  return static_cast<double>(t) * 1e-12;
}

// SimGrid's time values are doubles in seconds; 12 decimals keep every picosecond.
std::string secs(SimTime t) {
  return fmt::format("{:.12f}", seconds(t));
}

double finite(double bandwidth) {
  return bandwidth > 0 ? bandwidth : kInfiniteBandwidth;
}

// The link's lines by message size as SMPI must see them: the machine's own (from 0 bytes), its
// segments, and from the first rendezvous size a line that also carries mpisim's handshake. SMPI
// has none: it starts a rendezvous transfer when the receive is posted. mpisim's request to send
// and clear to send add 2 L and both overheads to a message whose receive was posted first
// (docs/model.md), so the latency of those sizes carries them; a late receiver pays L + o_s
// more in SMPI than in mpisim.
std::vector<LinkSegment> smpi_lines(const MachineParams& m) {
  std::vector<LinkSegment> lines{{0, m.latency, m.bandwidth}};
  lines.insert(lines.end(), m.segments.begin(), m.segments.end());
  if (m.eager_limit >= static_cast<std::uint64_t>(INT_MAX)) return lines;
  const std::uint64_t rendezvous = m.eager_limit + 1;
  auto at = std::find_if(lines.begin(), lines.end(),
                         [&](const LinkSegment& s) { return s.from >= rendezvous; });
  if (at == lines.end() || at->from != rendezvous) {
    LinkSegment split = *std::prev(at);
    split.from = rendezvous;
    at = lines.insert(at, split);
  }
  for (; at != lines.end(); ++at)
    at->latency += 2 * m.latency + m.send_overhead + m.recv_overhead;
  return lines;
}

// SMPI scales the cluster's latency and bandwidth by piecewise factors of the message size
// ("size:factor;..."): smpi_lines are exactly that. SMPI looks a message up with 16 bytes added
// to its payload (the same 16 bytes it transmits on top of it, 1.3 ns at 12 GB/s) and applies an
// entry to sizes above it, so the entry for payloads from F bytes is F + 15 (measured with SimGrid
// 3.32: "1000:2" applies from 985 bytes).
constexpr std::uint64_t kSmpiFactorOffset = 15;

std::string factors(const MachineParams& m, bool latency, std::vector<std::string>& unmapped) {
  std::string out = "0:1";
  const std::vector<LinkSegment> lines = smpi_lines(m);
  for (auto s = std::next(lines.begin()); s != lines.end(); ++s) {
    double f;
    if (latency) {
      if (m.latency == 0 && s->latency != 0) {
        unmapped.push_back(fmt::format(
            "the segment from {} bytes has latency {} where the machine's is 0: SimGrid scales "
            "the latency, so these messages get none",
            s->from, format_time(s->latency)));
        f = 1;
      } else {
        f = m.latency == 0 ? 1 : static_cast<double>(s->latency) / static_cast<double>(m.latency);
      }
      if (f < 0) {
        unmapped.push_back(fmt::format("the segment from {} bytes has a negative intercept ({}); "
                                       "SimGrid gets 0 latency for it",
                                       s->from, format_time(s->latency)));
        f = 0;
      }
    } else {
      f = finite(s->bandwidth) / finite(m.bandwidth);
    }
    out += fmt::format(";{}:{:.17g}", s->from + kSmpiFactorOffset, f);
  }
  return out;
}

void note_unmapped(const MachineParams& m, std::vector<std::string>& unmapped) {
  // A cluster's FATPIPE links still share (SimGrid 3.32): full-duplex links are the closest.
  if (m.network == "latency")
    unmapped.push_back("network latency (no contention): SimGrid's links are full duplex, and "
                       "messages leaving (or entering) one node at the same time share its link");
  if (m.network == "nic")
    unmapped.push_back("network nic (one message after another at each NIC): SimGrid's messages "
                       "leaving (or entering) one node at the same time share its link fairly, so "
                       "they end together where the NIC ends them one by one (the last at the "
                       "same time)");
  if (m.topology.kind != "fully-connected")
    unmapped.push_back(fmt::format(
        "topology {}: SimGrid gets a cluster where every message crosses the sender's and the "
        "receiver's links (one hop of the machine's latency)",
        format_topology(m.topology)));
  if (m.hop_latency != 0)
    unmapped.push_back(fmt::format("hop latency {}: no per-hop cost in SimGrid's cluster",
                                   format_time(m.hop_latency)));
  if (m.switching != Switching::CutThrough || m.packet_size != 0 || m.packet_overhead != 0)
    unmapped.push_back(fmt::format("switching {} with packets: SimGrid moves a message as one flow",
                                   switching_name(m.switching)));
  if (m.bandwidth == 0)
    unmapped.push_back(
        fmt::format("infinite bandwidth: SimGrid gets {:g} B/s", kInfiniteBandwidth));
  if (m.io_latency != 0 || m.io_bandwidth != 0 || m.io_shared_bandwidth != 0)
    unmapped.push_back("storage (io_latency, io_bandwidth, io_shared_bandwidth): MPI-IO in SimGrid "
                       "needs a disk model of its own; the platform has none");
  if (!m.sendrecv_extra.empty())
    unmapped.push_back("sendrecv_extra: SMPI charges an MPI_Sendrecv as its send and its receive");
  if (m.eager_limit > static_cast<std::uint64_t>(INT_MAX))
    unmapped.push_back(fmt::format("eager limit {}: SimGrid's threshold is an int, {} bytes",
                                   format_size(m.eager_limit), INT_MAX));
}

} // namespace

SimgridModel to_simgrid(const MachineParams& m, int ranks, SimgridCompute compute) {
  if (ranks < 1) throw ConfigError(fmt::format("the rank count must be at least 1, not {}", ranks));
  SimgridModel g;
  const int per_node = std::max(1, m.ranks_per_node);
  const int nodes = (ranks + per_node - 1) / per_node;
  // A message between nodes crosses two private links (the sender's and the receiver's), each
  // with half the latency; one between ranks of a node crosses the loopback, which costs as much
  // as the machine's intra-node link or, without one, a single network link.
  const SimTime intra_latency = m.intra_latency.value_or(m.latency);
  const double intra_bandwidth = m.intra_bandwidth.value_or(m.bandwidth);
  // SMPI charges measured compute at smpi/host-speed (1 Gflop/s) against the host's speed: a
  // host of 1/cpu_scale Gflop/s makes a measured second cpu_scale target seconds.
  g.platform_xml = fmt::format(
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<!-- {}: {} -->\n"
      "<platform version=\"4.1\">\n"
      "  <cluster id=\"machine\" prefix=\"node-\" suffix=\"\" radical=\"0-{}\" speed=\"{:.17g}f\"\n"
      "           bw=\"{:.17g}Bps\" lat=\"{}s\" sharing_policy=\"SPLITDUPLEX\"\n"
      "           loopback_bw=\"{:.17g}Bps\" loopback_lat=\"{}s\"/>\n"
      "</platform>\n",
      m.name, m.description, nodes - 1, 1e9 / m.cpu_scale, finite(m.bandwidth), secs(m.latency / 2),
      finite(intra_bandwidth), secs(intra_latency));
  if (m.latency % 2 != 0)
    g.unmapped.push_back(
        "an odd number of picoseconds of latency: each link gets half, rounded down");
  g.hostfile.reserve(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    g.hostfile.push_back(fmt::format("node-{}", r / per_node));

  const std::uint64_t eager_thresh =
      std::min<std::uint64_t>(m.eager_limit, static_cast<std::uint64_t>(INT_MAX) - 1) + 1;
  g.options = {
      "smpi/host-speed:1Gf",
      fmt::format("smpi/simulate-computation:{}", compute == SimgridCompute::Off ? "no" : "yes"),
      // Overheads: constant per message, the same for blocking and non-blocking sends.
      fmt::format("smpi/os:0:{}:0", secs(m.send_overhead)),
      fmt::format("smpi/ois:0:{}:0", secs(m.send_overhead)),
      fmt::format("smpi/or:0:{}:0", secs(m.recv_overhead)),
      fmt::format("smpi/lat-factor:{}", factors(m, true, g.unmapped)),
      fmt::format("smpi/bw-factor:{}", factors(m, false, g.unmapped)),
      // SMPI sends eagerly what is smaller than its thresholds, mpisim up to its limit. Both are
      // needed: send-is-detached lets the sender return, async-small starts the transfer at the
      // send; without it the data leaves only when the receive is posted, so an eager message
      // to a late receiver costs its latency after the receive (docs/results.md).
      fmt::format("smpi/send-is-detached-thresh:{}", eager_thresh),
      fmt::format("smpi/async-small-thresh:{}", eager_thresh),
      fmt::format("smpi/test:{}", secs(m.poll_overhead)),
      fmt::format("smpi/iprobe:{}", secs(m.poll_overhead)),
      // mpisim's collectives are MPICH's algorithms (docs/model.md); SMPI has MPICH's selector.
      "smpi/coll-selector:mpich",
      // No TCP window and no acknowledgement traffic: the link is the machine's, nothing more.
      "network/TCP-gamma:0",
      "network/crosstraffic:0",
  };
  note_unmapped(m, g.unmapped);
  return g;
}

} // namespace mpisim
