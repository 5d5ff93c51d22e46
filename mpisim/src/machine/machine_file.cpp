#include "machine_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "config_error.hpp"
#include "network_model.hpp"
#include "units.hpp"

namespace mpisim {
namespace {

constexpr const char* kDefaultBase = "cluster";
constexpr const char* kSameAsNetwork = "network";

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

[[noreturn]] void bad(const std::string& what, const std::string& value, std::string_view reason,
                      std::string_view allowed = {}) {
  throw ConfigError(fmt::format("{}={} is not valid{}{}{}{}", what, value,
                                reason.empty() ? "" : ": ", reason,
                                allowed.empty() ? "" : "; allowed: ", allowed));
}

SimTime positive_time(const std::string& value, const std::string& what) {
  const SimTime t = parse_time(value, what);
  if (t <= 0) bad(what, value, "it must be greater than zero");
  return t;
}

/// A bandwidth, where "infinite" (stored as 0) is allowed.
double bandwidth_or_infinite(const std::string& value, const std::string& what) {
  if (value == "infinite" || value == "inf") return 0;
  return parse_bandwidth(value, what);
}

int positive_int(const std::string& value, const std::string& what, std::string_view allowed) {
  int n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc{} || end != value.data() + value.size() || n <= 0)
    bad(what, value, "", allowed);
  return n;
}

double positive_double(const std::string& value, const std::string& what,
                       std::string_view allowed) {
  double x = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), x);
  if (error != std::errc{} || end != value.data() + value.size() || !std::isfinite(x) || x <= 0)
    bad(what, value, "", allowed);
  return x;
}

constexpr std::pair<Switching, const char*> kSwitchingNames[] = {
    {Switching::StoreAndForward, "store-and-forward"},
    {Switching::CutThrough, "cut-through"},
    {Switching::Circuit, "circuit"},
    {Switching::Wormhole, "wormhole"},
};
constexpr const char* kSwitchingAllowed = "store-and-forward, cut-through, circuit, wormhole";

/// The registered network models: "latency, contention" and "latency: ...; contention: ...".
const std::string& network_names() {
  static const std::string names = [] {
    std::string s;
    for (const NetworkModelEntry& e : network_models())
      s += (s.empty() ? "" : ", ") + std::string(e.name);
    return s;
  }();
  return names;
}
const std::string& network_meanings() {
  static const std::string meanings = [] {
    std::string s;
    for (const NetworkModelEntry& e : network_models())
      s += (s.empty() ? "" : "; ") + std::string(e.name) + ": " + e.description;
    return s;
  }();
  return meanings;
}

std::string network_model_name(const std::string& value, const std::string& what) {
  if (find_network_model(value)) return value;
  bad(what, value, "", network_names().c_str());
}

template <class T, std::size_t N>
T choice(const std::pair<T, const char*> (&names)[N], const std::string& value,
         const std::string& what, const char* allowed) {
  for (const auto& [item, name] : names)
    if (value == name) return item;
  bad(what, value, "", allowed);
}

std::string time_text(SimTime t) {
  return quoted(format_time(t));
}

std::string optional_time_text(const std::optional<SimTime>& t) {
  return t ? time_text(*t) : quoted(kSameAsNetwork);
}

std::string size_text(std::uint64_t bytes) {
  return quoted(format_size(bytes));
}

std::string double_text(double x) {
  return fmt::format("{}", x); // shortest form that reads back exactly
}

/// `text` without its spaces: "16 KiB" -> "16KiB", so that a segment splits at spaces.
std::string compact(std::string text) {
  std::erase(text, ' ');
  return text;
}

/// The comma-separated items of `value` ("none" or empty: none), each split into exactly as many
/// words as `form` has ("size time"); `allowed` is the syntax named in the error.
std::vector<std::vector<std::string>> split_items(const std::string& value, const std::string& what,
                                                  const std::string& form, const char* allowed) {
  std::vector<std::vector<std::string>> result;
  if (value == "none" || value.empty()) return result;
  const auto count = static_cast<std::size_t>(std::count(form.begin(), form.end(), ' ') + 1);
  std::istringstream items(value);
  for (std::string item; std::getline(items, item, ',');) {
    std::istringstream in(item);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
      words.push_back(w);
    if (words.size() != count)
      bad(what, value, fmt::format("'{}' is not '{}'", item, form), allowed);
    result.push_back(std::move(words));
  }
  return result;
}

/// `items` as a machine file writes a list: "none" when empty.
std::string list_text(const std::vector<std::string>& items) {
  return quoted(items.empty() ? "none" : fmt::format("{}", fmt::join(items, ", ")));
}

