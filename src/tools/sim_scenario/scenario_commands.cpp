#include "tools/sim_scenario/scenario_commands.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "core/json.h"
#include "scenario/cell.h"
#include "scenario/eel_reader.h"
#include "scenario/expansion.h"
#include "scenario/expansion_json.h"
#include "scenario/scenario_document.h"

namespace dissem::sim_scenario {
namespace sc = dissem::scenario;

CLI::App* add_expand_command(CLI::App& app, ExpandOptions& o) {
  CLI::App* expand = app.add_subcommand(
      "expand", "print a scenario's nodes, links at t = 0 and timeline of link events as JSON (the runner asks this)");
  expand->add_option("scenario", o.scenario_path, "scenario file of the scenario language (.toml)")
      ->required()
      ->check(CLI::ExistingFile);
  expand->add_option("--cell", o.cell, "matrix value key=value (repeatable; a key with one value may be left out)");
  expand->add_option("--seed", o.seed, "the run's seed (random outages; the {seed} placeholder)")->capture_default_str();
  expand->add_option("--horizon-s", o.horizon_s, "draw random outages up to here (default: the scenario's time_limit_s)");
  return expand;
}

void run_expand_command(const ExpandOptions& o) {
  const auto doc = sc::load_document(o.scenario_path);
  const auto cell = sc::pick_cell(doc.matrix, o.cell, doc.source);
  const auto names = sc::cell_names(doc.name, doc.nodes, cell, o.seed);
  const double horizon = o.horizon_s ? *o.horizon_s : doc.time_limit_s->number(names);
  const auto x = sc::expand(doc.topology, names, doc.nodes.size(), o.seed, horizon);
  std::fputs((json_text(sc::expansion_json(doc, sc::cell_id(cell), o.seed, horizon, x), 1) + "\n").c_str(), stdout);
}

CLI::App* add_check_command(CLI::App& app, CheckOptions& o) {
  CLI::App* check = app.add_subcommand(
      "check", "read a scenario and expand every cell of its matrix: the first error, naming file and key (the runner asks this)");
  check->add_option("scenario", o.scenario_path, "scenario file of the scenario language (.toml)")
      ->required()
      ->check(CLI::ExistingFile);
  return check;
}

void run_check_command(const CheckOptions& o) {
  const auto doc = sc::load_document(o.scenario_path);
  const auto cells = sc::every_cell(doc.matrix);
  for (const auto& cell : cells) {
    const auto names = sc::cell_names(doc.name, doc.nodes, cell, 1);
    const double horizon = doc.time_limit_s->number(names);
    sc::expand(doc.topology, names, doc.nodes.size(), 1, horizon);
  }
  std::fputs(fmt::format("{}: {} nodes, {} cells, every one expands\n", o.scenario_path, doc.nodes.size(), cells.size())
                 .c_str(),
             stdout);
}

CLI::App* add_read_eel_command(CLI::App& app, ReadEelOptions& o) {
  CLI::App* read = app.add_subcommand(
      "read-eel", "print an EEL file's commeffect events as directed link events (JSON), as every engine reads them");
  read->add_option("eel", o.path, "EEL file, or - for standard input")->required();
  read->add_option("--convention", o.convention, "which nem of a line sends: sender-first (EMANE's) or receiver-first")
      ->check(CLI::IsMember({"sender-first", "receiver-first"}))
      ->capture_default_str();
  return read;
}

void run_read_eel_command(const ReadEelOptions& o) {
  std::string text;
  if (o.path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(o.path);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot open EEL file", o.path));
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  try {
    const auto events = sc::read_eel(text, o.convention);
    std::fputs((json_text(Json{{"events", sc::link_events_json(events)}}, 1) + "\n").c_str(), stdout);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(fmt::format("{}: {}", o.path, e.what()));
  }
}

}  // namespace dissem::sim_scenario
