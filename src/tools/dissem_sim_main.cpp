// dissem-sim: runs the paper's experiments, or a scenario file, in virtual
// time and prints the results (a table, or JSON with --json). The same
// arguments always print the same output, including the trace hash.
//
//   dissem-sim baseline --receivers 3 --capacity-kbps 256 --reliability 70
//   dissem-sim tactical --sender-reliability 50 --message-size 1024 --asymmetric
//   dissem-sim run emulation/scenarios/sim/sim-example.toml
//   dissem-sim run emulation/scenarios/line-5.toml --system flooding --cell reliability=0.9
//   dissem-sim line --nodes 5 --forwarding flooding
//   dissem-sim grid --side 5 --reliability 80 --forwarding subscription-aware
//   dissem-sim partition --replication anti-entropy
//   dissem-sim late-join --history 10
//   dissem-sim geometric --nodes 1000 --degree 9 --forwarding subscription-aware --subscribers-pct 5
//   dissem-sim expand emulation/scenarios/rgg-50.toml --cell reliability=0.8 --seed 1
//   dissem-sim check emulation/scenarios/rgg-50.toml
//   dissem-sim read-eel links.eel --convention sender-first
// Every experiment prints the scenario it runs with --print-scenario (TOML
// for `dissem-sim run`, or for the emulator). Every run also prints
// its cost on stderr (sim/run_meter.h): events, wall and CPU time, peak memory.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "core/version.h"
#include "sim/experiments.h"
#include "sim/paper_scenarios.h"
#include "sim/result_format.h"
#include "sim/run_meter.h"
#include "sim/scenario_file.h"
#include "sim/scenario_runner.h"
#include "sim/topologies.h"
#include "tools/sim_scenario/language_scenario.h"
#include "tools/sim_scenario/scenario_commands.h"

namespace {

using dissem::Micros;
using dissem::kMillis;
using dissem::kSeconds;

Micros seconds_to_micros(double s) { return static_cast<Micros>(s * static_cast<double>(kSeconds)); }

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

// Options every multi-hop experiment takes; seconds and percentages as the
// user types them, converted by apply().
struct CommonOptions {
  dissem::sim::TopologyCommon common;
  double interval_s = 0.5;
  double duration_s = 300;
  double latency_ms = 2;
  double jitter_ms = 1;
  std::string forwarding = "none";
  std::string replication = "none";
  std::vector<std::string> controller_settings;  // key=value, as in dissemd's [controllers]
  bool print_scenario = false;

  void add_to(CLI::App* app, bool* json) {
    app->add_option("--seed", common.seed, "simulation seed")->capture_default_str();
    app->add_option("--capacity-kbps", common.capacity_kbps, "every node's capacity (1 kbit = 1024 bit)")
        ->capture_default_str();
    app->add_option("--reliability", common.reliability_pct, "every link's reliability, percent")
        ->check(CLI::Range(0.001, 100.0))
        ->capture_default_str();
    app->add_option("--latency-ms", latency_ms, "one-way latency of every link")->capture_default_str();
    app->add_option("--jitter-ms", jitter_ms, "extra delay, uniform in [0, this]")->capture_default_str();
    app->add_option("--message-size", common.message_size, "bytes per message")->capture_default_str();
    app->add_option("--messages", common.messages, "messages per publisher")->capture_default_str();
    app->add_option("--interval-s", interval_s, "between a publisher's messages")->capture_default_str();
    app->add_option("--duration-s", duration_s, "stop here at the latest")->capture_default_str();
    app->add_option("--forwarding", forwarding, "forwarding controller of every node")
        ->check(CLI::IsMember(dissem::controllers::forwarding_names()))
        ->capture_default_str();
    app->add_option("--replication", replication, "replication controller of every node")
        ->check(CLI::IsMember(dissem::controllers::replication_names()))
        ->capture_default_str();
    app->add_option("--controller", controller_settings,
                    "controller setting key=value for every node, e.g. forwarding.hop_limit=4 (repeatable)");
    app->add_flag("--print-scenario", print_scenario, "print the scenario as TOML instead of running it");
    app->add_flag("--json", *json, "machine-readable output");
  }

