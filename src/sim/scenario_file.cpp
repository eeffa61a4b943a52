#include "sim/scenario_file.h"

#include <fmt/format.h>
#include <toml++/toml.h>  // Debian ships toml.h; used header-only (no library to link)

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "engine/toml_input_guard.h"

namespace dissem::sim {
namespace {

// 1 kbit = 1024 bit, the convention of the paper's capacities (see experiments.h).
constexpr double kBitsPerKbit = 1024.0;

std::string join(std::initializer_list<std::string_view> names) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

// Reads one TOML table: rejects unknown keys up front, then hands out typed
// values with errors that name the key and where it is.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string where, const std::string& source,
              std::initializer_list<std::string_view> allowed)
      : table_(table), where_(std::move(where)), source_(source) {
    for (auto&& [key, value] : table) {
      if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end())
        throw ScenarioError(source_ + ": unknown key '" + std::string(key.str()) + "' in " + where_ +
                            " (allowed: " + join(allowed) + ")");
    }
  }

  [[noreturn]] void fail(std::string_view key, std::string_view what) const {
    throw ScenarioError(source_ + ": key '" + std::string(key) + "' in " + where_ + " " + std::string(what));
  }

  bool has(std::string_view key) const { return table_.contains(key); }

  std::optional<double> number(std::string_view key) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return std::nullopt;
    if (auto i = n->value_exact<std::int64_t>()) return static_cast<double>(*i);
    if (auto d = n->value_exact<double>()) {
      if (!std::isfinite(*d)) fail(key, "must be a finite number");
      return *d;
    }
    fail(key, "must be a number");
  }

  std::optional<double> non_negative(std::string_view key) const {
    auto v = number(key);
    if (v && *v < 0) fail(key, "must be >= 0");
    return v;
  }

  std::optional<std::int64_t> integer(std::string_view key) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return std::nullopt;
    if (auto i = n->value_exact<std::int64_t>()) return *i;
    fail(key, "must be an integer");
  }

  std::optional<std::uint64_t> count(std::string_view key) const {
    auto v = integer(key);
    if (!v) return std::nullopt;
    if (*v < 0) fail(key, "must be >= 0");
    return static_cast<std::uint64_t>(*v);
  }

  std::optional<bool> boolean(std::string_view key) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return std::nullopt;
    if (auto b = n->value_exact<bool>()) return *b;
    fail(key, "must be true or false");
  }

  std::optional<std::string> string(std::string_view key) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return std::nullopt;
    if (auto s = n->value_exact<std::string>()) return *s;
    fail(key, "must be a string");
  }

  std::string required_string(std::string_view key) const {
    auto s = string(key);
    if (!s) fail(key, "is required");
    return *s;
  }

  std::vector<std::string> strings(std::string_view key) const {
    std::vector<std::string> out;
    const toml::node* n = table_.get(key);
    if (n == nullptr) return out;
    const toml::array* a = n->as_array();
    if (a == nullptr) fail(key, "must be an array of strings");
    for (const toml::node& e : *a) {
      auto s = e.value_exact<std::string>();
      if (!s) fail(key, "must be an array of strings");
      out.push_back(*s);
    }
    return out;
  }

  const toml::table* table(std::string_view key) const {
    const toml::node* n = table_.get(key);
    if (n == nullptr) return nullptr;
    if (!n->is_table()) fail(key, "must be a table");
    return n->as_table();
  }

  // An array of tables, [[key]]; empty if absent.
  std::vector<const toml::table*> tables(std::string_view key) const {
    std::vector<const toml::table*> out;
    const toml::node* n = table_.get(key);
    if (n == nullptr) return out;
    const toml::array* a = n->as_array();
    if (a == nullptr) fail(key, "must be an array of tables ([[" + std::string(key) + "]])");
    for (const toml::node& e : *a) {
      if (!e.is_table()) fail(key, "must be an array of tables ([[" + std::string(key) + "]])");
      out.push_back(e.as_table());
    }
    return out;
  }

  const std::string& where() const { return where_; }

 private:
  const toml::table& table_;
  std::string where_;
  const std::string& source_;
};

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

