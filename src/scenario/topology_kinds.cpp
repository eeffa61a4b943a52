#include "scenario/topology_kinds.h"

#include <fmt/format.h>

#include <fstream>
#include <iterator>

#include "scenario/scenario_error.h"

namespace dissem::scenario {
namespace {

using Kind = Param::Kind;

void read_grid(const TableReader& t, TopologySpec& spec, std::size_t n) {
  const auto rows = t.integer("rows");
  const auto cols = t.integer("cols");
  if (!rows || *rows < 1) t.fail("rows", rows ? "must be at least 1" : "is required");
  if (!cols || *cols < 1) t.fail("cols", cols ? "must be at least 1" : "is required");
  spec.rows = static_cast<std::size_t>(*rows);
  spec.cols = static_cast<std::size_t>(*cols);
  if (spec.rows * spec.cols != n)
    t.fail("rows", fmt::format("{} x {} grid needs {} nodes, the scenario has {}", spec.rows, spec.cols, spec.rows * spec.cols, n));
}

void read_geometric(const TableReader& t, TopologySpec& spec, std::size_t n) {
  if (t.has("radius") == t.has("degree")) t.fail("radius", "give exactly one of radius and degree (the target mean degree)");
  if (auto r = t.number("radius")) {
    if (*r < 0.01 || *r > 1.414) t.fail("radius", fmt::format("{:g} is outside 0.01..1.414", *r));
    spec.radius = *r;
  }
  if (auto d = t.number("degree")) {
    if (n < 2 || !(*d > 0) || *d > static_cast<double>(n - 1))
      t.fail("degree", fmt::format("{:g} is outside (0, {}] (the nodes but one)", *d, n > 0 ? n - 1 : 0));
    spec.degree = *d;
  }
  spec.graph_seed = t.count("graph_seed").value_or(1);
}

void read_partition(const TableReader& t, TopologySpec& spec, const NodeSet& nodes, const std::set<std::string>& names) {
  const int n = static_cast<int>(nodes.size());
  const toml::array* clusters = t.node("clusters") ? t.node("clusters")->as_array() : nullptr;
  if (!t.has("clusters")) t.fail("clusters", "is required");
  std::vector<std::int64_t> sizes;
  if (clusters != nullptr)
    for (const toml::node& c : *clusters)
      if (auto v = c.value_exact<std::int64_t>(); v && *v >= 1) sizes.push_back(*v);
  if (clusters == nullptr || clusters->size() != 2 || sizes.size() != 2)
    t.fail("clusters", "expected two cluster sizes, e.g. [3, 3]");
  if (sizes[0] + sizes[1] != n) t.fail("clusters", fmt::format("sizes {} + {} != {} nodes", sizes[0], sizes[1], n));
  const int a_size = static_cast<int>(sizes[0]);
  spec.clusters = {a_size, static_cast<int>(sizes[1])};
  const auto bridge =
      t.string_or_list("bridge").value_or(std::vector<std::string>{std::to_string(a_size), std::to_string(a_size + 1)});
  if (bridge.size() != 2) t.fail("bridge", "expected two nodes, one per cluster");
  const auto a = nodes.resolve_one(bridge[0], t.source(), t.path("bridge"));
  const auto b = nodes.resolve_one(bridge[1], t.source(), t.path("bridge"));
  if (a.size() != 1 || b.size() != 1 || !(a[0] <= a_size && a_size < b[0]))
    t.fail("bridge", fmt::format("first node must be in cluster A (ids 1..{}), second in cluster B (ids {}..{})", a_size,
                                 a_size + 1, n));
  spec.bridge = {a[0], b[0]};
  spec.partition_at_s = required_param(t, "partition_at_s", names, Kind::Number, {0.0, std::nullopt});
  spec.heal_at_s = required_param(t, "heal_at_s", names, Kind::Number, {0.0, std::nullopt});
  const auto& p = spec.partition_at_s->constant();
  const auto& h = spec.heal_at_s->constant();
  if (p && h && as_double(*h) <= as_double(*p))
    t.fail("heal_at_s", fmt::format("{} is not after partition_at_s {}", value_text(*h), value_text(*p)));
}

void read_eel(const TableReader& t, TopologySpec& spec, const std::set<std::string>& names,
              const std::filesystem::path& dir) {
  if (t.has("eel") == t.has("eel_file")) t.fail("eel", "give exactly one of eel (inline text) and eel_file");
  spec.eel_convention = t.string("eel_convention").value_or("sender-first");
  if (spec.eel_convention != "sender-first" && spec.eel_convention != "receiver-first")
    t.fail("eel_convention", fmt::format("'{}' is not one of receiver-first, sender-first", spec.eel_convention));
  const std::string key = t.has("eel") ? "eel" : "eel_file";
  spec.eel_key = t.path(key);
  std::string text;
  if (key == "eel") {
    text = t.required_string("eel");
  } else {
    const std::filesystem::path path = dir / t.required_string("eel_file");
    std::ifstream in(path, std::ios::binary);
    if (!in) t.fail("eel_file", "cannot read " + path.string());
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  try {
    spec.eel_text.emplace(text);
    spec.eel_text->check_names(names);
  } catch (const TemplateError& e) {
    t.fail(key, e.what());
  }
}

}  // namespace

void read_kind_keys(const TableReader& t, TopologySpec& spec, const NodeSet& nodes, const std::set<std::string>& names,
                    const std::filesystem::path& scenario_dir) {
  if (spec.kind == "grid") read_grid(t, spec, nodes.size());
  if (spec.kind == "geometric") read_geometric(t, spec, nodes.size());
  if (spec.kind == "partition-heal") read_partition(t, spec, nodes, names);
  if (spec.kind == "eel") read_eel(t, spec, names, scenario_dir);
}

}  // namespace dissem::scenario