  // Throws for a bad --controller setting (the message names the key).
  dissem::sim::TopologyCommon apply() {
    auto c = common;
    c.interval = seconds_to_micros(interval_s);
    c.duration = seconds_to_micros(duration_s);
    c.latency = static_cast<Micros>(latency_ms * static_cast<double>(kMillis));
    c.jitter = static_cast<Micros>(jitter_ms * static_cast<double>(kMillis));
    dissem::controllers::set_setting(c.controllers, "forwarding.name", forwarding);
    dissem::controllers::set_setting(c.controllers, "replication.name", replication);
    for (const auto& kv : controller_settings) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--controller '" + kv + "' is not key=value");
      dissem::controllers::set_setting(c.controllers, kv.substr(0, eq), kv.substr(eq + 1));
    }
    dissem::controllers::check_settings(c.controllers);
    return c;
  }
};


// The run's cost on stderr (sim/run_meter.h), so stdout stays the same for the same arguments.
void report_cost(const dissem::sim::RunMeter& meter, std::uint64_t events) {
  std::fputs(dissem::sim::format_run_cost(meter.stop(events)).c_str(), stderr);
}

// Runs (or prints) a scenario, as every subcommand but baseline and tactical reports it.
void run_generated(const dissem::sim::Scenario& scenario, bool print_only, bool json,
                   const dissem::sim::RunMeter& meter) {
  if (print_only) {
    print(dissem::sim::scenario_toml(scenario));
    return;
  }
  const auto result = dissem::sim::run_scenario(scenario);
  print(json ? dissem::sim::scenario_json(result) : dissem::sim::format_scenario(result));
  report_cost(meter, result.run.sim.events_run);
}

// Options both of the paper's experiments take.
void add_paper_options(CLI::App* sub, std::uint64_t& seed, bool& shared_channel, std::vector<std::string>& engine,
                       bool& print_scenario, bool& json) {
  sub->add_option("--seed", seed, "simulation seed")->capture_default_str();
  sub->add_flag("--shared-channel", shared_channel, "one transmission at a time on the whole medium");
  sub->add_option("--engine", engine, "engine setting key=value for every node (repeatable)");
  sub->add_flag("--print-scenario", print_scenario, "print the scenario as TOML instead of running it");
  sub->add_flag("--json", json, "machine-readable output");
}

// --- baseline -------------------------------------------------------------------------

struct BaselineOptions {
  dissem::sim::BaselineParams params;
  double latency_ms = 0;
  double limit_s = 0;
  bool print_scenario = false;
};

CLI::App* add_baseline_command(CLI::App& app, BaselineOptions& o, bool& json) {
  auto& base = o.params;
  CLI::App* baseline = app.add_subcommand("baseline", "1 sender, N receivers, fully connected (paper section 1)");
  baseline->add_option("--receivers", base.receivers, "number of receivers")->capture_default_str();
  baseline->add_option("--capacity-kbps", base.capacity_kbps, "every link's capacity (1 kbit = 1024 bit)")
      ->capture_default_str();
  baseline->add_option("--reliability", base.reliability_pct, "every link's reliability, percent")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  baseline->add_option("--bytes", base.bytes, "bytes published")->capture_default_str();
  baseline->add_option("--message-size", base.message_size, "split into messages of this size (0: one message)")
      ->capture_default_str();
  baseline->add_option("--latency-ms", o.latency_ms, "one-way latency of every link")->capture_default_str();
  baseline->add_option("--time-limit-s", o.limit_s, "stop here (0: 10 x lower bound + 60 s)")
      ->capture_default_str();
  add_paper_options(baseline, base.seed, base.shared_channel, base.engine_settings, o.print_scenario, json);
  return baseline;
}

void run_baseline_command(BaselineOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.latency = static_cast<Micros>(o.latency_ms * static_cast<double>(kMillis));
  o.params.time_limit = seconds_to_micros(o.limit_s);
  if (o.print_scenario) {
    print(dissem::sim::scenario_toml(dissem::sim::make_baseline(o.params)));
    return;
  }
  const auto result = dissem::sim::run_baseline(o.params);
  print(json ? dissem::sim::baseline_json(result) : dissem::sim::format_baseline(result));
  report_cost(meter, result.run.sim.events_run);
}

