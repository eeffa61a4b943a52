#include "scenario/cell.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

const std::regex kParameterName(R"(^[A-Za-z_][A-Za-z0-9_]*$)");

Value matrix_value(const std::string& source, const std::string& key, const toml::node& n) {
  if (auto b = n.value_exact<bool>()) return *b;
  if (auto i = n.value_exact<std::int64_t>()) return *i;
  if (auto d = n.value_exact<double>()) return *d;
  if (auto s = n.value_exact<std::string>()) return *s;
  fail(source, "matrix." + key, "values must be numbers, text or booleans");
}

std::string id_part(const Value& v) {
  static const std::regex other(R"([^A-Za-z0-9.+-]+)");
  std::string text = std::regex_replace(value_text(v), other, "-");
  text.erase(0, text.find_first_not_of('-'));
  text.erase(text.find_last_not_of('-') + 1);
  return text.empty() ? "x" : text;
}

std::string values_text(const std::vector<Value>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) out.push_back(value_text(v));
  return fmt::format("{}", fmt::join(out, ", "));
}

}  // namespace

const std::set<std::string>& reserved_names() {
  static const std::set<std::string> names = {
      "seed", "n_nodes", "scenario", "cell",                                                  // per cell
      "system", "subnet", "broadcast", "netmask", "prefix", "rundir", "repo", "scenario_dir", "time_limit_s",  // per run
      "node", "node_id", "address", "namespace", "interface", "mac", "workdir", "sockdir", "roles"};  // per node
  return names;
}

Matrix read_matrix(const TableReader& top, const std::set<std::string>& reserved) {
  Matrix out;
  const toml::table* table = top.table("matrix");
  if (table == nullptr) return out;
  std::vector<std::pair<toml::source_position, std::string>> keys;
  for (auto&& [key, value] : *table) keys.emplace_back(value.source().begin, std::string(key.str()));
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.column < b.first.column;
  });
  const auto refuse = [&](const std::string& key, const std::string& what) { fail(top.source(), "matrix." + key, what); };
  for (const auto& [pos, key] : keys) {
    if (!std::regex_match(key, kParameterName)) refuse(key, "matrix parameter names must be identifiers (letters, digits, '_')");
    if (reserved.contains(key)) refuse(key, "is a built-in placeholder name; pick another");
    const toml::array* a = table->get(key)->as_array();
    if (a == nullptr || a->empty()) refuse(key, "expected a non-empty list of values");
    std::vector<Value> values;
    for (const toml::node& n : *a) {
      Value v = matrix_value(top.source(), key, n);
      if (std::any_of(values.begin(), values.end(), [&](const Value& w) { return w == v; })) refuse(key, "lists a value twice");
      values.push_back(std::move(v));
    }
    out.emplace_back(key, std::move(values));
  }
  return out;
}

std::string cell_id(const std::vector<std::pair<std::string, Value>>& cell) {
  if (cell.empty()) return "default";
  std::vector<std::string> parts;
  for (const auto& [k, v] : cell) parts.push_back(k + "-" + id_part(v));
  return fmt::format("{}", fmt::join(parts, "_"));
}

std::vector<std::pair<std::string, Value>> pick_cell(const Matrix& matrix, const std::vector<std::string>& choices,
                                                     const std::string& source) {
  std::vector<std::pair<std::string, Value>> picked;
  std::vector<std::string> keys;
  for (const auto& [k, v] : matrix) keys.push_back(k);
  std::map<std::string, Value> chosen;
  for (const auto& c : choices) {
    const auto eq = c.find('=');
    const std::string key = c.substr(0, eq);
    if (eq == std::string::npos || eq == 0) fail(source, "matrix", fmt::format("--cell '{}' is not key=value", c));
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      fail(source, "matrix", fmt::format("--cell {}: no such matrix key (matrix: {})", key, keys.empty() ? "none" : fmt::format("{}", fmt::join(keys, ", "))));
    chosen[key] = value_from_text(c.substr(eq + 1));
  }
  for (const auto& [key, values] : matrix) {
    const auto it = chosen.find(key);
    if (it == chosen.end()) {
      if (values.size() > 1)
        fail(source, "matrix." + key, fmt::format("has {} values: pick one with --cell {}=VALUE (values: {})", values.size(), key, values_text(values)));
      picked.emplace_back(key, values.front());
      continue;
    }
    const auto match = std::find_if(values.begin(), values.end(), [&](const Value& v) { return same_value(v, it->second); });
    if (match == values.end())
      fail(source, "matrix." + key, fmt::format("--cell {}={} is not among its values ({})", key, value_text(it->second), values_text(values)));
    picked.emplace_back(key, *match);
  }
  return picked;
}

std::vector<std::vector<std::pair<std::string, Value>>> every_cell(const Matrix& matrix) {
  std::vector<std::vector<std::pair<std::string, Value>>> cells{{}};
  for (const auto& [key, values] : matrix) {
    std::vector<std::vector<std::pair<std::string, Value>>> longer;
    longer.reserve(cells.size() * values.size());
    for (const auto& cell : cells)
      for (const auto& v : values) {
        auto c = cell;
        c.emplace_back(key, v);
        longer.push_back(std::move(c));
      }
    cells = std::move(longer);
  }
  return cells;
}

Names cell_names(const std::string& scenario_name, const NodeSet& nodes,
                 const std::vector<std::pair<std::string, Value>>& cell, std::uint64_t seed) {
  Names names;
  for (const auto& [k, v] : cell) names[k] = v;
  names["seed"] = static_cast<std::int64_t>(seed);
  names["n_nodes"] = static_cast<std::int64_t>(nodes.size());
  names["scenario"] = scenario_name;
  names["cell"] = cell_id(cell);
  nodes.add_role_facts(names);
  return names;
}

std::set<std::string> cell_name_set(const Matrix& matrix, const NodeSet& nodes) {
  std::set<std::string> out = nodes.role_fact_names();
  for (const auto& [k, v] : matrix) out.insert(k);
  for (const char* b : {"seed", "n_nodes", "scenario", "cell"}) out.insert(b);
  return out;
}

}  // namespace dissem::scenario