std::vector<LinkSegment> parse_segments(const std::string& value, const std::string& what) {
  std::vector<LinkSegment> segments;
  for (const auto& w :
       split_items(value, what, "size latency bandwidth",
                   "none, or a comma-separated list of 'size latency bandwidth', e.g. 16KiB 3us "
                   "8GB/s, where a latency may be negative (the line's intercept)")) {
    // A segment's latency is the intercept of its line, which may lie below zero.
    const bool negative = w[1].starts_with('-');
    const SimTime magnitude = parse_time(negative ? w[1].substr(1) : w[1], what);
    LinkSegment s{parse_size(w[0], what), negative ? -magnitude : magnitude,
                  bandwidth_or_infinite(w[2], what)};
    if (s.from == 0 || (!segments.empty() && s.from <= segments.back().from))
      bad(what, value, "the sizes must be above 0 and increasing");
    segments.push_back(s);
  }
  return segments;
}

std::vector<SizedTime> parse_sized_times(const std::string& value, const std::string& what) {
  std::vector<SizedTime> points;
  for (const auto& w : split_items(value, what, "size time",
                                   "none, or a comma-separated list of 'size time' by increasing "
                                   "size, e.g. 0 20ns, 4KiB 90ns, 1MiB 2us")) {
    const SizedTime p{parse_size(w[0], what), parse_time(w[1], what)};
    if (!points.empty() && p.bytes <= points.back().bytes)
      bad(what, value, "the sizes must be increasing");
    points.push_back(p);
  }
  return points;
}

std::string sized_times_text(const std::vector<SizedTime>& points) {
  std::vector<std::string> items;
  for (const SizedTime& p : points)
    items.push_back(
        fmt::format("{} {}", compact(format_size(p.bytes)), compact(format_time(p.time))));
  return list_text(items);
}

std::string segments_text(const std::vector<LinkSegment>& segments) {
  std::vector<std::string> items;
  for (const LinkSegment& s : segments)
    items.push_back(fmt::format("{} {} {}", compact(format_size(s.from)),
                                compact(format_time(s.latency)), exact_bandwidth(s.bandwidth)));
  return list_text(items);
}

using M = MachineParams;
using S = const std::string&;