// --- tactical -------------------------------------------------------------------------

struct TacticalOptions {
  dissem::sim::TacticalParams params;
  double window_s = static_cast<double>(dissem::sim::TacticalParams{}.window) / static_cast<double>(kSeconds);
  double settle_s = static_cast<double>(dissem::sim::TacticalParams{}.settle) / static_cast<double>(kSeconds);
  bool print_scenario = false;
};

CLI::App* add_tactical_command(CLI::App& app, TacticalOptions& o, bool& json) {
  auto& tac = o.params;
  CLI::App* tactical = app.add_subcommand("tactical", "UAV sender and 9 ground nodes, 3 subscribe (paper section 2)");
  tactical->add_option("--sender-reliability", tac.sender_reliability_pct, "UAV link reliability, percent")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  tactical->add_option("--message-size", tac.message_size, "bytes per message (paper: 1024, 7168, 15360, 35840)")
      ->capture_default_str();
  tactical->add_option("--messages", tac.messages, "messages to publish (0: the paper's count for the size)")
      ->capture_default_str();
  tactical->add_flag("--asymmetric", tac.asymmetric, "ground -> UAV links disabled");
  tactical->add_option("--window-s", o.window_s, "the UAV publishes evenly over this window")
      ->capture_default_str();
  tactical->add_option("--settle-s", o.settle_s, "time after the window for ground repairs")
      ->capture_default_str();
  add_paper_options(tactical, tac.seed, tac.shared_channel, tac.engine_settings, o.print_scenario, json);
  return tactical;
}

void run_tactical_command(TacticalOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.window = seconds_to_micros(o.window_s);
  o.params.settle = seconds_to_micros(o.settle_s);
  if (o.print_scenario) {
    print(dissem::sim::scenario_toml(dissem::sim::make_tactical(o.params)));
    return;
  }
  const auto result = dissem::sim::run_tactical(o.params);
  print(json ? dissem::sim::tactical_json(result) : dissem::sim::format_tactical(result));
  report_cost(meter, result.run.sim.events_run);
}

// --- run ------------------------------------------------------------------------------

struct RunOptions {
  std::string scenario_path;
  std::optional<std::uint64_t> scenario_seed;
  std::string system;
  std::vector<std::string> cell;
  bool print_scenario = false;
};

CLI::App* add_run_command(CLI::App& app, RunOptions& o, bool& json) {
  CLI::App* run = app.add_subcommand(
      "run", "run a scenario file: the scenario language (emulation/README.md: one system, one cell) or the "
             "simulator's own format (sim/scenario_file.h)");
  run->add_option("scenario", o.scenario_path, "scenario file (.toml)")->required()->check(CLI::ExistingFile);
  run->add_option("--seed", o.scenario_seed, "the run's seed (default: the file's, or 1)");
  run->add_option("--system", o.system, "scenario language: the system to run (may be left out when there is one)");
  run->add_option("--cell", o.cell, "scenario language: matrix value key=value (repeatable; a key with one value may be left out)");
  run->add_flag("--print-scenario", o.print_scenario,
                "print what the simulator runs (the simulator's own format) instead of running it");
  run->add_flag("--json", json, "machine-readable output");
  return run;
}

void run_run_command(const RunOptions& o, bool json, const dissem::sim::RunMeter& meter) {
  namespace ss = dissem::sim_scenario;
  dissem::sim::Scenario scenario;
  if (ss::is_language_file(o.scenario_path)) {
    scenario = ss::language_scenario(o.scenario_path, {o.system, o.cell, o.scenario_seed.value_or(1)});
  } else {
    if (!o.system.empty() || !o.cell.empty())
      throw std::invalid_argument("--system and --cell go with a scenario of the scenario language ([systems])");
    scenario = dissem::sim::load_scenario_file(o.scenario_path);
    if (o.scenario_seed) scenario.seed = *o.scenario_seed;
  }
  run_generated(scenario, o.print_scenario, json, meter);
}