// Applies the link fields present in `r` over `link`.
void read_link_fields(const TableReader& r, LinkParams& link) {
  if (auto v = r.non_negative("reliability_pct")) {
    if (*v > 100) r.fail("reliability_pct", "must be in [0, 100]");
    link.reliability = *v / 100.0;
  }
  if (auto v = r.non_negative("latency_ms")) link.latency = millis_to_micros(*v);
  if (auto v = r.non_negative("jitter_ms")) link.jitter = millis_to_micros(*v);
  if (auto v = r.boolean("enabled")) link.enabled = *v;
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
    TableReader r(t, "[medium]", s_.source, {"shared_channel", "per_packet_overhead", "queue_packets"});
    if (auto v = r.boolean("shared_channel")) s_.medium.shared_channel = *v;
    if (auto v = r.count("per_packet_overhead")) s_.medium.per_packet_overhead = static_cast<std::uint32_t>(*v);
    if (auto v = r.count("queue_packets")) s_.medium.queue_packets = *v;
  }

  void read_node(const toml::table& t, std::size_t i) {
    TableReader r(t, "[[nodes]] #" + std::to_string(i + 1), s_.source,
                  {"name", "capacity_kbps", "capacity_bps", "serve_requests", "cache_unsubscribed", "subscribe",
                   "reliable", "history", "subscribe_at_s", "controllers"});
    ScenarioNode n;
    n.controllers = defaults_;
    n.name = r.required_string("name");
    if (n.name.empty() || n.name == "*") r.fail("name", "must be a non-empty name other than \"*\"");
    for (const auto& other : s_.nodes)
      if (other.name == n.name) r.fail("name", "repeats the node name \"" + n.name + "\"");
    if (r.has("capacity_kbps") && r.has("capacity_bps")) r.fail("capacity_bps", "conflicts with capacity_kbps");
    if (auto v = r.non_negative("capacity_kbps")) n.capacity_bps = static_cast<std::uint64_t>(std::llround(*v * kBitsPerKbit));
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
    s_.nodes.push_back(std::move(n));
  }

  // Node indices a name stands for ("*": all).
  std::vector<std::size_t> resolve(const TableReader& r, std::string_view key) const {
    const std::string name = r.required_string(key);
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < s_.nodes.size(); ++i)
      if (name == "*" || s_.nodes[i].name == name) out.push_back(i);
    if (out.empty()) r.fail(key, "names no node: \"" + name + "\"");
    return out;
  }

  void read_links(const toml::table& t) {
    TableReader r(t, "[links]", s_.source, {"reliability_pct", "latency_ms", "jitter_ms", "enabled", "override"});
    read_link_fields(r, s_.default_link);
    const auto overrides = r.tables("override");
    for (std::size_t i = 0; i < overrides.size(); ++i) {
      TableReader o(*overrides[i], "[[links.override]] #" + std::to_string(i + 1), s_.source,
                    {"from", "to", "symmetric", "reliability_pct", "latency_ms", "jitter_ms", "enabled"});
      const auto from = resolve(o, "from");
      const auto to = resolve(o, "to");
      const bool symmetric = o.boolean("symmetric").value_or(false);
      for (std::size_t f : from)
        for (std::size_t d : to) {
          if (f == d) continue;
          add_override(o, f, d);
          if (symmetric) add_override(o, d, f);
        }
    }
  }

  // An override changes only its own fields of whatever the pair had so far.
  void add_override(const TableReader& o, std::size_t from, std::size_t to) {
    LinkParams p = s_.default_link;
    for (const auto& l : s_.links)
      if (l.from == from && l.to == to) p = l.params;
    read_link_fields(o, p);
    s_.links.push_back({from, to, p});
  }

  // Changes apply in time order (file order among equal times); each changes
  // only its own fields of what the pair had just before it.
  void read_link_changes(const std::vector<const toml::table*>& tables) {
    std::vector<TableReader> readers;
    std::vector<Micros> at;
    for (std::size_t i = 0; i < tables.size(); ++i) {
      readers.emplace_back(*tables[i], "[[link_changes]] #" + std::to_string(i + 1), s_.source,
                           std::initializer_list<std::string_view>{"at_s", "from", "to", "symmetric", "reliability_pct",
                                                                   "latency_ms", "jitter_ms", "enabled"});
      at.push_back(seconds_to_micros(readers.back().non_negative("at_s").value_or(0.0)));
    }
    std::vector<std::size_t> order(tables.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return at[a] < at[b]; });
    for (std::size_t i : order) {
      const TableReader& c = readers[i];
      const auto from = resolve(c, "from");
      const auto to = resolve(c, "to");
      const bool symmetric = c.boolean("symmetric").value_or(false);
      for (std::size_t f : from)
        for (std::size_t d : to) {
          if (f == d) continue;
          add_change(c, at[i], f, d);
          if (symmetric) add_change(c, at[i], d, f);
        }
    }
  }

  void add_change(const TableReader& c, Micros at, std::size_t from, std::size_t to) {
    LinkParams p = s_.default_link;
    for (const auto& l : s_.links)
      if (l.from == from && l.to == to) p = l.params;
    for (const auto& l : s_.link_changes)
      if (l.from == from && l.to == to) p = l.params;
    read_link_fields(c, p);
    s_.link_changes.push_back({at, from, to, p});
  }

  void read_publication(const toml::table& t, std::size_t i) {
    TableReader r(t, "[[publications]] #" + std::to_string(i + 1), s_.source,
                  {"at_s", "node", "group", "size", "file", "count", "interval_s"});
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
    p.interval = seconds_to_micros(r.non_negative("interval_s").value_or(0.0));
    s_.publications.push_back(std::move(p));
  }

  std::filesystem::path base_dir_;
  Scenario s_;
  controllers::ControllerSettings defaults_;  // [controllers]
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source, const std::filesystem::path& base_dir) {
  if (auto problem = engine::toml_input_problem(text, source)) throw ScenarioError(*problem);
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << source << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    throw ScenarioError(msg.str());
  }
  return Parser(source, base_dir).run(root);
}

