#include "sim/scenario_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/config_keys.h"
#include "config/toml_parse.h"
#include "scenario/table_reader.h"

namespace dissem::sim {
namespace {

using scenario::TableReader;

// 1 kbit = 1024 bit, the convention of the paper's capacities (see scenario_runner.h).

Micros seconds_to_micros(double s) { return static_cast<Micros>(std::llround(s * static_cast<double>(kSeconds))); }
Micros millis_to_micros(double ms) { return static_cast<Micros>(std::llround(ms * static_cast<double>(kMillis))); }

// The scalar at `n` in the text form the controllers' key table reads.
std::optional<std::string> scalar_text(const toml::node& n) {
  if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
  if (auto v = n.value_exact<double>()) return fmt::format("{}", *v);
  if (auto v = n.value_exact<bool>()) return std::string(*v ? "true" : "false");
  if (auto v = n.value_exact<std::string>()) return *v;
  return std::nullopt;
}

// Applies a controllers table (nested tables as dotted keys) over `settings`.
void read_controllers(const toml::table& t, const std::string& prefix, const std::string& where,
                      const std::string& source, controllers::ControllerSettings& settings) {
  for (auto&& [name, node] : t) {
    const std::string key = prefix + std::string(name.str());
    if (const toml::table* sub = node.as_table()) {
      read_controllers(*sub, key + ".", where, source, settings);
      continue;
    }
    const auto text = scalar_text(node);
    if (!text) throw ScenarioError(source + ": key '" + key + "' in " + where + " must be a number, boolean or string");
    try {
      controllers::set_setting(settings, key, *text);
    } catch (const controllers::SettingsError& e) {
      throw ScenarioError(source + ": " + e.what() + " (in " + where + ")");
    }
  }
}

using NodePair = std::pair<std::size_t, std::size_t>;  // from -> to

// The link keys, in the scenario language's words (scenario/topology_spec.h).
constexpr std::array<std::string_view, 4> kLinkFields = {"reliability", "latency_ms", "jitter_ms", "enabled"};

// The simulator's older words, refused with what replaced them.
constexpr TableReader::Retired kReliabilityPct{
    "reliability_pct", "was renamed to reliability (a fraction, as in the scenario language: 90 % is 0.9)"};
// As in the language's [[topology.event]]: a timed change sets what it names.
constexpr TableReader::Retired kAsymmetricChange{
    "asymmetric", "applies to [[links.override]] only, as in the scenario language's timed events: a change of both "
                  "directions is two tables"};
constexpr TableReader::Retired kSymmetric{
    "symmetric",
    "was removed: as in the scenario language, each table is one direction (from -> to); write a two-way change as "
    "two tables, or asymmetric = true to disable the reverse of each matched direction"};

// A reader of a table of link fields and the keys `more`.
TableReader link_table(const toml::table& t, std::string where, const std::string& source,
                       std::initializer_list<std::string_view> more, const std::vector<TableReader::Retired>& retired) {
  std::vector<std::string_view> allowed(more);
  allowed.insert(allowed.end(), kLinkFields.begin(), kLinkFields.end());
  return TableReader(t, std::move(where), source, allowed, TableReader::Style::Phrase, retired);
}

// Applies the link fields present in `r` over `link`.
void read_link_fields(const TableReader& r, LinkParams& link) {
  if (auto v = r.non_negative("reliability")) {
    if (*v > 1) r.fail("reliability", "must be in [0, 1]");
    link.reliability = *v;
  }
  if (auto v = r.non_negative("latency_ms")) link.latency = millis_to_micros(*v);
  if (auto v = r.non_negative("jitter_ms")) link.jitter = millis_to_micros(*v);
  if (auto v = r.boolean("enabled")) link.enabled = *v;
}

// asymmetric = true: the reverse of each matched direction, which is disabled
// after the matched directions themselves are set, as the scenario language
// does (scenario/expansion.cpp); a reverse that is also matched ends disabled.
std::set<NodePair> reverses(const TableReader& r, const std::vector<NodePair>& matched) {
  std::set<NodePair> out;
  if (r.boolean("asymmetric").value_or(false))
    for (const auto& [from, to] : matched) out.emplace(to, from);
  return out;
}

class Parser {
 public:
  Parser(const std::string& source, const std::filesystem::path& base_dir) : base_dir_(base_dir) {
    s_.source = source;
  }