const std::vector<MachineKey> kKeys{
    {"base", nullptr, nullptr, "the preset whose values the keys not given keep (file only)",
     "a preset name; default cluster", nullptr, nullptr},
    {"name", nullptr, nullptr, "name shown in reports (file only)", "text; default the file path",
     [](M& m, S v, S) { m.name = v; }, [](const M& m) { return quoted(m.name); }},
    {"description", nullptr, nullptr, "one line shown in listings (file only)", "text",
     [](M& m, S v, S) { m.description = v; }, [](const M& m) { return quoted(m.description); }},
    {"latency", "MPISIM_LATENCY", "--latency",
     "end-to-end latency of a message, paid once (besides the per-link costs)",
     "a time > 0, e.g. 1.5us, 40us, 2ms", [](M& m, S v, S w) { m.latency = positive_time(v, w); },
     [](const M& m) { return time_text(m.latency); }},
    {"bandwidth", "MPISIM_BANDWIDTH", "--bandwidth", "bandwidth of a link",
     "a bandwidth > 0, e.g. 35MB/s, 12.5GB/s, 1Gb/s, 100KiB/s, or infinite",
     [](M& m, S v, S w) { m.bandwidth = bandwidth_or_infinite(v, w); },
     [](const M& m) { return quoted(exact_bandwidth(m.bandwidth)); }},
    {"segments", "MPISIM_SEGMENTS", "--segments",
     "messages of at least a size use another latency and bandwidth (a piecewise-linear link)",
     "none, or a comma-separated list of 'size latency bandwidth', e.g. 16KiB 3us 8GB/s",
     [](M& m, S v, S w) { m.segments = parse_segments(v, w); },
     [](const M& m) { return segments_text(m.segments); }},
    {"sendrecv_extra", "MPISIM_SENDRECV_EXTRA", "--sendrecv-extra",
     "time an MPI_Sendrecv costs its rank beyond a send and a receive of the same size "
     "(interpolated linearly between the sizes given, and extended past the last one along its "
     "last segment)",
     "none, or a comma-separated list of 'size time' by increasing size, e.g. 0 20ns, 4KiB "
     "90ns, 1MiB 2us",
     [](M& m, S v, S w) { m.sendrecv_extra = parse_sized_times(v, w); },
     [](const M& m) { return sized_times_text(m.sendrecv_extra); }},
    {"send_overhead", "MPISIM_SEND_OVERHEAD", "--send-overhead",
     "CPU time a sender spends per message", "a time, e.g. 200ns, 6us, 0",
     [](M& m, S v, S w) { m.send_overhead = parse_time(v, w); },
     [](const M& m) { return time_text(m.send_overhead); }},
    {"recv_overhead", "MPISIM_RECV_OVERHEAD", "--recv-overhead",
     "CPU time a receiver spends per message", "a time, e.g. 200ns, 6us, 0",
     [](M& m, S v, S w) { m.recv_overhead = parse_time(v, w); },
     [](const M& m) { return time_text(m.recv_overhead); }},
    {"eager_limit", "MPISIM_EAGER_LIMIT", "--eager-limit",
     "largest message sent eagerly; above it a send waits for the matching receive",
     "a size, e.g. 4096, 64KiB, 1MiB, 0", [](M& m, S v, S w) { m.eager_limit = parse_size(v, w); },
     [](const M& m) { return size_text(m.eager_limit); }},
    {"poll_overhead", "MPISIM_POLL_OVERHEAD", "--poll-overhead",
     "cost of an MPI_Test/MPI_Iprobe that completes nothing, so polling loops advance",
     "a time > 0, e.g. 100ns, 1us", [](M& m, S v, S w) { m.poll_overhead = positive_time(v, w); },
     [](const M& m) { return time_text(m.poll_overhead); }},
    {"cpu_scale", "MPISIM_CPU_SCALE", "--cpu-scale", "target seconds per host CPU second",
     "a number > 0, e.g. 1, 0.5, 2.5",
     [](M& m, S v, S w) { m.cpu_scale = positive_double(v, w, "a number > 0, e.g. 1, 0.5, 2.5"); },
     [](const M& m) { return double_text(m.cpu_scale); }},
    {"node_speed", "MPISIM_NODE_SPEED", "--node-speed",
     "speed of some nodes' cores relative to cpu_scale: measured compute on them is divided by "
     "it (2: twice as fast)",
     "uniform, or a comma-separated list of nodes:speed (nodes a node number or a range "
     "first-last, speed a number > 0), e.g. 0-15:2, 16:0.5",
     [](M& m, S v, S w) { m.node_speeds = parse_node_speeds(v, w); },
     [](const M& m) { return quoted(format_node_speeds(m.node_speeds)); }},
    {"cores_per_rank", "MPISIM_CORES_PER_RANK", "--cores-per-rank",
     "cores the threads of one rank run on (OpenMP): a team of more threads shares them",
     "a positive integer, e.g. 1, 16",
     [](M& m, S v, S w) { m.cores_per_rank = positive_int(v, w, "a positive integer"); },
     [](const M& m) { return fmt::format("{}", m.cores_per_rank); }},
    {"fork_join", "MPISIM_FORK_JOIN", "--fork-join",
     "time to start and end one OpenMP parallel region of two or more threads",
     "a time, e.g. 1us, 0", [](M& m, S v, S w) { m.fork_join = parse_time(v, w); },
     [](const M& m) { return time_text(m.fork_join); }},
    {"topology", "MPISIM_TOPOLOGY", "--topology", "how the nodes are connected", topology_syntax(),
     [](M& m, S v, S w) { m.topology = parse_topology(v, w); },
     [](const M& m) { return quoted(format_topology(m.topology)); }},
    {"ranks_per_node", "MPISIM_RANKS_PER_NODE", "--ranks-per-node",
     "ranks on each node (block mapping: ranks 0..k-1 on node 0, ...)", "a positive integer",
     [](M& m, S v, S w) { m.ranks_per_node = positive_int(v, w, "a positive integer"); },
     [](const M& m) { return fmt::format("{}", m.ranks_per_node); }},
    {"switching", "MPISIM_SWITCHING", "--switching",
     "how a message crosses the links of its route (PUPPET's Table 3.1)", kSwitchingAllowed,
     [](M& m, S v, S w) { m.switching = choice(kSwitchingNames, v, w, kSwitchingAllowed); },
     [](const M& m) { return quoted(switching_name(m.switching)); }},
    {"hop_latency", "MPISIM_HOP_LATENCY", "--hop-latency",
     "routing time of a header at each link (fixed part of t0)", "a time, e.g. 100ns, 0",
     [](M& m, S v, S w) { m.hop_latency = parse_time(v, w); },
     [](const M& m) { return time_text(m.hop_latency); }},
    {"packet_overhead", "MPISIM_PACKET_OVERHEAD", "--packet-overhead",
     "initialization time per packet and link (fixed part of t)", "a time, e.g. 1us, 0",
     [](M& m, S v, S w) { m.packet_overhead = parse_time(v, w); },
     [](const M& m) { return time_text(m.packet_overhead); }},
    {"packet_size", "MPISIM_PACKET_SIZE", "--packet-size",
     "largest packet; longer messages are split (0: a message is one packet)",
     "a size, e.g. 1500, 4KiB, 0", [](M& m, S v, S w) { m.packet_size = parse_size(v, w); },
     [](const M& m) { return size_text(m.packet_size); }},
    {"header_size", "MPISIM_HEADER_SIZE", "--header-size", "header of virtual cut-through (h)",
     "a size, e.g. 16, 0", [](M& m, S v, S w) { m.header_size = parse_size(v, w); },
     [](const M& m) { return size_text(m.header_size); }},
    {"control_size", "MPISIM_CONTROL_SIZE", "--control-size",
     "control packet that sets up a circuit (c)", "a size, e.g. 16, 0",
     [](M& m, S v, S w) { m.control_size = parse_size(v, w); },
     [](const M& m) { return size_text(m.control_size); }},
    {"flit_size", "MPISIM_FLIT_SIZE", "--flit-size", "flit of wormhole routing (f)",
     "a size > 0 (needed for wormhole), e.g. 8, 32",
     [](M& m, S v, S w) { m.flit_size = parse_size(v, w); },
     [](const M& m) { return size_text(m.flit_size); }},
    {"intra_latency", "MPISIM_INTRA_LATENCY", "--intra-latency",
     "latency between two ranks of one node (and a rank and itself)",
     "a time > 0, or network: the network's (both intra keys network: as over one link)",
     [](M& m, S v, S w) {
       m.intra_latency = v == kSameAsNetwork ? std::nullopt : std::optional(positive_time(v, w));
     },
     [](const M& m) { return optional_time_text(m.intra_latency); }},
    {"intra_bandwidth", "MPISIM_INTRA_BANDWIDTH", "--intra-bandwidth",
     "bandwidth between two ranks of one node", "a bandwidth, infinite, or network: the network's",
     [](M& m, S v, S w) {
       m.intra_bandwidth =
           v == kSameAsNetwork ? std::nullopt : std::optional(bandwidth_or_infinite(v, w));
     },
     [](const M& m) {
       return m.intra_bandwidth ? quoted(exact_bandwidth(*m.intra_bandwidth))
                                : quoted(kSameAsNetwork);
     }},
    {"io_latency", "MPISIM_IO_LATENCY", "--io-latency",
     "time of one MPI-IO access besides its bytes (also open, close, sync)",
     "a time, e.g. 50us, 10ms, 0", [](M& m, S v, S w) { m.io_latency = parse_time(v, w); },
     [](const M& m) { return time_text(m.io_latency); }},
    {"io_bandwidth", "MPISIM_IO_BANDWIDTH", "--io-bandwidth",
     "bandwidth of a node's path to the file system (one rank's MPI-IO access)",
     "a bandwidth > 0, e.g. 2GB/s, 100MB/s, or infinite",
     [](M& m, S v, S w) { m.io_bandwidth = bandwidth_or_infinite(v, w); },
     [](const M& m) { return quoted(exact_bandwidth(m.io_bandwidth)); }},
    {"io_shared_bandwidth", "MPISIM_IO_SHARED_BANDWIDTH", "--io-shared-bandwidth",
     "bandwidth of the whole file system, shared by the ranks of a collective MPI-IO access",
     "a bandwidth > 0, e.g. 20GB/s, 1GB/s, or infinite",
     [](M& m, S v, S w) { m.io_shared_bandwidth = bandwidth_or_infinite(v, w); },
     [](const M& m) { return quoted(exact_bandwidth(m.io_shared_bandwidth)); }},
    {"network", "MPISIM_NETWORK", "--network", network_meanings().c_str(), network_names().c_str(),
     [](M& m, S v, S w) { m.network = network_model_name(v, w); },
     [](const M& m) { return quoted(m.network); }},
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

struct Entry {
  std::string key;
  std::string value;
  int line = 0;
};

/// The value of one line: a quoted string (with \" and \\ escapes) or a bare word, and an
/// optional # comment after it.
std::string line_value(std::string_view text, const std::string& where) {
  if (text.empty() || text[0] != '"') {
    const auto hash = text.find('#');
    const std::string_view bare = trim(text.substr(0, hash));
    if (bare.empty()) throw ConfigError(fmt::format("{}: a value is missing after '='", where));
    return std::string(bare);
  }
  std::string value;
  std::size_t i = 1;
  for (; i < text.size() && text[i] != '"'; ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    value += text[i];
  }
  if (i >= text.size()) throw ConfigError(fmt::format("{}: the closing quote is missing", where));
  const std::string_view rest = trim(text.substr(i + 1));
  if (!rest.empty() && rest[0] != '#')
    throw ConfigError(fmt::format("{}: unexpected text after the value: {}", where, rest));
  return value;
}

std::string key_names() {
  std::vector<std::string_view> names;
  for (const MachineKey& k : kKeys)
    names.emplace_back(k.key);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::vector<Entry> read_entries(const std::string& text, const std::string& source) {
  std::vector<Entry> entries;
  std::istringstream in(text);
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    const std::string where = fmt::format("{}:{}", source, number);
    const std::string_view line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[')
      throw ConfigError(
          fmt::format("{}: a machine file has no [sections]; write key = value lines", where));
    const auto equals = line.find('=');
    if (equals == std::string_view::npos)
      throw ConfigError(fmt::format("{}: expected key = value, found: {}", where, line));
    Entry e{std::string(trim(line.substr(0, equals))), "", number};
    if (!find_machine_key(e.key))
      throw ConfigError(
          fmt::format("{}: unknown key '{}'; the keys are: {}", where, e.key, key_names()));
    for (const Entry& earlier : entries)
      if (earlier.key == e.key)
        throw ConfigError(
            fmt::format("{}: '{}' was already given on line {}", where, e.key, earlier.line));
    e.value = line_value(trim(line.substr(equals + 1)), where);
    entries.push_back(std::move(e));
  }
  return entries;
}

} // namespace

const std::vector<MachineKey>& machine_keys() {
  return kKeys;
}

const MachineKey* find_machine_key(std::string_view key) {
  const auto it =
      std::find_if(kKeys.begin(), kKeys.end(), [key](const MachineKey& k) { return key == k.key; });
  return it == kKeys.end() ? nullptr : &*it;
}

std::string switching_name(Switching s) {
  for (const auto& [item, name] : kSwitchingNames)
    if (item == s) return name;
  return "?";
}

MachineParams parse_machine_text(const std::string& text, const std::string& source) {
  const std::vector<Entry> entries = read_entries(text, source);
  const auto base =
      std::find_if(entries.begin(), entries.end(), [](const Entry& e) { return e.key == "base"; });
  MachineParams m;
  try {
    m = machine_preset(base == entries.end() ? kDefaultBase : base->value);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}:{}: {}", source, base->line, e.what()));
  }
  m.name = source;
  m.description = "machine file " + source;
  for (const Entry& e : entries) {
    const MachineKey& key = *find_machine_key(e.key);
    if (key.parse) key.parse(m, e.value, fmt::format("{}:{}: {}", source, e.line, e.key));
  }
  return m;
}

