// dissem-sim's subcommands that read the scenario language without running
// it, for the runner and the tests: `expand` (a cell's nodes, links at
// t = 0 and timeline, as JSON), `check` (every cell expands) and `read-eel` (an EEL file as the one
// reader reads it, scenario/eel_reader.h).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dissem::sim_scenario {

struct ExpandOptions {
  std::string scenario_path;
  std::vector<std::string> cell;
  std::uint64_t seed = 1;
  std::optional<double> horizon_s;
};

CLI::App* add_expand_command(CLI::App& app, ExpandOptions& o);
void run_expand_command(const ExpandOptions& o);

// `check`: the scenario read and every cell of its matrix expanded (seed 1,
// outages drawn to the cell's time limit): what the runner checks before a
// campaign starts, so none dies an hour in on a typo.
struct CheckOptions {
  std::string scenario_path;
};

CLI::App* add_check_command(CLI::App& app, CheckOptions& o);
void run_check_command(const CheckOptions& o);

struct ReadEelOptions {
  std::string path;  // "-": standard input
  std::string convention = "sender-first";
};

CLI::App* add_read_eel_command(CLI::App& app, ReadEelOptions& o);
void run_read_eel_command(const ReadEelOptions& o);

}  // namespace dissem::sim_scenario