  Scenario run(const toml::table& root) {
    TableReader r(root, "the top level", s_.source,
                  {"seed", "duration_s", "stop_when_complete", "medium", "links", "link_changes", "controllers", "nodes",
                   "publications"});
    if (auto v = r.count("seed")) s_.seed = *v;
    if (auto v = r.non_negative("duration_s")) s_.duration = seconds_to_micros(*v);
    if (auto v = r.boolean("stop_when_complete")) s_.stop_when_complete = *v;
    if (const toml::table* m = r.table("medium")) read_medium(*m);
    if (const toml::table* c = r.table("controllers")) read_controllers(*c, "", "[controllers]", s_.source, defaults_);

    const auto nodes = r.tables("nodes");
    if (nodes.empty()) throw ScenarioError(s_.source + ": at least one [[nodes]] entry is required");
    for (std::size_t i = 0; i < nodes.size(); ++i) read_node(*nodes[i], i);
    if (const toml::table* l = r.table("links")) read_links(*l);
    read_link_changes(r.tables("link_changes"));
    for (const auto& n : s_.nodes) {
      try {
        controllers::check_settings(n.controllers);
      } catch (const controllers::SettingsError& e) {
        throw ScenarioError(s_.source + ": node \"" + n.name + "\": " + e.what());
      }
    }
    const auto pubs = r.tables("publications");
    for (std::size_t i = 0; i < pubs.size(); ++i) read_publication(*pubs[i], i);
    return std::move(s_);
  }

 private:
  void read_medium(const toml::table& t) {
    TableReader r(t, "[medium]", s_.source, {"shared_channel", "per_packet_overhead", "queue_packets", "radio_backpressure"});
    if (auto v = r.boolean("shared_channel")) s_.medium.shared_channel = *v;
    if (auto v = r.count("per_packet_overhead")) s_.medium.per_packet_overhead = static_cast<std::uint32_t>(*v);
    if (auto v = r.count("queue_packets")) s_.medium.queue_packets = *v;
    if (auto v = r.boolean("radio_backpressure")) s_.medium.radio_backpressure = *v;
  }

  void read_node(const toml::table& t, std::size_t i) {
    TableReader r(t, "[[nodes]] #" + std::to_string(i + 1), s_.source,
                  {"name", "capacity_kbps", "capacity_bps", "serve_requests", "cache_unsubscribed", "subscribe",
                   "reliable", "history", "subscribe_at_s", "controllers", "engine"});
    ScenarioNode n;
    n.controllers = defaults_;
    n.name = r.required_string("name");
    if (n.name.empty() || n.name == "*") r.fail("name", "must be a non-empty name other than \"*\"");
    if (!index_of_name_.emplace(n.name, i).second) r.fail("name", "repeats the node name \"" + n.name + "\"");
    if (r.has("capacity_kbps") && r.has("capacity_bps")) r.fail("capacity_bps", "conflicts with capacity_kbps");
    if (auto v = r.non_negative("capacity_kbps")) n.capacity_bps = static_cast<std::uint64_t>(std::llround(*v * static_cast<double>(kBitsPerKbit)));
    if (auto v = r.count("capacity_bps")) n.capacity_bps = *v;
    if (n.capacity_bps == 0) r.fail("capacity_kbps", "(or capacity_bps) is required and must be > 0");
    if (auto v = r.boolean("serve_requests")) n.serve_requests = *v;
    if (auto v = r.boolean("cache_unsubscribed")) n.cache_unsubscribed = *v;
    if (auto v = r.boolean("reliable")) n.reliable = *v;
    n.subscribe = r.strings("subscribe");
    if (auto v = r.count("history")) {
      if (*v > 1'000'000) r.fail("history", "must be at most 1000000");
      n.history = static_cast<std::uint32_t>(*v);
    }
    n.subscribe_at = seconds_to_micros(r.non_negative("subscribe_at_s").value_or(0.0));
    if (const toml::table* c = r.table("controllers"))
      read_controllers(*c, "", r.where() + " controllers", s_.source, n.controllers);
    n.engine = r.strings("engine");
    engine::EngineConfig check;
    for (const auto& setting : n.engine) {
      try {
        engine::apply_config_assignment(check, setting);
      } catch (const engine::ConfigError& e) {
        r.fail("engine", "has a bad setting: " + std::string(e.what()));
      }
    }
    s_.nodes.push_back(std::move(n));
  }

