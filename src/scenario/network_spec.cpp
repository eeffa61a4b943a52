#include "scenario/network_spec.h"

#include <regex>

#include <fmt/format.h>

#include "core/plain_name.h"
#include "scenario/scenario_error.h"

namespace dissem::scenario {

std::vector<NetworkSpec> read_networks(const TableReader& top, const NodeSet& nodes,
                                       const std::set<std::string>& names) {
  const toml::table* table = top.table("networks");
  if (table == nullptr) return {};
  std::vector<NetworkSpec> out;
  std::set<std::string> interfaces;
  std::set<int> covered;
  // toml++ keeps a table's keys sorted: the networks come in name order.
  for (auto&& [k, v] : *table) {
    const std::string name(k.str());
    const std::string where = "networks." + name;
    if (!v.is_table()) fail(top.source(), where, "expected a table ([networks." + name + "])");
    static const std::regex kIdentifier("^[A-Za-z_][A-Za-z0-9_]*$");
    if (!std::regex_match(name, kIdentifier))
      fail(top.source(), where, "network names must be identifiers (letters, digits, '_'): they name placeholders");
    const TableReader t(*v.as_table(), where, top.source(), {"nodes", "interface", "emulator"},
                        TableReader::Style::Dotted);
    NetworkSpec n;
    n.name = name;
    const auto selectors = t.string_or_list("nodes");
    if (!selectors) t.fail("nodes", "is required: the nodes on this network (names, ids, \"*\", \"role:R\")");
    const std::set<int> ids = nodes.select(*selectors, top.source(), t.path("nodes"));
    if (ids.empty()) t.fail("nodes", "selects no node");
    n.nodes.assign(ids.begin(), ids.end());
    covered.insert(ids.begin(), ids.end());
    n.interface = t.string("interface").value_or(fmt::format("emu{}", out.size()));
    if (!is_plain_interface_name(n.interface))
      t.fail("interface", fmt::format("'{}' is not an interface name (1..15 of [A-Za-z0-9_.-])", n.interface));
    if (!interfaces.insert(n.interface).second)
      t.fail("interface", fmt::format("'{}' is another network's interface too", n.interface));
    n.emulator = read_emulator_table(t.table("emulator"), t.path("emulator"), top.source(), nodes, names);
    out.push_back(std::move(n));
  }
  if (out.empty()) fail(top.source(), "networks", "defines no network");
  for (const auto& node : nodes.nodes())
    if (!covered.contains(node.id))
      fail(top.source(), "networks", fmt::format("node {} is on no network", node.name));
  return out;
}

std::vector<std::set<int>> network_members(const std::vector<NetworkSpec>& networks) {
  std::vector<std::set<int>> out;
  for (const auto& n : networks) out.emplace_back(n.nodes.begin(), n.nodes.end());
  return out;
}

}  // namespace dissem::scenario
