// Machine files and the MPISIM_* variables that set machine parameters.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "config.hpp"
#include "machine_file.hpp"
#include "units.hpp"

namespace {

using mpisim::Config;
using mpisim::ConfigError;
using mpisim::MachineParams;

Config config_of(std::vector<std::string> entries) {
  std::vector<char*> envp;
  for (std::string& entry : entries)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  return Config::from_environment(envp.data());
}

template <class F> std::string error_of(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A file in the test's temporary directory, removed at the end of the test.
class TempFile {
public:
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/mpisim-machine-XXXXXX";
    const int fd = mkstemp(name);
    path_ = name;
    close(fd);
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

TEST(MachineFile, EveryPresetReadsBackExactly) {
  for (const std::string& name : mpisim::machine_preset_names()) {
    const MachineParams preset = mpisim::machine_preset(name);
    const std::string text = mpisim::format_machine_file(preset, "written by a test");
    EXPECT_EQ(mpisim::parse_machine_text(text, "x.machine"), preset) << text;
  }
}

TEST(MachineFile, EveryParameterReadsBackExactly) {
  MachineParams m = mpisim::machine_preset("sp2");
  m.name = "odd \"quoted\" name";
  m.bandwidth = 1 / 1.0086e-6;
  m.topology = mpisim::parse_topology("torus:4x2x2", "t");
  m.ranks_per_node = 3;
  m.switching = mpisim::Switching::Wormhole;
  m.hop_latency = 123'456;
  m.packet_overhead = 7;
  m.packet_size = 1500;
  m.header_size = 16;
  m.control_size = 24;
  m.flit_size = 8;
  m.intra_latency = 333;
  m.intra_bandwidth = 0; // infinite
  m.network = "contention";
  m.cpu_scale = 0.1;
  m.cores_per_rank = 12;
  m.fork_join = 2'500'000;
  m.segments = {{16384, 2'500'000, 8e9}, {1 << 20, -4'200'000, 1 / 1.1e-10}};
  m.sendrecv_extra = {{0, 20'468}, {4096, 11'486}, {4 << 20, 39'991'981}};
  EXPECT_EQ(mpisim::parse_machine_text(mpisim::format_machine_file(m), "x"), m);
}

TEST(MachineFile, KeysNotGivenComeFromTheBase) {
  const MachineParams m = mpisim::parse_machine_text(R"(# a test machine
base = "sp2"
latency = "30us"   # a comment after a value
ranks_per_node = 4
topology = hypercube:3
bandwidth = infinite
)",
                                                     "mine.machine");
  EXPECT_EQ(m.name, "mine.machine");
  EXPECT_EQ(m.latency, 30'000'000);
  EXPECT_EQ(m.ranks_per_node, 4);
  EXPECT_EQ(m.topology, (mpisim::TopologySpec{.kind = "hypercube", .size = "3"}));
  EXPECT_EQ(m.bandwidth, 0.0);
  const MachineParams sp2 = mpisim::machine_preset("sp2");
  EXPECT_EQ(m.send_overhead, sp2.send_overhead);
  EXPECT_EQ(m.hop_latency, sp2.hop_latency);
  EXPECT_EQ(m.eager_limit, sp2.eager_limit);
  // Without a base the keys not given are the cluster's.
  const MachineParams plain = mpisim::parse_machine_text("latency = \"2us\"\n", "p");
  EXPECT_EQ(plain.bandwidth, mpisim::machine_preset("cluster").bandwidth);
}

TEST(MachineFile, ErrorsNameTheFileAndLine) {
  auto parse = [](const std::string& text) {
    return error_of([&] { mpisim::parse_machine_text(text, "m.machine"); });
  };
  std::string e = parse("latency = \"1us\"\nlatncy = \"2us\"\n");
  EXPECT_TRUE(contains(e, "m.machine:2: unknown key 'latncy'; the keys are: base, name")) << e;
  e = parse("latency = \"1us\"\n\nlatency = \"2us\"\n");
  EXPECT_TRUE(contains(e, "m.machine:3: 'latency' was already given on line 1")) << e;
  e = parse("latency \"1us\"\n");
  EXPECT_TRUE(contains(e, "m.machine:1: expected key = value")) << e;
  e = parse("# header\nlatency = \"soon\"\n");
  EXPECT_TRUE(contains(e, "m.machine:2: latency=soon is not a valid time")) << e;
  e = parse("latency = 0\n");
  EXPECT_TRUE(contains(e, "m.machine:1: latency=0 is not valid: it must be greater than zero"))
      << e;
  e = parse("[network]\n");
  EXPECT_TRUE(contains(e, "m.machine:1: a machine file has no [sections]")) << e;
  e = parse("name = \"open\n");
  EXPECT_TRUE(contains(e, "m.machine:1: the closing quote is missing")) << e;
  e = parse("name = \"a\" b\n");
  EXPECT_TRUE(contains(e, "unexpected text after the value: b")) << e;
  e = parse("base = \"cray\"\n");
  EXPECT_TRUE(contains(e, "m.machine:1: unknown machine preset 'cray'")) << e;
  e = parse("switching = \"teleport\"\n");
  EXPECT_TRUE(contains(e, "allowed: store-and-forward, cut-through, circuit, wormhole")) << e;
  e = parse("latency =\n");
  EXPECT_TRUE(contains(e, "m.machine:1: a value is missing")) << e;
}

TEST(MachineFile, MachineVariableTakesAFile) {
  const TempFile file("base = \"ideal\"\nname = \"tiny\"\nlatency = \"3us\"\n");
  const Config c = config_of({"MPISIM_MACHINE=" + file.path()});
  EXPECT_EQ(c.machine.name, "tiny");
  EXPECT_EQ(c.machine.latency, 3'000'000);
  EXPECT_EQ(c.machine.send_overhead, 0);
  // A variable overrides the file's value whatever the order in the environment.
  const Config o = config_of({"MPISIM_LATENCY=5us", "MPISIM_MACHINE=" + file.path()});
  EXPECT_EQ(o.machine.latency, 5'000'000);
  const TempFile broken("latency = \"fast\"\n");
  const std::string e = error_of([&] { config_of({"MPISIM_MACHINE=" + broken.path()}); });
  EXPECT_TRUE(contains(e, broken.path() + ":1: latency=fast")) << e;
}

TEST(MachineFile, EveryMachineKeyButTheFileOnesIsAVariable) {
  for (const mpisim::MachineKey& k : mpisim::machine_keys()) {
    const bool file_only = std::string(k.key) == "base" || std::string(k.key) == "name" ||
                           std::string(k.key) == "description";
    EXPECT_EQ(k.variable == nullptr, file_only) << k.key;
    if (k.variable) {
      EXPECT_NE(mpisim::find_variable(k.variable), nullptr) << k.variable;
    }
  }
}

TEST(MachineVariables, SetTheNetworkStructure) {
  const Config c =
      config_of({"MPISIM_RANKS=32", "MPISIM_TOPOLOGY=torus:4x4", "MPISIM_RANKS_PER_NODE=2",
                 "MPISIM_SWITCHING=wormhole", "MPISIM_FLIT_SIZE=16", "MPISIM_HOP_LATENCY=20ns",
                 "MPISIM_PACKET_SIZE=4KiB", "MPISIM_PACKET_OVERHEAD=1us", "MPISIM_HEADER_SIZE=8",
                 "MPISIM_CONTROL_SIZE=12", "MPISIM_INTRA_LATENCY=50ns",
                 "MPISIM_INTRA_BANDWIDTH=40GB/s", "MPISIM_NETWORK=latency"});
  EXPECT_EQ(mpisim::format_topology(c.machine.topology), "torus:4x4");
  EXPECT_EQ(c.machine.ranks_per_node, 2);
  EXPECT_EQ(c.machine.switching, mpisim::Switching::Wormhole);
  EXPECT_EQ(c.machine.flit_size, 16u);
  EXPECT_EQ(c.machine.hop_latency, 20'000);
  EXPECT_EQ(c.machine.packet_size, 4096u);
  EXPECT_EQ(c.machine.packet_overhead, 1'000'000);
  EXPECT_EQ(c.machine.header_size, 8u);
  EXPECT_EQ(c.machine.control_size, 12u);
  EXPECT_EQ(c.machine.intra_latency, 50'000);
  EXPECT_EQ(c.machine.intra_bandwidth, 40e9);
  EXPECT_EQ(c.machine.network, "latency");
}

TEST(MachineVariables, TheMachineMustHoldTheRanks) {
  std::string e = error_of([] { config_of({"MPISIM_RANKS=40", "MPISIM_TOPOLOGY=ring:16"}); });
  EXPECT_TRUE(contains(e, "topology ring:16 has 16 nodes, but the ranks need 40")) << e;
  // Two ranks per node fit 32 ranks on 16 nodes.
  EXPECT_NO_THROW(
      config_of({"MPISIM_RANKS=32", "MPISIM_TOPOLOGY=ring:16", "MPISIM_RANKS_PER_NODE=2"}));
  e = error_of([] { config_of({"MPISIM_SWITCHING=wormhole"}); });
  EXPECT_TRUE(contains(e, "wormhole switching needs a flit size; set flit_size")) << e;
  e = error_of([] { config_of({"MPISIM_RANKS_PER_NODE=0"}); });
  EXPECT_TRUE(contains(e, "MPISIM_RANKS_PER_NODE=0 is not valid")) << e;
  e = error_of([] { config_of({"MPISIM_INTRA_LATENCY=0"}); });
  EXPECT_TRUE(contains(e, "greater than zero")) << e;
  e = error_of([] { config_of({"MPISIM_SEGMENTS=4KiB 1us 1GB/s, 2KiB 1us 1GB/s"}); });
  EXPECT_TRUE(contains(e, "the sizes must be above 0 and increasing")) << e;
  // 1 KiB at 1 GB/s is 1.024 us: a segment intercept of -2 us leaves it no time.
  e = error_of([] { config_of({"MPISIM_SEGMENTS=1KiB -2us 1GB/s"}); });
  EXPECT_TRUE(contains(e, "a message of 1024 bytes, where a segment starts, would take no time"))
      << e;
  EXPECT_EQ(config_of({"MPISIM_SEGMENTS=1KiB -1us 1GB/s"}).machine.segments,
            (std::vector<mpisim::LinkSegment>{{1024, -1'000'000, 1e9}}));
  e = error_of([] { config_of({"MPISIM_SENDRECV_EXTRA=4KiB 1us, 1KiB 2us"}); });
  EXPECT_TRUE(contains(e, "the sizes must be increasing")) << e;
  e = error_of([] { config_of({"MPISIM_SENDRECV_EXTRA=4KiB"}); });
  EXPECT_TRUE(contains(e, "'4KiB' is not 'size time'")) << e;
  EXPECT_EQ(config_of({"MPISIM_SENDRECV_EXTRA=0 20ns, 1KiB 1us"}).machine.sendrecv_extra,
            (std::vector<mpisim::SizedTime>{{0, 20'000}, {1024, 1'000'000}}));
}

TEST(MachineVariables, QuantumIsCheckedAgainstTheSmallestLatency) {
  // Two ranks per node: the smallest latency is the cluster's intra-node 100 ns.
  const std::string e = error_of([] {
    config_of({"MPISIM_RANKS=4", "MPISIM_RANKS_PER_NODE=2", "MPISIM_QUANTUM=1us"});
  });
  EXPECT_TRUE(contains(e, "larger than the smallest latency of machine cluster (100 ns)")) << e;
  EXPECT_NO_THROW(config_of({"MPISIM_RANKS=4", "MPISIM_RANKS_PER_NODE=2", "MPISIM_QUANTUM=100ns"}));
}

TEST(MachineDocs, MachinesMarkdownHoldsTheKeyTable) {
  std::ifstream in(MPISIM_SOURCE_DIR "/docs/machines.md");
  ASSERT_TRUE(in) << "docs/machines.md is missing";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(doc.find(mpisim::describe_machine_keys_markdown()), std::string::npos)
      << "docs/machines.md is out of date; regenerate its key table from "
         "mpisim::describe_machine_keys_markdown()";
}

TEST(MachineFile, ExactBandwidthText) {
  for (double bw : {12e9, 37e6, 12.5e9, 1 / 1.0086e-6, 1e3, 3.0, 123456789.123})
    EXPECT_EQ(mpisim::parse_bandwidth(mpisim::exact_bandwidth(bw), "b"), bw) << bw;
  EXPECT_EQ(mpisim::exact_bandwidth(12e9), "12GB/s");
  EXPECT_EQ(mpisim::exact_bandwidth(0), "infinite");
}

} // namespace