// --- line and grid --------------------------------------------------------------------

struct LineOptions {
  CommonOptions topology;
  dissem::sim::LineParams params;
};

CLI::App* add_line_command(CLI::App& app, LineOptions& o, bool& json) {
  o.topology.forwarding = "flooding";
  CLI::App* line = app.add_subcommand("line", "a line of nodes, each hearing only its neighbours; n1 publishes");
  o.topology.add_to(line, &json);
  line->add_option("--nodes", o.params.nodes, "nodes in the line")->capture_default_str();
  line->add_flag("--all-subscribe", o.params.all_subscribe, "every node subscribes (default: only the far end)");
  return line;
}

void run_line_command(LineOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.common = o.topology.apply();
  run_generated(dissem::sim::make_line(o.params), o.topology.print_scenario, json, meter);
}

struct GridOptions {
  CommonOptions topology;
  dissem::sim::GridParams params;
  std::string subscribers = "row";
};

CLI::App* add_grid_command(CLI::App& app, GridOptions& o, bool& json) {
  o.topology.forwarding = "flooding";
  o.topology.common.reliability_pct = 80;
  CLI::App* grid = app.add_subcommand("grid", "a square grid, 4 neighbours each; the corner r0c0 publishes");
  o.topology.add_to(grid, &json);
  grid->add_option("--side", o.params.side, "nodes per side")->capture_default_str();
  grid->add_option("--subscribers", o.subscribers, "row: the publisher's row; far-corner; all")
      ->check(CLI::IsMember({"row", "far-corner", "all"}))
      ->capture_default_str();
  return grid;
}

void run_grid_command(GridOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.common = o.topology.apply();
  o.params.subscribers = o.subscribers == "row"          ? dissem::sim::GridSubscribers::Row
                         : o.subscribers == "far-corner" ? dissem::sim::GridSubscribers::FarCorner
                                                         : dissem::sim::GridSubscribers::All;
  run_generated(dissem::sim::make_grid(o.params), o.topology.print_scenario, json, meter);
}

// --- partition and late join ----------------------------------------------------------

struct PartitionOptions {
  CommonOptions topology;
  dissem::sim::PartitionParams params;
  double heal_s = 30;
};

CLI::App* add_partition_command(CLI::App& app, PartitionOptions& o, bool& json) {
  o.topology.replication = "anti-entropy";
  o.topology.common.reliability_pct = 90;
  CLI::App* partition =
      app.add_subcommand("partition", "two clusters apart until their bridge link heals; all subscribe");
  o.topology.add_to(partition, &json);
  partition->add_option("--cluster", o.params.cluster, "nodes per cluster")->capture_default_str();
  partition->add_option("--heal-s", o.heal_s, "when the bridge link comes up")->capture_default_str();
  partition->add_option("--bridge-reliability", o.params.bridge_reliability_pct, "bridge link reliability, percent")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  partition->add_option("--history", o.params.history,
                        "subscribers' history (default: the whole stream; 0: nothing before the first message heard)");
  return partition;
}

void run_partition_command(PartitionOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.common = o.topology.apply();
  o.params.heal_at = seconds_to_micros(o.heal_s);
  run_generated(dissem::sim::make_partition(o.params), o.topology.print_scenario, json, meter);
}

struct LateJoinOptions {
  CommonOptions topology;
  dissem::sim::LateJoinParams params;
  double join_s = 30;
};

CLI::App* add_late_join_command(CLI::App& app, LateJoinOptions& o, bool& json) {
  o.topology.common.messages = 30;
  CLI::App* late = app.add_subcommand("late-join", "a node joins a group late and asks for history");
  o.topology.add_to(late, &json);
  late->add_option("--nodes", o.params.nodes, "nodes already there")->capture_default_str();
  late->add_option("--join-s", o.join_s, "when the late node comes into range and subscribes")->capture_default_str();
  late->add_option("--history", o.params.history, "prior messages it asks for")->capture_default_str();
  return late;
}