MachineParams read_machine_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("cannot read the machine file {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_machine_text(text.str(), path);
}

std::string format_machine_file(const MachineParams& m, const std::string& comment) {
  std::string out;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);)
    out += line.empty() ? "#\n" : "# " + line + "\n";
  for (const MachineKey& k : kKeys)
    if (k.format) out += fmt::format("{} = {}\n", k.key, k.format(m));
  return out;
}

std::string describe_machine_keys_markdown() {
  std::string text = "| key | variable | meaning | allowed | cluster |\n|---|---|---|---|---|\n";
  const MachineParams cluster = machine_preset(kDefaultBase);
  for (const MachineKey& k : kKeys)
    text += fmt::format("| `{}` | {} | {} | {} | {} |\n", k.key,
                        k.variable ? fmt::format("`{}`", k.variable) : "-", k.meaning, k.allowed,
                        k.format ? fmt::format("`{}`", k.format(cluster)) : "-");
  return text;
}

std::string exact_bandwidth(double bytes_per_second) {
  if (!(bytes_per_second > 0)) return "infinite";
  constexpr std::pair<double, const char*> kUnits[] = {{1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}};
  for (const auto& [factor, unit] : kUnits) {
    const double scaled = bytes_per_second / factor;
    if (scaled >= 1 && scaled == std::floor(scaled) && scaled * factor == bytes_per_second)
      return fmt::format("{}{}", scaled, unit);
  }
  // parse_bandwidth reads the decimal digits itself, so find a form it reads back exactly.
  for (int digits = 15; digits <= 21; ++digits) {
    const std::string text = fmt::format("{:.{}g}B/s", bytes_per_second, digits);
    try {
      if (parse_bandwidth(text, "bandwidth") == bytes_per_second) return text;
    } catch (const ConfigError&) {
    }
  }
  return fmt::format("{}B/s", bytes_per_second);
}

} // namespace mpisim
