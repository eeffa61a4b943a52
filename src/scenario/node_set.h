// A scenario's nodes ([nodes]: names or count, roles) and the selectors that
// name them: "*", a node name, an id (1-based, the emulator's node and
// EMANE's NEM id), or "role:<name>". The role "all" holds every node.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/table_reader.h"
#include "scenario/value.h"

namespace dissem::scenario {

struct ScenarioNode {
  int id = 0;  // 1-based
  std::string name;
  std::vector<std::string> roles;  // "all" first, then the others by name
};

class NodeSet {
 public:
  // Reads [nodes]; `r` is the top level.
  static NodeSet read(const TableReader& top);

  std::size_t size() const { return nodes_.size(); }
  const std::vector<ScenarioNode>& nodes() const { return nodes_; }
  const ScenarioNode& node(int id) const { return nodes_.at(static_cast<std::size_t>(id - 1)); }
  const std::map<std::string, std::vector<int>>& roles() const { return roles_; }

  // The ids one selector names; `key` (a full dotted key) names it in errors.
  std::vector<int> resolve_one(std::string_view token, std::string_view source, std::string_view key) const;
  // The ids of a list of selectors.
  std::set<int> select(const std::vector<std::string>& tokens, std::string_view source, std::string_view key) const;

  // Placeholders known before a run: <role>_ids, <role>_names, <role>_count, <role>_id.
  void add_role_facts(Names& names) const;
  std::set<std::string> role_fact_names() const;

 private:
  std::vector<ScenarioNode> nodes_;
  std::map<std::string, int> by_name_;
  std::map<std::string, std::vector<int>> roles_;  // role -> ids, ascending; includes "all"
};

}  // namespace dissem::scenario
