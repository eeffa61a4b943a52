#include "scenario/scenario_document.h"

#include <fstream>
#include <iterator>
#include <regex>

#include "config/toml_parse.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {

ScenarioDocument parse_document(std::string_view text, const std::string& source, const std::filesystem::path& dir) {
  ScenarioDocument doc;
  doc.source = source;
  if (auto problem = config::parse_toml(text, source, doc.root)) throw ScenarioError(*problem);
  const TableReader top(doc.root, "", doc.source,
                        {"name", "description", "time_limit_s", "seeds", "cpu_heavy", "stop_grace_s", "ready_timeout_s",
                         "nodes", "matrix", "profiles", "topology", "emulator", "networks", "systems"},
                        TableReader::Style::Dotted);
  doc.name = top.required_string("name");
  static const std::regex kName(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]*$)");
  if (!std::regex_match(doc.name, kName))
    top.fail("name", "'" + doc.name + "' may only use letters, digits, '_', '.', '-' (it names a directory)");
  doc.nodes = NodeSet::read(top);
  std::set<std::string> reserved = reserved_names();
  reserved.merge(doc.nodes.role_fact_names());
  doc.matrix = read_matrix(top, reserved);
  doc.names = cell_name_set(doc.matrix, doc.nodes);
  doc.time_limit_s = required_param(top, "time_limit_s", doc.names, Param::Kind::Number, {0.1, std::nullopt});
  doc.networks = read_networks(top, doc.nodes, doc.names);
  doc.topology = read_topology(top, doc.nodes, doc.names, dir);
  doc.topology.networks = network_members(doc.networks);
  doc.emulator = read_emulator(top, doc.nodes, doc.names);
  std::vector<std::string> network_names;
  for (const auto& n : doc.networks) network_names.push_back(n.name);
  doc.systems = read_systems(top, doc.nodes, doc.names, network_names);
  return doc;
}

ScenarioDocument load_document(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path.string(), "", "cannot read");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_document(text, path.string(), path.parent_path());
}

}  // namespace dissem::scenario
