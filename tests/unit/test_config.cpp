// Config is always built from a local environment array: the real environment of the test
// process may hold MPISIM_* variables of whoever runs the tests.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "comm_matrix.hpp"
#include "config.hpp"
#include "rank_map.hpp"
#include "scratch_dir.hpp"
#include "units.hpp"

using mpisim::CalendarEpoch;
using mpisim::Config;
using mpisim::ConfigError;
using mpisim::machine_preset;
using mpisim::MachineParams;

namespace {

Config config_of(std::vector<std::string> entries) {
  std::vector<char*> envp;
  for (std::string& entry : entries)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  return Config::from_environment(envp.data());
}

/// The message of the ConfigError that `entries` cause, or "" when they are valid.
std::string error_of(std::vector<std::string> entries) {
  try {
    config_of(std::move(entries));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void expect_same_machine(const MachineParams& a, const MachineParams& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.send_overhead, b.send_overhead);
  EXPECT_EQ(a.recv_overhead, b.recv_overhead);
  EXPECT_EQ(a.latency, b.latency);
  EXPECT_EQ(a.bandwidth, b.bandwidth);
  EXPECT_EQ(a.eager_limit, b.eager_limit);
  EXPECT_EQ(a.poll_overhead, b.poll_overhead);
  EXPECT_EQ(a.cpu_scale, b.cpu_scale);
}

void expect_same_config(const Config& a, const Config& b) {
  EXPECT_EQ(a.ranks, b.ranks);
  EXPECT_EQ(a.hosts, b.hosts);
  EXPECT_EQ(a.map, b.map);
  EXPECT_EQ(a.protocol, b.protocol);
  EXPECT_EQ(a.det, b.det);
  EXPECT_EQ(a.quantum, b.quantum);
  EXPECT_EQ(a.lookahead, b.lookahead);
  expect_same_machine(a.machine, b.machine);
  EXPECT_EQ(a.cpu, b.cpu);
  EXPECT_EQ(a.stack_size, b.stack_size);
  EXPECT_EQ(a.report_path, b.report_path);
  EXPECT_EQ(a.trace_path, b.trace_path);
}

} // namespace

TEST(Config, DefaultsAreTheClusterPreset) {
  const Config c = config_of({"PATH=/usr/bin", "HOME=/root"});
  EXPECT_EQ(c.ranks, 1);
  EXPECT_EQ(c.hosts, 1);
  EXPECT_EQ(c.map, "block");
  EXPECT_EQ(c.protocol, "nmp+cep");
  EXPECT_TRUE(c.det);
  EXPECT_FALSE(c.quantum.has_value());
  EXPECT_EQ(c.lookahead, mpisim::Lookahead::Dynamic);
  EXPECT_EQ(c.cpu, mpisim::CpuMode::Measured);
  EXPECT_EQ(c.stack_size, 8u << 20); // a native process's, for one rank
  EXPECT_TRUE(c.report_path.empty());
  EXPECT_TRUE(c.trace_path.empty());
  EXPECT_TRUE(c.given.empty());
  expect_same_machine(c.machine, machine_preset("cluster"));
}

TEST(Config, NullEnvironmentGivesDefaults) {
  expect_same_machine(Config::from_environment(nullptr).machine, machine_preset("cluster"));
}

TEST(Config, TableDefaultsAgreeWithConfigDefaults) {
  const Config defaults = config_of({});
  for (const mpisim::VariableInfo& v : mpisim::variables()) {
    Config explicit_default;
    try {
      explicit_default = config_of({std::string(v.name) + "=" + v.default_value});
    } catch (const ConfigError&) {
      continue; // a description such as "from the machine", not a value
    }
    SCOPED_TRACE(v.name);
    expect_same_config(explicit_default, defaults);
  }
}

TEST(Config, ClusterPreset) {
  const MachineParams m = machine_preset("cluster");
  EXPECT_EQ(m.send_overhead, 200'000);
  EXPECT_EQ(m.recv_overhead, 200'000);
  EXPECT_EQ(m.latency, 1'500'000);
  EXPECT_EQ(m.bandwidth, 12e9);
  EXPECT_EQ(m.eager_limit, 65536u);
  EXPECT_EQ(m.poll_overhead, 100'000);
  EXPECT_EQ(m.cpu_scale, 1.0);
}

TEST(Config, OtherPresets) {
  const MachineParams sp2 = machine_preset("sp2");
  EXPECT_EQ(sp2.send_overhead, 6'000'000);
  EXPECT_EQ(sp2.latency, 27'000'000);
  EXPECT_EQ(sp2.bandwidth, 37e6);
  EXPECT_EQ(sp2.eager_limit, 4096u);
  const MachineParams ethernet = machine_preset("ethernet-1996");
  EXPECT_EQ(ethernet.latency, 1'449'800'000);
  EXPECT_EQ(ethernet.bandwidth, 1 / 1.0086e-6);
  EXPECT_EQ(ethernet.poll_overhead, 10'000'000);
  const MachineParams ideal = machine_preset("ideal");
  EXPECT_EQ(ideal.latency, 1);
  EXPECT_EQ(ideal.bandwidth, 0.0);
  EXPECT_EQ(ideal.eager_limit, 1ull << 62);
  EXPECT_EQ(ideal.send_overhead + ideal.recv_overhead, 0);
}

TEST(Config, EveryPresetHasAPositiveLatencyAndPollOverhead) {
  for (const std::string& name : mpisim::machine_preset_names()) {
    EXPECT_GT(machine_preset(name).latency, 0) << name;
    EXPECT_GT(machine_preset(name).poll_overhead, 0) << name;
  }
}

TEST(Config, UnknownPresetListsThePresets) {
  try {
    machine_preset("cray");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(contains(e.what(), "cray"));
    EXPECT_TRUE(contains(e.what(), "cluster, sp2, ethernet-1996, ideal")) << e.what();
  }
}

TEST(Config, AllSettings) {
  const Config c = config_of({
      "MPISIM_RANKS=64",
      "MPISIM_HOSTS=4",
      "MPISIM_MAP=cyclic",
      "MPISIM_PROTOCOL=quantum",
      "MPISIM_DET=0",
      "MPISIM_QUANTUM=10us",
      "MPISIM_LOOKAHEAD=static",
      "MPISIM_MACHINE=sp2",
      "MPISIM_CPU=off",
      "MPISIM_CPU_SCALE=0.5",
      "MPISIM_STACK=1MiB",
      "MPISIM_REPORT=out.json",
      "MPISIM_TRACE=trace.json",
  });
  EXPECT_EQ(c.ranks, 64);
  EXPECT_EQ(c.hosts, 4);
  EXPECT_EQ(c.map, "cyclic");
  EXPECT_EQ(c.protocol, "quantum");
  EXPECT_FALSE(c.det);
  EXPECT_EQ(c.quantum, 10'000'000);
  EXPECT_EQ(c.lookahead, mpisim::Lookahead::Static);
  EXPECT_EQ(c.machine.name, "sp2");
  EXPECT_EQ(c.cpu, mpisim::CpuMode::Off);
  EXPECT_EQ(c.machine.cpu_scale, 0.5);
  EXPECT_EQ(c.stack_size, 1u << 20);
  EXPECT_EQ(c.report_path, "out.json");
  EXPECT_EQ(c.trace_path, "trace.json");
}

TEST(Config, ProtocolsByName) {
  EXPECT_EQ(config_of({"MPISIM_PROTOCOL=nmp"}).protocol, "nmp");
  EXPECT_EQ(config_of({"MPISIM_PROTOCOL=cep"}).protocol, "cep");
  EXPECT_EQ(config_of({"MPISIM_PROTOCOL=nmp+cep"}).protocol, "nmp+cep");
  EXPECT_EQ(config_of({"MPISIM_PROTOCOL=quantum"}).protocol, "quantum");
}

TEST(Config, OverridesReplacePresetValues) {
  const Config c = config_of({
      "MPISIM_MACHINE=sp2",
      "MPISIM_LATENCY=1.5us",
      "MPISIM_BANDWIDTH=35MB/s",
      "MPISIM_SEND_OVERHEAD=0",
      "MPISIM_RECV_OVERHEAD=250ns",
      "MPISIM_EAGER_LIMIT=64KiB",
      "MPISIM_POLL_OVERHEAD=2us",
  });
  EXPECT_EQ(c.machine.name, "sp2");
  EXPECT_EQ(c.machine.latency, 1'500'000);
  EXPECT_EQ(c.machine.bandwidth, 35e6);
  EXPECT_EQ(c.machine.send_overhead, 0);
  EXPECT_EQ(c.machine.recv_overhead, 250'000);
  EXPECT_EQ(c.machine.eager_limit, 65536u);
  EXPECT_EQ(c.machine.poll_overhead, 2'000'000);
  EXPECT_EQ(c.machine.cpu_scale, machine_preset("sp2").cpu_scale);
}

TEST(Config, OverridesApplyWhateverTheOrderInTheEnvironment) {
  const Config c = config_of({"MPISIM_LATENCY=3us", "MPISIM_MACHINE=sp2"});
  EXPECT_EQ(c.machine.latency, 3'000'000);
  EXPECT_EQ(c.machine.bandwidth, 37e6);
}

TEST(Config, GivenRecordsSettingsInTableOrder) {
  const Config c = config_of({"MPISIM_TRACE=t.json", "OTHER=1", "MPISIM_RANKS=8",
                              "MPISIM_PROTOCOL=nmp", "MPISIM_RANKS=9"});
  using Given = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(c.given,
            (Given{{"MPISIM_RANKS", "8"}, {"MPISIM_PROTOCOL", "nmp"}, {"MPISIM_TRACE", "t.json"}}));
  EXPECT_EQ(c.ranks, 8); // the first of duplicates wins, as with getenv()
}

TEST(Config, TheDefaultStackIsANativeProcessesWhereAddressSpaceAllows) {
  // 8 MiB while a host process's stacks reserve at most kStackReservation (64 GiB: 8 192 ranks;
  // 512 MiB in the sanitized build: 64 ranks), then halved down to 256 KiB.
  const long native = static_cast<long>(mpisim::kStackReservation / (8u << 20));
  EXPECT_EQ(mpisim::default_stack_size(1), 8u << 20);
  EXPECT_EQ(mpisim::default_stack_size(native), 8u << 20);
  EXPECT_EQ(mpisim::default_stack_size(native + 1), 4u << 20);
  EXPECT_EQ(mpisim::default_stack_size(4 * native), 2u << 20);
  EXPECT_EQ(mpisim::default_stack_size(1'000'000'000), 256u << 10);
  EXPECT_EQ(config_of({"MPISIM_RANKS=64"}).stack_size, 8u << 20);
  EXPECT_FALSE(config_of({"MPISIM_RANKS=64"}).stack_given);
  // Per host process: twice as many ranks on two host processes keep the size of one.
  const std::string twice = "MPISIM_RANKS=" + std::to_string(2 * native);
  EXPECT_EQ(config_of({twice}).stack_size, 4u << 20);
  EXPECT_EQ(config_of({twice, "MPISIM_HOSTS=2"}).stack_size, 8u << 20);
  // An explicit size wins at any count.
  EXPECT_EQ(config_of({"MPISIM_RANKS=100000", "MPISIM_STACK=64KiB"}).stack_size, 64u << 10);
  EXPECT_TRUE(config_of({"MPISIM_RANKS=64", "MPISIM_STACK=8MiB"}).stack_given);
}

TEST(Config, StacksAreCopiedOutByDefaultFromSoManyRanksPerHostProcess) {
  const std::string below = "MPISIM_RANKS=" + std::to_string(mpisim::kStackCopyRanks - 1);
  const std::string at = "MPISIM_RANKS=" + std::to_string(mpisim::kStackCopyRanks);
  EXPECT_FALSE(config_of({below}).copy_stacks);
  EXPECT_FALSE(config_of({at, "MPISIM_HOSTS=2"}).copy_stacks); // per host process
  EXPECT_FALSE(config_of({at, "MPISIM_STACK_COPY=off"}).copy_stacks);
  EXPECT_EQ(config_of({at}).stack_copy, mpisim::StackCopy::Auto);
#if defined(MPISIM_ASAN)
  // The sanitized build never copies stacks: on is refused, auto stays off.
  EXPECT_FALSE(config_of({at}).copy_stacks);
  EXPECT_TRUE(contains(error_of({"MPISIM_STACK_COPY=on"}), "sanitized build cannot copy stacks"));
#else
  EXPECT_TRUE(config_of({at}).copy_stacks);
  EXPECT_TRUE(config_of({at}).shared_stacks); // auto copies into shared stacks
  EXPECT_TRUE(config_of({"MPISIM_RANKS=2", "MPISIM_STACK_COPY=on"}).copy_stacks);
  EXPECT_FALSE(config_of({"MPISIM_RANKS=2", "MPISIM_STACK_COPY=on"}).shared_stacks);
  EXPECT_TRUE(config_of({"MPISIM_RANKS=2", "MPISIM_STACK_COPY=shared"}).shared_stacks);
  EXPECT_EQ(mpisim::shared_stack_count(6), 1u);
  EXPECT_EQ(mpisim::shared_stack_count(200), 25u);
  EXPECT_EQ(mpisim::shared_stack_count(1'000'000), 1024u);
#endif
  EXPECT_TRUE(contains(error_of({"MPISIM_STACK_COPY=yes"}),
                       "MPISIM_STACK_COPY=yes is not valid; allowed: auto, on, shared, off"));
}

TEST(Config, RanksStateLivesInTheirStacksByDefaultFromSoManyRanksPerHostProcess) {
  const std::string below = "MPISIM_RANKS=" + std::to_string(mpisim::kRankStateInStackRanks - 1);
  const std::string at = "MPISIM_RANKS=" + std::to_string(mpisim::kRankStateInStackRanks);
  EXPECT_FALSE(config_of({below}).state_in_stack);
  EXPECT_TRUE(config_of({at}).state_in_stack);
  EXPECT_FALSE(config_of({at, "MPISIM_HOSTS=2"}).state_in_stack); // per host process
  EXPECT_FALSE(config_of({at, "MPISIM_RANK_STATE=heap"}).state_in_stack);
  EXPECT_TRUE(config_of({"MPISIM_RANKS=2", "MPISIM_RANK_STATE=stack"}).state_in_stack);
  EXPECT_TRUE(contains(error_of({"MPISIM_RANK_STATE=disk"}),
                       "MPISIM_RANK_STATE=disk is not valid; allowed: auto, stack, heap"));
#if !defined(MPISIM_ASAN)
  // Copied stacks park their pages: the state stays on the heap, and asking otherwise is refused.
  const std::string copied = "MPISIM_RANKS=" + std::to_string(mpisim::kStackCopyRanks);
  EXPECT_FALSE(config_of({copied}).state_in_stack);
  EXPECT_TRUE(contains(error_of({"MPISIM_STACK_COPY=on", "MPISIM_RANK_STATE=stack"}),
                       "MPISIM_RANK_STATE=stack cannot be used while stacks are copied out"));
#endif
}

TEST(Config, StackIsRoundedUpToPagesWithAMinimum) {
  EXPECT_EQ(config_of({"MPISIM_STACK=16KiB"}).stack_size, 16384u);
  EXPECT_EQ(config_of({"MPISIM_STACK=20000"}).stack_size, 20480u);
  EXPECT_EQ(config_of({"MPISIM_STACK=8MiB"}).stack_size, 8u << 20);
  EXPECT_TRUE(contains(error_of({"MPISIM_STACK=8KiB"}), "16 KiB"));
}

TEST(Config, UnknownVariableListsTheValidOnes) {
  const std::string message = error_of({"MPISIM_FOO=1"});
  EXPECT_TRUE(contains(message, "unknown variable MPISIM_FOO")) << message;
  for (const mpisim::VariableInfo& v : mpisim::variables())
    EXPECT_TRUE(contains(message, v.name)) << message;
  EXPECT_FALSE(contains(message, "did you mean")) << message;
}

TEST(Config, TheTestSuitesCorpusVariableIsLeftToItsTool) {
  // MPISIM_APPS (tests/apps) is inherited by every run the test suite starts.
  EXPECT_EQ(config_of({"MPISIM_APPS=/data/apps", "MPISIM_RANKS=3"}).ranks, 3);
  EXPECT_TRUE(contains(error_of({"MPISIM_APP=/data/apps"}), "unknown variable MPISIM_APP"));
}

TEST(Config, UnknownVariableSuggestsTheClosestName) {
  EXPECT_TRUE(contains(error_of({"MPISIM_RANK=4"}), "did you mean MPISIM_RANKS?"));
  EXPECT_TRUE(contains(error_of({"MPISIM_PROTOKOL=nmp"}), "did you mean MPISIM_PROTOCOL?"));
  EXPECT_TRUE(contains(error_of({"MPISIM_Stack=1MiB"}), "did you mean MPISIM_STACK?"));
}

TEST(Config, BadChoiceListsTheAllowedValues) {
  EXPECT_EQ(error_of({"MPISIM_PROTOCOL=foo"}),
            "MPISIM_PROTOCOL=foo is not valid; allowed: cep, nmp, nmp+cep, quantum");
  EXPECT_TRUE(contains(error_of({"MPISIM_DET=yes"}), "allowed: 0, 1"));
  EXPECT_TRUE(contains(error_of({"MPISIM_CPU=on"}), "allowed: measured, off"));
  EXPECT_TRUE(contains(error_of({"MPISIM_LOOKAHEAD=x"}), "allowed: static, dynamic"));
  EXPECT_TRUE(contains(error_of({"MPISIM_MAP=blok"}), "block, cyclic"));
}

TEST(Config, BadNumbers) {
  for (const char* bad : {"MPISIM_RANKS=0", "MPISIM_RANKS=-4", "MPISIM_RANKS=4x",
                          "MPISIM_RANKS=", "MPISIM_RANKS=99999999999", "MPISIM_HOSTS=0",
                          "MPISIM_CPU_SCALE=0", "MPISIM_CPU_SCALE=abc", "MPISIM_CPU_SCALE=inf"}) {
    const std::string message = error_of({bad});
    EXPECT_TRUE(contains(message, bad)) << message;
    EXPECT_TRUE(contains(message, "allowed")) << message;
  }
}

TEST(Config, BadUnitsNameTheVariable) {
  for (const char* bad : {"MPISIM_LATENCY=abc", "MPISIM_LATENCY=-1us", "MPISIM_LATENCY=5 parsecs",
                          "MPISIM_BANDWIDTH=fast", "MPISIM_EAGER_LIMIT=lots",
                          "MPISIM_SEND_OVERHEAD=1 fortnight", "MPISIM_QUANTUM=soon"})
    EXPECT_TRUE(contains(error_of({bad}), bad)) << error_of({bad});
}

TEST(Config, CalendarEpochIsAChoiceOrAUtcDate) {
  EXPECT_EQ(config_of({}).epoch, CalendarEpoch::Auto);
  EXPECT_EQ(config_of({"MPISIM_EPOCH=launch"}).epoch, CalendarEpoch::Launch);
  EXPECT_EQ(config_of({"MPISIM_EPOCH=fixed"}).epoch, CalendarEpoch::Fixed);
  const Config day = config_of({"MPISIM_EPOCH=2024-05-01"});
  EXPECT_EQ(day.epoch, CalendarEpoch::Date);
  EXPECT_EQ(day.epoch_date_s, 1'714'521'600); // date -u -d 2024-05-01 +%s
  EXPECT_EQ(config_of({"MPISIM_EPOCH=2024-05-01T12:34:56"}).epoch_date_s, 1'714'566'896);
  EXPECT_EQ(config_of({"MPISIM_EPOCH=2024-05-01T12:34:56Z"}).epoch_date_s, 1'714'566'896);
  EXPECT_EQ(config_of({"MPISIM_EPOCH=1970-01-01"}).epoch_date_s, 0);
}

TEST(Config, CalendarEpochRefusesWhatIsNoDate) {
  EXPECT_EQ(error_of({"MPISIM_EPOCH=2024-02-30"}),
            "MPISIM_EPOCH=2024-02-30 is not valid: no such date since 1970; allowed: auto, "
            "launch, fixed, or a UTC date, e.g. 2024-05-01 or 2024-05-01T12:00:00");
  for (const char* bad : {"MPISIM_EPOCH=now", "MPISIM_EPOCH=2024-05", "MPISIM_EPOCH=2024-05-01x",
                          "MPISIM_EPOCH=2024-05-01T25:00:00", "MPISIM_EPOCH=2024-05-01T12",
                          "MPISIM_EPOCH=1969-12-31", "MPISIM_EPOCH=2024-05-01 12:00:00"})
    EXPECT_TRUE(contains(error_of({bad}), std::string(bad) + " is not valid")) << error_of({bad});
}

TEST(Config, LookaheadMustBePositive) {
  EXPECT_TRUE(contains(error_of({"MPISIM_LATENCY=0"}), "greater than zero"));
  EXPECT_TRUE(contains(error_of({"MPISIM_POLL_OVERHEAD=0"}), "greater than zero"));
  EXPECT_TRUE(contains(error_of({"MPISIM_QUANTUM=0"}), "greater than zero"));
  EXPECT_TRUE(contains(error_of({"MPISIM_BANDWIDTH=0"}), "greater than zero"));
}

TEST(Config, QuantumMayNotExceedTheLatency) {
  EXPECT_EQ(config_of({"MPISIM_QUANTUM=1.5us"}).quantum, 1'500'000);
  EXPECT_TRUE(contains(error_of({"MPISIM_QUANTUM=2us"}), "MPISIM_QUANTUM=2us is larger"));
  EXPECT_EQ(config_of({"MPISIM_QUANTUM=2us", "MPISIM_LATENCY=2us"}).quantum, 2'000'000);
}

TEST(Config, MachineMustBeAPresetOrAFile) {
  const std::string message = error_of({"MPISIM_MACHINE=./my.machine"});
  EXPECT_TRUE(contains(message, "MPISIM_MACHINE=./my.machine is not valid: no preset or machine "
                                "file of that name"))
      << message;
  EXPECT_TRUE(contains(message, "cluster, sp2, ethernet-1996, ideal")) << message;
  EXPECT_TRUE(contains(error_of({"MPISIM_MACHINE=cray"}), "cluster, sp2"));
}

TEST(Config, Descriptions) {
  const std::string table = mpisim::describe_variables();
  for (const mpisim::VariableInfo& v : mpisim::variables()) {
    EXPECT_TRUE(contains(table, v.name));
    EXPECT_TRUE(contains(table, v.option));
  }
  EXPECT_EQ(mpisim::describe_machine(machine_preset("cluster")),
            "send overhead 200 ns, recv overhead 200 ns, latency 1.5 us, bandwidth 12 GB/s, "
            "eager limit 64 KiB, poll overhead 100 ns, cpu scale 1, 32 core(s) per rank, fork-join "
            "1 us; topology fully-connected, 1 "
            "rank(s) per node, intra-node 100 ns and 20 GB/s; switching cut-through, hop latency "
            "0 s; network nic");
  const std::string presets = mpisim::describe_machine_presets();
  for (const std::string& name : mpisim::machine_preset_names())
    EXPECT_TRUE(contains(presets, name + ":"));
}

TEST(Config, FindVariable) {
  ASSERT_NE(mpisim::find_variable("MPISIM_RANKS"), nullptr);
  EXPECT_STREQ(mpisim::find_variable("MPISIM_RANKS")->option, "-np");
  EXPECT_EQ(mpisim::find_variable("MPISIM_FOO"), nullptr);
}

TEST(ConfigDocs, ConfigurationMarkdownHoldsTheVariableTable) {
  std::ifstream in(MPISIM_SOURCE_DIR "/docs/configuration.md");
  ASSERT_TRUE(in) << "docs/configuration.md is missing";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(doc.find(mpisim::describe_variables_markdown()), std::string::npos)
      << "docs/configuration.md is out of date; regenerate its table from "
         "mpisim::describe_variables_markdown()";
}

TEST(AutoMapSetting, NeedsAMatrixAndSaysHowToRecordOne) {
  const std::string dir = test::scratch_dir("config", "auto_setting");
  const std::string none = error_of({"MPISIM_MAP=auto:" + dir + "/m.csv"});
  EXPECT_EQ(none, "MPISIM_MAP=auto:" + dir + "/m.csv: no such communication matrix " + dir +
                      "/m.csv; record one with a run of the same program with "
                      "MPISIM_COMM_MATRIX=" +
                      dir + "/m.csv (--comm-matrix), on any number of host processes");
  EXPECT_TRUE(contains(error_of({"MPISIM_MAP=auto:"}), "auto: needs the file"));
  const std::string plain = error_of({"MPISIM_MAP=auto"});
  EXPECT_TRUE(contains(plain, "MPISIM_MAP=auto maps from the communication matrix "
                              "MPISIM_COMM_MATRIX names, and it is not set: add "
                              "MPISIM_COMM_MATRIX=FILE"))
      << plain;
  EXPECT_EQ(error_of({"MPISIM_MAP=auto", "MPISIM_COMM_MATRIX=" + dir + "/m.csv"}), "");
  std::filesystem::remove_all(dir);
}

TEST(AutoMapSetting, PlainAutoRecordsThenMapsFromTheMatrix) {
  const std::string dir = test::scratch_dir("config", "auto_plain");
  const std::string path = dir + "/m.csv";
  auto c = config_of({"MPISIM_RANKS=16", "MPISIM_MAP=auto", "MPISIM_COMM_MATRIX=" + path});
  EXPECT_FALSE(mpisim::read_auto_map_graph(c));
  const mpisim::RankMap first(c, std::nullopt, 2);
  EXPECT_EQ(first.ranks_of(0), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(contains(first.description(), "block (MPISIM_MAP=auto: no communication matrix " +
                                                path + " yet; this run records it"))
      << first.description();
  mpisim::CommMatrix m;
  for (int r = 0; r < 16; ++r)
    m.add(r, (r + 2) % 16, 4);
  m.write_csv(path, 16);
  const auto graph = mpisim::read_auto_map_graph(c);
  ASSERT_TRUE(graph);
  const mpisim::RankMap second(c, graph, 2);
  const auto mine = second.ranks_of(0);
  ASSERT_EQ(mine.size(), 8u);
  for (int r : mine)
    EXPECT_EQ(r % 2, mine[0] % 2) << "rank " << r << " away from its ring";
  EXPECT_EQ(second.description(),
            "auto from " + path + ": 0 of its 16 messages between host processes (block: 4)");
  EXPECT_NE(second.fingerprint(), first.fingerprint());
  c.ranks = 8;
  try {
    mpisim::read_auto_map_graph(c);
    ADD_FAILURE() << "a matrix of 16 ranks was read for 8";
  } catch (const ConfigError& e) {
    EXPECT_TRUE(contains(e.what(), "was recorded on 16 ranks but this run has 8")) << e.what();
    EXPECT_TRUE(contains(e.what(), "; or delete " + path +
                                       ": the next run with MPISIM_MAP=auto records it again"))
        << e.what();
  }
  std::filesystem::remove_all(dir);
}