  // Node indices a name stands for ("*": all).
  std::vector<std::size_t> resolve(const TableReader& r, std::string_view key) const {
    const std::string name = r.required_string(key);
    std::vector<std::size_t> out;
    if (name == "*") {
      for (std::size_t i = 0; i < s_.nodes.size(); ++i) out.push_back(i);
    } else if (const auto it = index_of_name_.find(name); it != index_of_name_.end()) {
      out.push_back(it->second);
    }
    if (out.empty()) r.fail(key, "names no node: \"" + name + "\"");
    return out;
  }

  // The ordered pairs a table's from and to name, never a node to itself.
  std::vector<NodePair> matched(const TableReader& r) const {
    const auto from = resolve(r, "from");
    const auto to = resolve(r, "to");
    std::vector<NodePair> out;
    for (std::size_t f : from)
      for (std::size_t d : to)
        if (f != d) out.emplace_back(f, d);
    return out;
  }

  // What the pair has so far: its last override or change, else the default.
  LinkParams current(const NodePair& pair) const {
    const auto it = link_now_.find(pair);
    return it == link_now_.end() ? s_.default_link : it->second;
  }

  // Sets the table's fields over what each matched direction has so far, then
  // (asymmetric = true) disables the reverse of each; `record` keeps each step.
  template <typename Record>
  void apply_link_table(const TableReader& r, Record record) {
    const auto pairs = matched(r);
    for (const NodePair& p : pairs) {
      LinkParams l = current(p);
      read_link_fields(r, l);
      link_now_[p] = l;
      record(p, l);
    }
    for (const NodePair& p : reverses(r, pairs)) {
      LinkParams l = current(p);
      l.enabled = false;
      link_now_[p] = l;
      record(p, l);
    }
  }

  void read_links(const toml::table& t) {
    const TableReader r = link_table(t, "[links]", s_.source, {"override"}, {kReliabilityPct});
    read_link_fields(r, s_.default_link);
    const auto overrides = r.tables("override");
    for (std::size_t i = 0; i < overrides.size(); ++i) {
      const TableReader o = link_table(*overrides[i], "[[links.override]] #" + std::to_string(i + 1), s_.source,
                                       {"from", "to", "asymmetric"}, {kReliabilityPct, kSymmetric});
      apply_link_table(o, [&](const NodePair& p, const LinkParams& l) { s_.links.push_back({p.first, p.second, l}); });
    }
  }

  // Changes apply in time order (file order among equal times), each over
  // what the pair had just before it: its last change, else its last override.
  void read_link_changes(const std::vector<const toml::table*>& tables) {
    std::vector<TableReader> readers;
    std::vector<Micros> at;
    for (std::size_t i = 0; i < tables.size(); ++i) {
      readers.push_back(link_table(*tables[i], "[[link_changes]] #" + std::to_string(i + 1), s_.source,
                                   {"at_s", "from", "to"}, {kReliabilityPct, kSymmetric, kAsymmetricChange}));
      at.push_back(seconds_to_micros(readers.back().non_negative("at_s").value_or(0.0)));
    }
    std::vector<std::size_t> order(tables.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return at[a] < at[b]; });
    for (std::size_t i : order)
      apply_link_table(readers[i], [&](const NodePair& p, const LinkParams& l) {
        s_.link_changes.push_back({at[i], p.first, p.second, l});
      });
  }

