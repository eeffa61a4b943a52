// dissem-sim: runs the paper's experiments, or a scenario file, in virtual
// time and prints the results (a table, or JSON with --json). The same
// arguments always print the same output, including the trace hash.
//
//   dissem-sim baseline --receivers 3 --capacity-kbps 256 --reliability 70
//   dissem-sim tactical --sender-reliability 50 --message-size 1024 --asymmetric
//   dissem-sim run emulation/scenarios/sim-example.toml
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "sim/experiments.h"
#include "sim/report.h"
#include "sim/scenario_file.h"

namespace {

using dissem::Micros;
using dissem::kMillis;
using dissem::kSeconds;

Micros seconds_to_micros(double s) { return static_cast<Micros>(s * static_cast<double>(kSeconds)); }

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

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

  CLI11_PARSE(app, argc, argv);

  try {
    if (baseline->parsed()) {
      base.latency = static_cast<Micros>(base_latency_ms * static_cast<double>(kMillis));
      base.time_limit = seconds_to_micros(base_limit_s);
      const auto result = dissem::sim::run_baseline(base);
      print(json ? dissem::sim::baseline_json(result) : dissem::sim::format_baseline(result));
    } else if (tactical->parsed()) {
      tac.window = seconds_to_micros(tac_window_s);
      tac.settle = seconds_to_micros(tac_settle_s);
      const auto result = dissem::sim::run_tactical(tac);
      print(json ? dissem::sim::tactical_json(result) : dissem::sim::format_tactical(result));
    } else if (run->parsed()) {
      auto scenario = dissem::sim::load_scenario_file(scenario_path);
      if (scenario_seed) scenario.seed = *scenario_seed;
      const auto result = dissem::sim::run_scenario(scenario);
      print(json ? dissem::sim::scenario_json(result) : dissem::sim::format_scenario(result));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dissem-sim: %s\n", e.what());
    return 1;
  }
  return 0;
}
