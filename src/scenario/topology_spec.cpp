#include "scenario/topology_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "scenario/scenario_error.h"
#include "scenario/topology_kinds.h"

namespace dissem::scenario {
namespace {

using Kind = Param::Kind;
const std::vector<std::string_view> kKinds = {"full", "line", "grid", "partition-heal", "geometric", "eel"};

Bounds link_bounds(std::string_view key) {
  if (key == "reliability") return {0.0, 1.0};
  return {0.0, std::nullopt};
}

LinkValues link_values(const TableReader& t, const std::set<std::string>& names, bool with_defaults) {
  LinkValues out;
  for (const char* key : kLinkKeys) {
    if (auto p = read_param(t, key, names, Kind::Number, link_bounds(key))) {
      out.emplace(key, std::move(*p));
    } else if (with_defaults) {
      const Value v = std::string_view(key) == "reliability" ? Value{1.0} : Value{std::int64_t{0}};
      out.emplace(key, Param(t.source(), t.path(key), Kind::Number, v, link_bounds(key)));
    }
  }
  return out;
}

std::set<int> selected(const TableReader& t, const NodeSet& nodes, std::string_view key) {
  return nodes.select(t.string_or_list(key).value_or(std::vector<std::string>{"*"}), t.source(), t.path(key));
}

// [lo, hi]: the range each matched link's reliability is drawn from.
std::optional<std::array<Param, 2>> read_reliability_range(const TableReader& t, const std::set<std::string>& names) {
  const toml::node* n = t.node("reliability_range");
  if (n == nullptr) return std::nullopt;
  const toml::array* a = n->as_array();
  if (a == nullptr || a->size() != 2) t.fail("reliability_range", "expected [lowest, highest] reliability, each in 0..1");
  if (t.has("reliability")) t.fail("reliability_range", "conflicts with reliability: give one of them");
  const auto item = [&](std::size_t i) {
    return make_param(t, *a->get(i), t.path("reliability_range") + "[" + std::to_string(i + 1) + "]", names,
                      Kind::Number, {0.0, 1.0});
  };
  return std::array<Param, 2>{item(0), item(1)};
}

Change read_change(const toml::table& table, const std::string& where, const TableReader& parent, const NodeSet& nodes,
                   const std::set<std::string>& names, bool timed) {
  std::vector<std::string_view> allowed = {"from", "to", "enabled"};
  allowed.insert(allowed.end(), kLinkKeys.begin(), kLinkKeys.end());
  if (timed) allowed.insert(allowed.end(), {"at_s", "gilbert"});
  else allowed.insert(allowed.end(), {"asymmetric", "gilbert", "reliability_range"});
  const TableReader t(table, where, parent.source(), allowed, TableReader::Style::Dotted);
  Change c{where, selected(t, nodes, "from"), selected(t, nodes, "to"), link_values(t, names, false),
           read_param(t, "enabled", names, Kind::Boolean), std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  if (timed) {
    c.at_s = required_param(t, "at_s", names, Kind::Number, {0.0, std::nullopt});
    if (t.has("gilbert"))
      t.fail("gilbert", "burst loss is set per link at t = 0 (topology or [[topology.override]]), not in timed events");
  } else {
    c.asymmetric = read_param(t, "asymmetric", names, Kind::Boolean);
    c.gilbert = read_gilbert(t, names);
    c.reliability_range = read_reliability_range(t, names);
  }
  return c;
}

OutageSpec read_outage(const toml::table& table, const std::string& where, const TableReader& parent,
                       const NodeSet& nodes, const std::set<std::string>& names) {
  const TableReader t(table, where, parent.source(),
                      {"from", "to", "mean_up_s", "mean_down_s", "start_s", "both_directions"}, TableReader::Style::Dotted);
  const auto start = read_param(t, "start_s", names, Kind::Number, {0.0, std::nullopt});
  return {where,
          selected(t, nodes, "from"),
          selected(t, nodes, "to"),
          required_param(t, "mean_up_s", names, Kind::Number, {0.001, std::nullopt}),
          required_param(t, "mean_down_s", names, Kind::Number, {0.001, std::nullopt}),
          start ? *start : Param(t.source(), t.path("start_s"), Kind::Number, Value{0.0}, {0.0, std::nullopt}),
          t.boolean("both_directions").value_or(true)};
}

std::vector<std::string_view> topology_keys(std::string_view kind) {
  std::vector<std::string_view> keys = {"kind", "default_disconnected", "gilbert", "override", "event", "outage"};
  keys.insert(keys.end(), kLinkKeys.begin(), kLinkKeys.end());
  if (kind == "grid") keys.insert(keys.end(), {"rows", "cols"});
  if (kind == "geometric") keys.insert(keys.end(), {"radius", "degree", "graph_seed"});
  if (kind == "partition-heal") keys.insert(keys.end(), {"clusters", "bridge", "partition_at_s", "heal_at_s"});
  if (kind == "eel") keys.insert(keys.end(), {"eel", "eel_file", "eel_convention"});
  return keys;
}

}  // namespace

std::optional<Gilbert> read_gilbert(const TableReader& t, const std::set<std::string>& names) {
  const toml::node* n = t.node("gilbert");
  if (n == nullptr) return std::nullopt;
  toml::array items;
  if (auto s = n->value_exact<std::string>()) {
    std::size_t start = 0;
    for (;;) {
      const auto comma = s->find(',', start);
      items.push_back(s->substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (const toml::array* a = n->as_array()) {
    items = *a;
  }
  if (items.size() != 3) t.fail("gilbert", "expected [p_good_to_bad, p_bad_to_good, loss_pct_in_bad]");
  const auto item = [&](std::size_t i, double max) {
    return make_param(t, *items.get(i), t.path("gilbert") + "[" + std::to_string(i + 1) + "]", names, Kind::Number,
                      {0.0, max});
  };
  return Gilbert{item(0, 1), item(1, 1), item(2, 100)};
}

TopologySpec read_topology(const TableReader& top, const NodeSet& nodes, const std::set<std::string>& names,
                           const std::filesystem::path& scenario_dir) {
  static const toml::table empty;
  const toml::table* table = top.table("topology");
  if (table == nullptr) table = &empty;
  const bool literal = table->contains("eel") || table->contains("eel_file");
  TopologySpec spec;
  spec.source = top.source();
  spec.kind = literal ? "eel" : "full";
  if (const toml::node* k = table->get("kind")) {
    const auto text = k->value_exact<std::string>();
    if (!text) fail(top.source(), "topology.kind", "expected text");
    if (std::find(kKinds.begin(), kKinds.end(), *text) == kKinds.end())
      fail(top.source(), "topology.kind", fmt::format("'{}' is not one of {}", *text, fmt::join(kKinds, ", ")));
    spec.kind = *text;
  }
  const TableReader t(*table, "topology", top.source(), topology_keys(spec.kind), TableReader::Style::Dotted);
  spec.defaults = link_values(t, names, true);
  spec.default_disconnected = read_param(t, "default_disconnected", names, Kind::Boolean);
  spec.gilbert = read_gilbert(t, names);
  read_kind_keys(t, spec, nodes, names, scenario_dir);
  const auto arrays = [&](const char* key) {
    std::vector<std::pair<const toml::table*, std::string>> out;
    const auto tables = t.tables(key);
    for (std::size_t i = 0; i < tables.size(); ++i) out.emplace_back(tables[i], item_path(t.path(key), i));
    return out;
  };
  for (const auto& [tab, where] : arrays("override")) spec.overrides.push_back(read_change(*tab, where, t, nodes, names, false));
  for (const auto& [tab, where] : arrays("event")) spec.events.push_back(read_change(*tab, where, t, nodes, names, true));
  for (const auto& [tab, where] : arrays("outage")) spec.outages.push_back(read_outage(*tab, where, t, nodes, names));
  if (spec.kind == "eel") {
    const char* which = !spec.overrides.empty() ? "override" : !spec.events.empty() ? "event"
                        : !spec.outages.empty() ? "outage" : spec.gilbert ? "gilbert" : nullptr;
    if (which != nullptr)
      t.fail(which, "overrides, timed events, outages and burst loss apply to shorthands; "
                    "write links into the EEL and burst loss into [emulator] instead");
  }
  return spec;
}

}  // namespace dissem::scenario
