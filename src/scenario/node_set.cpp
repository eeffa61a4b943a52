#include "scenario/node_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

const std::regex kNodeName(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]*$)");
const std::regex kRoleName(R"(^[A-Za-z_][A-Za-z0-9_]*$)");
constexpr std::int64_t kMaxNodes = 1'000'000;

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> node_names(const TableReader& t) {
  const bool listed = t.has("names");
  std::vector<std::string> names = t.strings("names");
  if (listed && names.empty()) t.fail("names", "lists no names");
  const auto count = t.integer("count");
  if (!count && !listed) t.fail("count", "is required (or give names)");
  const std::int64_t n = count ? *count : static_cast<std::int64_t>(names.size());
  if (n < 1 || n > kMaxNodes) t.fail("count", fmt::format("{} is outside 1..{}", n, kMaxNodes));
  if (!listed)
    for (std::int64_t i = 1; i <= n; ++i) names.push_back(fmt::format("n{}", i));
  if (static_cast<std::int64_t>(names.size()) != n)
    t.fail("names", fmt::format("lists {} names for {} nodes", names.size(), n));
  for (const auto& name : names)
    if (!std::regex_match(name, kNodeName) || all_digits(name))
      t.fail("names", fmt::format("'{}' is not a valid node name (letters, digits, '_', '.', '-'; not only digits)", name));
  return names;
}

}  // namespace

NodeSet NodeSet::read(const TableReader& top) {
  const toml::table* table = top.table("nodes");
  if (table == nullptr) top.fail("nodes", "is required");
  const TableReader t(*table, top.path("nodes"), top.source(), {"names", "count", "roles", "start_delay_s"},
                      TableReader::Style::Dotted);
  NodeSet set;
  const auto names = node_names(t);
  std::vector<int> all;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int id = static_cast<int>(i + 1);
    if (!set.by_name_.emplace(names[i], id).second) t.fail("names", "lists a name twice");
    set.nodes_.push_back({id, names[i], {"all"}});
    all.push_back(id);
  }
  set.roles_["all"] = all;
  if (const toml::table* roles = t.table("roles")) {
    for (auto&& [role_key, value] : *roles) {
      const std::string role(role_key.str());
      const std::string key = t.path("roles") + "." + role;
      if (!std::regex_match(role, kRoleName) || role == "all")
        fail(t.source(), key, "role names must be identifiers other than 'all'");
      std::vector<std::string> tokens;
      if (auto s = value.value_exact<std::string>()) tokens.push_back(*s);
      if (const toml::array* a = value.as_array())
        for (const toml::node& e : *a) {
          if (auto s = e.value_exact<std::string>()) tokens.push_back(*s);
          else if (auto i = e.value_exact<std::int64_t>()) tokens.push_back(std::to_string(*i));
          else fail(t.source(), key, "expected text or a list of text");
        }
      const auto ids = set.select(tokens, t.source(), key);
      set.roles_[role] = {ids.begin(), ids.end()};
      for (int id : ids) set.nodes_[static_cast<std::size_t>(id - 1)].roles.push_back(role);
    }
  }
  return set;
}

std::vector<int> NodeSet::resolve_one(std::string_view token_in, std::string_view source, std::string_view key) const {
  std::string token(token_in);
  token.erase(0, token.find_first_not_of(" \t"));
  token.erase(token.find_last_not_of(" \t") + 1);
  if (token == "*") return roles_.at("all");
  if (token.starts_with("role:")) {
    const auto it = roles_.find(token.substr(5));
    if (it != roles_.end()) return it->second;
    std::vector<std::string> known;
    for (const auto& [r, ids] : roles_) known.push_back(r);
    fail(source, key, fmt::format("unknown role '{}' (roles: {})", token.substr(5), fmt::join(known, ", ")));
  }
  if (const auto it = by_name_.find(token); it != by_name_.end()) return {it->second};
  if (all_digits(token) && token.size() < 10) {
    const long id = std::stol(token);
    if (id >= 1 && id <= static_cast<long>(nodes_.size())) return {static_cast<int>(id)};
  }
  std::vector<std::string> names;
  for (const auto& n : nodes_) names.push_back(n.name);
  fail(source, key, fmt::format("'{}' is no node name, id 1..{}, '*' or 'role:<name>' (nodes: {})", token, nodes_.size(),
                                fmt::join(names, ", ")));
}

std::set<int> NodeSet::select(const std::vector<std::string>& tokens, std::string_view source, std::string_view key) const {
  std::set<int> out;
  for (const auto& t : tokens)
    for (int id : resolve_one(t, source, key)) out.insert(id);
  return out;
}

void NodeSet::add_role_facts(Names& names) const {
  for (const auto& [role, ids] : roles_) {
    std::vector<std::string> id_text;
    std::vector<std::string> name_text;
    for (int id : ids) {
      id_text.push_back(std::to_string(id));
      name_text.push_back(node(id).name);
    }
    names[role + "_ids"] = fmt::format("{}", fmt::join(id_text, ","));
    names[role + "_names"] = fmt::format("{}", fmt::join(name_text, ","));
    names[role + "_count"] = static_cast<std::int64_t>(ids.size());
    names[role + "_id"] = static_cast<std::int64_t>(ids.empty() ? 0 : ids.front());
  }
}

std::set<std::string> NodeSet::role_fact_names() const {
  std::set<std::string> out;
  for (const auto& [role, ids] : roles_)
    for (const char* suffix : {"_ids", "_names", "_count", "_id"}) out.insert(role + suffix);
  return out;
}

}  // namespace dissem::scenario