  // Mockets' timeliness: priority, lifetime, tags and replacement.
  static void read_timeliness(const TableReader& r, ScenarioPublication& p) {
    constexpr std::uint64_t kMaxLifetimeMs = 24ull * 24 * 3600 * 1000;  // what the wire carries (message_expiry.h)
    if (auto v = r.count("priority")) {
      if (*v > std::numeric_limits<std::uint32_t>::max()) r.fail("priority", "must be in 0..4294967295");
      p.priority = static_cast<std::uint32_t>(*v);
    }
    if (auto v = r.count("lifetime_ms")) {
      if (*v > kMaxLifetimeMs) r.fail("lifetime_ms", "must be at most 24 days");
      p.lifetime_ms = static_cast<std::uint32_t>(*v);
    }
    if (auto v = r.string("tag")) p.tag = *v;
    if (auto v = r.count("sources")) {
      if (*v == 0 || *v > 1'000'000) r.fail("sources", "must be in 1..1000000");
      if (p.tag.empty()) r.fail("sources", "tags per source need a tag");
      p.sources = static_cast<std::uint32_t>(*v);
    }
    if (auto v = r.boolean("replace")) p.replace = *v;
    if (p.replace && p.tag.empty()) r.fail("replace", "needs a tag: a message replaces the older ones of its tag");
    if (auto v = r.non_negative("offer_until_s")) p.offer_until = seconds_to_micros(*v);
  }

  void read_publication(const toml::table& t, std::size_t i) {
    TableReader r(t, "[[publications]] #" + std::to_string(i + 1), s_.source,
                  {"at_s", "node", "group", "size", "last_size", "file", "count", "interval_s", "spread_s", "priority",
                   "lifetime_ms", "tag", "sources", "replace", "offer_until_s"});
    ScenarioPublication p;
    p.at = seconds_to_micros(r.non_negative("at_s").value_or(0.0));
    const auto nodes = resolve(r, "node");
    if (nodes.size() != 1) r.fail("node", "must name exactly one node");
    p.node = nodes.front();
    p.group = r.required_string("group");
    if (p.group.empty()) r.fail("group", "must not be empty");
    if (r.has("size") == r.has("file")) r.fail("size", "or 'file': exactly one is required");
    if (auto v = r.count("size")) {
      if (*v == 0) r.fail("size", "must be > 0");
      p.size = *v;
    }
    if (auto f = r.string("file")) {
      const std::filesystem::path path = base_dir_ / *f;
      std::ifstream in(path, std::ios::binary);
      if (!in) r.fail("file", "cannot be read: " + path.string());
      p.payload.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      if (p.payload.empty()) r.fail("file", "is empty: " + path.string());
      p.size = p.payload.size();
    }
    if (auto v = r.count("count")) {
      if (*v == 0) r.fail("count", "must be >= 1");
      p.count = *v;
    }
    if (auto v = r.count("last_size")) {
      if (!p.payload.empty()) r.fail("last_size", "conflicts with file");
      if (*v == 0) r.fail("last_size", "must be > 0");
      p.last_size = *v;
    }
    if (r.has("interval_s") && r.has("spread_s")) r.fail("spread_s", "conflicts with interval_s");
    p.interval = seconds_to_micros(r.non_negative("interval_s").value_or(0.0));
    p.spread = seconds_to_micros(r.non_negative("spread_s").value_or(0.0));
    read_timeliness(r, p);
    s_.publications.push_back(std::move(p));
  }

  std::filesystem::path base_dir_;
  Scenario s_;
  std::unordered_map<std::string, std::size_t> index_of_name_;
  // Each ordered pair's parameters after the overrides and changes read so far.
  std::map<NodePair, LinkParams> link_now_;
  controllers::ControllerSettings defaults_;  // [controllers]
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source, const std::filesystem::path& base_dir) {
  toml::table root;
  if (auto problem = config::parse_toml(text, source, root)) throw ScenarioError(*problem);
  return Parser(source, base_dir).run(root);
}

Scenario load_scenario_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path.string() + ": cannot open scenario file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_scenario(text, path.string(), path.parent_path());
}

}  // namespace dissem::sim