void run_late_join_command(LateJoinOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.common = o.topology.apply();
  o.params.join_at = seconds_to_micros(o.join_s);
  run_generated(dissem::sim::make_late_join(o.params), o.topology.print_scenario, json, meter);
}

// --- geometric ------------------------------------------------------------------------

struct GeometricOptions {
  CommonOptions topology;
  dissem::sim::GeometricParams params;
  double start_s = 5;
};

CLI::App* add_geometric_command(CLI::App& app, GeometricOptions& o, bool& json) {
  o.topology.forwarding = "flooding";
  CLI::App* geometric = app.add_subcommand(
      "geometric", "a connected random geometric graph (radios spread over a square field); the corner node publishes");
  o.topology.add_to(geometric, &json);
  geometric->add_option("--nodes", o.params.nodes, "nodes in the field")->check(CLI::Range(2, 10'000'000))
      ->capture_default_str();
  geometric->add_option("--degree", o.params.degree, "target mean number of neighbours")->capture_default_str();
  geometric->add_option("--subscribers-pct", o.params.subscribers_pct, "share of the other nodes that subscribe")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  geometric->add_option("--start-s", o.start_s, "first publication (beacons spread interest before it)")
      ->capture_default_str();
  return geometric;
}

void run_geometric_command(GeometricOptions o, bool json, const dissem::sim::RunMeter& meter) {
  o.params.common = o.topology.apply();
  o.params.start = seconds_to_micros(o.start_s);
  run_generated(dissem::sim::make_geometric(o.params), o.topology.print_scenario, json, meter);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dissem-sim: the dissemination protocol in virtual time over a simulated broadcast medium"};
  app.require_subcommand(1);
  app.set_version_flag("--version", dissem::version_line("dissem-sim"), "print the version and exit");
  bool json = false;
  BaselineOptions baseline_options;
  CLI::App* baseline = add_baseline_command(app, baseline_options, json);
  TacticalOptions tactical_options;
  CLI::App* tactical = add_tactical_command(app, tactical_options, json);
  RunOptions run_options;
  CLI::App* run = add_run_command(app, run_options, json);
  LineOptions line_options;
  CLI::App* line = add_line_command(app, line_options, json);
  GridOptions grid_options;
  CLI::App* grid = add_grid_command(app, grid_options, json);
  PartitionOptions partition_options;
  CLI::App* partition = add_partition_command(app, partition_options, json);
  LateJoinOptions late_options;
  CLI::App* late = add_late_join_command(app, late_options, json);
  GeometricOptions geometric_options;
  CLI::App* geometric = add_geometric_command(app, geometric_options, json);
  using dissem::sim_scenario::ExpandOptions;
  using dissem::sim_scenario::ReadEelOptions;
  ExpandOptions expand_options;
  CLI::App* expand = dissem::sim_scenario::add_expand_command(app, expand_options);
  dissem::sim_scenario::CheckOptions check_options;
  CLI::App* check = dissem::sim_scenario::add_check_command(app, check_options);
  ReadEelOptions read_eel_options;
  CLI::App* read_eel = dissem::sim_scenario::add_read_eel_command(app, read_eel_options);

  CLI11_PARSE(app, argc, argv);
  const dissem::sim::RunMeter meter;
  try {
    if (*baseline) run_baseline_command(baseline_options, json, meter);
    if (*tactical) run_tactical_command(tactical_options, json, meter);
    if (*run) run_run_command(run_options, json, meter);
    if (*line) run_line_command(line_options, json, meter);
    if (*grid) run_grid_command(grid_options, json, meter);
    if (*partition) run_partition_command(partition_options, json, meter);
    if (*late) run_late_join_command(late_options, json, meter);
    if (*geometric) run_geometric_command(geometric_options, json, meter);
    if (*expand) dissem::sim_scenario::run_expand_command(expand_options);
    if (*check) dissem::sim_scenario::run_check_command(check_options);
    if (*read_eel) dissem::sim_scenario::run_read_eel_command(read_eel_options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-sim: %s\n", e.what());
    return 1;
  }
  return 0;
}
