#include "tools/sim_scenario/run_names.h"

#include <fmt/format.h>

#include <filesystem>
#include <vector>

namespace dissem::sim_scenario {
namespace {

std::string address_of(int id) { return fmt::format("10.77.{}.{}", id / 250, id % 250 + 1); }

}  // namespace

scenario::Names run_names(const scenario::ScenarioDocument& doc, const scenario::Names& cell, const std::string& system,
                          double time_limit_s) {
  scenario::Names names = cell;
  names["system"] = system;
  names["subnet"] = std::string("10.77.0.0/16");
  names["broadcast"] = std::string("10.77.255.255");
  names["netmask"] = std::string("255.255.0.0");
  names["prefix"] = std::string("sim");
  names["rundir"] = std::string("sim-run");
  names["repo"] = std::string(".");
  names["scenario_dir"] = std::filesystem::absolute(std::filesystem::path(doc.source)).parent_path().string();
  names["time_limit_s"] = time_limit_s;
  for (const auto& [role, ids] : doc.nodes.roles()) {
    std::vector<std::string> addresses;
    for (int id : ids) addresses.push_back(address_of(id));
    names[role + "_addresses"] = fmt::format("{}", fmt::join(addresses, ","));
    names[role + "_address"] = ids.empty() ? std::string() : address_of(ids.front());
  }
  return names;
}

scenario::Names node_names(const scenario::Names& run, const scenario::ScenarioNode& node) {
  scenario::Names names = run;
  names["node"] = node.name;
  names["node_id"] = static_cast<std::int64_t>(node.id);
  names["address"] = address_of(node.id);
  names["namespace"] = fmt::format("sim-n{}", node.id);
  names["interface"] = fmt::format("sim{}", node.id);
  names["mac"] = fmt::format("02:00:00:00:{:02x}:{:02x}", node.id / 256, node.id % 256);
  names["workdir"] = fmt::format("sim-run/{}", node.name);
  names["sockdir"] = fmt::format("sim-run/{}/sock", node.name);
  names["roles"] = fmt::format("{}", fmt::join(node.roles, ","));
  return names;
}

}  // namespace dissem::sim_scenario