Scenario load_scenario_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path.string() + ": cannot open scenario file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_scenario(text, path.string(), path.parent_path());
}

}  // namespace dissem::sim

namespace dissem::sim {
namespace {

std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string seconds_text(Micros t) { return fmt::format("{}", static_cast<double>(t) / static_cast<double>(kSeconds)); }
std::string millis_text(Micros t) { return fmt::format("{}", static_cast<double>(t) / static_cast<double>(kMillis)); }

// Every field of a link, so a printed override or change stands on its own.
std::string link_fields(const LinkParams& l) {
  std::string out;
  out += fmt::format("reliability_pct = {}\n", l.reliability * 100.0);
  out += fmt::format("latency_ms = {}\njitter_ms = {}\n", millis_text(l.latency), millis_text(l.jitter));
  out += fmt::format("enabled = {}\n", l.enabled);
  return out;
}

bool same_link(const LinkParams& a, const LinkParams& b) {
  return a.reliability == b.reliability && a.latency == b.latency && a.jitter == b.jitter && a.enabled == b.enabled;
}

}  // namespace

std::string scenario_toml(const Scenario& sc) {
  std::string out = "# Generated by dissem-sim; the format is described in src/sim/scenario_file.h.\n";
  out += fmt::format("seed = {}\n", sc.seed);
  out += fmt::format("duration_s = {}\n", seconds_text(sc.duration));
  out += fmt::format("stop_when_complete = {}\n\n", sc.stop_when_complete);
  out += "[medium]\n";
  out += fmt::format("shared_channel = {}\nper_packet_overhead = {}\nqueue_packets = {}\n\n", sc.medium.shared_channel,
                     sc.medium.per_packet_overhead, sc.medium.queue_packets);
  out += "[links]\n";
  out += link_fields(sc.default_link);
  // The last override of each ordered pair is what counts; print those that
  // differ from the default, in pair order.
  std::vector<std::vector<const LinkParams*>> final_link(sc.nodes.size(),
                                                         std::vector<const LinkParams*>(sc.nodes.size(), nullptr));
  for (const auto& l : sc.links) final_link.at(l.from).at(l.to) = &l.params;
  for (std::size_t f = 0; f < sc.nodes.size(); ++f)
    for (std::size_t t = 0; t < sc.nodes.size(); ++t) {
      const LinkParams* p = final_link[f][t];
      if (p == nullptr || same_link(*p, sc.default_link)) continue;
      out += "\n[[links.override]]\n";
      out += fmt::format("from = {}\nto = {}\n", toml_string(sc.nodes[f].name), toml_string(sc.nodes[t].name));
      out += link_fields(*p);
    }
  for (const auto& c : sc.link_changes) {
    out += "\n[[link_changes]]\n";
    out += fmt::format("at_s = {}\nfrom = {}\nto = {}\n", seconds_text(c.at), toml_string(sc.nodes.at(c.from).name),
                       toml_string(sc.nodes.at(c.to).name));
    out += link_fields(c.params);
  }
  const controllers::ControllerSettings defaults;
  const auto default_settings = controllers::describe_settings(defaults);
  for (const auto& n : sc.nodes) {
    out += "\n[[nodes]]\n";
    out += fmt::format("name = {}\n", toml_string(n.name));
    out += fmt::format("capacity_bps = {}\n", n.capacity_bps);
    out += fmt::format("serve_requests = {}\ncache_unsubscribed = {}\n", n.serve_requests, n.cache_unsubscribed);
    std::string groups;
    for (const auto& g : n.subscribe) {
      if (!groups.empty()) groups += ", ";
      groups += toml_string(g);
    }
    out += fmt::format("subscribe = [{}]\n", groups);
    out += fmt::format("reliable = {}\nhistory = {}\n", n.reliable, n.history);
    out += fmt::format("subscribe_at_s = {}\n", seconds_text(n.subscribe_at));
    const auto settings = controllers::describe_settings(n.controllers);
    std::string changed;
    for (std::size_t i = 0; i < settings.size(); ++i) {
      if (settings[i] == default_settings[i]) continue;
      const auto& [key, text] = settings[i];
      changed += fmt::format("{} = {}\n", key, controllers::is_text_setting(key) ? toml_string(text) : text);
    }
    if (!changed.empty()) {
      out += "[nodes.controllers]\n";
      out += changed;
    }
  }
  for (const auto& p : sc.publications) {
    out += "\n[[publications]]\n";
    out += fmt::format("at_s = {}\nnode = {}\ngroup = {}\n", seconds_text(p.at), toml_string(sc.nodes.at(p.node).name),
                       toml_string(p.group));
    out += fmt::format("size = {}\ncount = {}\n", p.size, p.count);
    out += fmt::format("interval_s = {}\n", seconds_text(p.interval));
  }
  return out;
}

}  // namespace dissem::sim
