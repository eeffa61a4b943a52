// dissem-sim: runs the paper's experiments, or a scenario file, in virtual
// time and prints the results (a table, or JSON with --json). The same
// arguments always print the same output, including the trace hash.
//
//   dissem-sim baseline --receivers 3 --capacity-kbps 256 --reliability 70
//   dissem-sim tactical --sender-reliability 50 --message-size 1024 --asymmetric
//   dissem-sim run emulation/scenarios/sim/sim-example.toml
//   dissem-sim line --nodes 5 --forwarding flooding
//   dissem-sim grid --side 5 --reliability 80 --forwarding subscription-aware
//   dissem-sim partition --replication anti-entropy
//   dissem-sim late-join --history 10
//   dissem-sim geometric --nodes 1000 --degree 9 --forwarding subscription-aware --subscribers-pct 5
// The multi-hop experiments print the scenario they run with --print-scenario
// (TOML for `dissem-sim run`, or for the emulator). Every run also prints
// its cost on stderr (sim/run_meter.h): events, wall and CPU time, peak memory.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "sim/experiments.h"
#include "sim/report.h"
#include "sim/run_meter.h"
#include "sim/scenario_file.h"
#include "sim/topologies.h"

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dissem-sim: the dissemination protocol in virtual time over a simulated broadcast medium"};
  app.require_subcommand(1);
  bool json = false;

  dissem::sim::BaselineParams base;
  double base_latency_ms = 0;
  double base_limit_s = 0;
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
  baseline->add_option("--seed", base.seed, "simulation seed")->capture_default_str();
  baseline->add_flag("--shared-channel", base.shared_channel, "one transmission at a time on the whole medium");
  baseline->add_option("--latency-ms", base_latency_ms, "one-way latency of every link")->capture_default_str();
  baseline->add_option("--time-limit-s", base_limit_s, "stop here (0: 10 x lower bound + 60 s)")
      ->capture_default_str();
  baseline->add_flag("--json", json, "machine-readable output");
  baseline->add_option("--engine", base.engine_settings, "engine setting key=value for every node (repeatable)");

  dissem::sim::TacticalParams tac;
  double tac_window_s = static_cast<double>(dissem::sim::TacticalParams{}.window) / static_cast<double>(kSeconds);
  double tac_settle_s = static_cast<double>(dissem::sim::TacticalParams{}.settle) / static_cast<double>(kSeconds);
  CLI::App* tactical = app.add_subcommand("tactical", "UAV sender and 9 ground nodes, 3 subscribe (paper section 2)");
  tactical->add_option("--sender-reliability", tac.sender_reliability_pct, "UAV link reliability, percent")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  tactical->add_option("--message-size", tac.message_size, "bytes per message (paper: 1024, 7168, 15360, 35840)")
      ->capture_default_str();
  tactical->add_option("--messages", tac.messages, "messages to publish (0: the paper's count for the size)")
      ->capture_default_str();
  tactical->add_flag("--asymmetric", tac.asymmetric, "ground -> UAV links disabled");
  tactical->add_option("--window-s", tac_window_s, "the UAV publishes evenly over this window")
      ->capture_default_str();
  tactical->add_option("--settle-s", tac_settle_s, "time after the window for ground repairs")
      ->capture_default_str();
  tactical->add_option("--seed", tac.seed, "simulation seed")->capture_default_str();
  tactical->add_flag("--shared-channel", tac.shared_channel, "one transmission at a time on the whole medium");
  tactical->add_flag("--json", json, "machine-readable output");
  tactical->add_option("--engine", tac.engine_settings, "engine setting key=value for every node (repeatable)");

  std::string scenario_path;
  std::optional<std::uint64_t> scenario_seed;
  CLI::App* run = app.add_subcommand("run", "run a TOML scenario file");
  run->add_option("scenario", scenario_path, "scenario file (.toml)")->required()->check(CLI::ExistingFile);
  run->add_option("--seed", scenario_seed, "override the file's seed");
  run->add_flag("--json", json, "machine-readable output");

  CommonOptions line_opts;
  dissem::sim::LineParams line_params;
  line_opts.forwarding = "flooding";
  CLI::App* line = app.add_subcommand("line", "a line of nodes, each hearing only its neighbours; n1 publishes");
  line_opts.add_to(line, &json);
  line->add_option("--nodes", line_params.nodes, "nodes in the line")->capture_default_str();
  line->add_flag("--all-subscribe", line_params.all_subscribe, "every node subscribes (default: only the far end)");

  CommonOptions grid_opts;
  dissem::sim::GridParams grid_params;
  grid_opts.forwarding = "flooding";
  grid_opts.common.reliability_pct = 80;
  std::string grid_subscribers = "row";
  CLI::App* grid = app.add_subcommand("grid", "a square grid, 4 neighbours each; the corner r0c0 publishes");
  grid_opts.add_to(grid, &json);
  grid->add_option("--side", grid_params.side, "nodes per side")->capture_default_str();
  grid->add_option("--subscribers", grid_subscribers, "row: the publisher's row; far-corner; all")
      ->check(CLI::IsMember({"row", "far-corner", "all"}))
      ->capture_default_str();

  CommonOptions part_opts;
  dissem::sim::PartitionParams part_params;
  part_opts.replication = "anti-entropy";
  part_opts.common.reliability_pct = 90;
  double heal_s = 30;
  CLI::App* partition =
      app.add_subcommand("partition", "two clusters apart until their bridge link heals; all subscribe");
  part_opts.add_to(partition, &json);
  partition->add_option("--cluster", part_params.cluster, "nodes per cluster")->capture_default_str();
  partition->add_option("--heal-s", heal_s, "when the bridge link comes up")->capture_default_str();
  partition->add_option("--bridge-reliability", part_params.bridge_reliability_pct, "bridge link reliability, percent")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  partition->add_option("--history", part_params.history,
                        "subscribers' history (default: the whole stream; 0: nothing before the first message heard)");

  CommonOptions late_opts;
  dissem::sim::LateJoinParams late_params;
  late_opts.common.messages = 30;
  double join_s = 30;
  CLI::App* late = app.add_subcommand("late-join", "a node joins a group late and asks for history");
  late_opts.add_to(late, &json);
  late->add_option("--nodes", late_params.nodes, "nodes already there")->capture_default_str();
  late->add_option("--join-s", join_s, "when the late node comes into range and subscribes")->capture_default_str();
  late->add_option("--history", late_params.history, "prior messages it asks for")->capture_default_str();

  CommonOptions geo_opts;
  dissem::sim::GeometricParams geo_params;
  geo_opts.forwarding = "flooding";
  double geo_start_s = 5;
  CLI::App* geometric = app.add_subcommand(
      "geometric", "a connected random geometric graph (radios spread over a square field); the corner node publishes");
  geo_opts.add_to(geometric, &json);
  geometric->add_option("--nodes", geo_params.nodes, "nodes in the field")->check(CLI::Range(2, 10'000'000))
      ->capture_default_str();
  geometric->add_option("--degree", geo_params.degree, "target mean number of neighbours")->capture_default_str();
  geometric->add_option("--subscribers-pct", geo_params.subscribers_pct, "share of the other nodes that subscribe")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  geometric->add_option("--start-s", geo_start_s, "first publication (beacons spread interest before it)")
      ->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  const dissem::sim::RunMeter meter;
  const auto report_cost = [&meter](std::uint64_t events) {
    std::fputs(dissem::sim::format_run_cost(meter.stop(events)).c_str(), stderr);
  };

  // Runs (or prints) a generated scenario.
  const auto run_generated = [&json, &report_cost](const dissem::sim::Scenario& scenario, bool print_only) {
    if (print_only) {
      print(dissem::sim::scenario_toml(scenario));
      return;
    }
    const auto result = dissem::sim::run_scenario(scenario);
    print(json ? dissem::sim::scenario_json(result) : dissem::sim::format_scenario(result));
    report_cost(result.run.sim.events_run);
  };

  try {
    if (baseline->parsed()) {
      base.latency = static_cast<Micros>(base_latency_ms * static_cast<double>(kMillis));
      base.time_limit = seconds_to_micros(base_limit_s);
      const auto result = dissem::sim::run_baseline(base);
      print(json ? dissem::sim::baseline_json(result) : dissem::sim::format_baseline(result));
      report_cost(result.run.sim.events_run);
    } else if (tactical->parsed()) {
      tac.window = seconds_to_micros(tac_window_s);
      tac.settle = seconds_to_micros(tac_settle_s);
      const auto result = dissem::sim::run_tactical(tac);
      print(json ? dissem::sim::tactical_json(result) : dissem::sim::format_tactical(result));
      report_cost(result.run.sim.events_run);
    } else if (run->parsed()) {
      auto scenario = dissem::sim::load_scenario_file(scenario_path);
      if (scenario_seed) scenario.seed = *scenario_seed;
      run_generated(scenario, false);
    } else if (line->parsed()) {
      line_params.common = line_opts.apply();
      run_generated(dissem::sim::make_line(line_params), line_opts.print_scenario);
    } else if (grid->parsed()) {
      grid_params.common = grid_opts.apply();
      grid_params.subscribers = grid_subscribers == "row"          ? dissem::sim::GridSubscribers::Row
                                : grid_subscribers == "far-corner" ? dissem::sim::GridSubscribers::FarCorner
                                                                   : dissem::sim::GridSubscribers::All;
      run_generated(dissem::sim::make_grid(grid_params), grid_opts.print_scenario);
    } else if (partition->parsed()) {
      part_params.common = part_opts.apply();
      part_params.heal_at = seconds_to_micros(heal_s);
      run_generated(dissem::sim::make_partition(part_params), part_opts.print_scenario);
    } else if (late->parsed()) {
      late_params.common = late_opts.apply();
      late_params.join_at = seconds_to_micros(join_s);
      run_generated(dissem::sim::make_late_join(late_params), late_opts.print_scenario);
    } else if (geometric->parsed()) {
      geo_params.common = geo_opts.apply();
      geo_params.start = seconds_to_micros(geo_start_s);
      run_generated(dissem::sim::make_geometric(geo_params), geo_opts.print_scenario);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-sim: %s\n", e.what());
    return 1;
  }
  return 0;
}
