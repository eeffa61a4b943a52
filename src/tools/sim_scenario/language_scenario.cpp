#include "tools/sim_scenario/language_scenario.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "config/toml_parse.h"
#include "engine/config_keys.h"
#include "scenario/cell.h"
#include "scenario/expansion.h"
#include "scenario/scenario_document.h"
#include "scenario/scenario_error.h"
#include "sim/language_links.h"
#include "sim/scenario_runner.h"
#include "tools/load/message_plan.h"
#include "tools/load/workload.h"
#include "tools/sim_scenario/node_workload.h"
#include "tools/sim_scenario/run_names.h"

namespace dissem::sim_scenario {
namespace {

using scenario::fail;

Micros micros(double s) { return static_cast<Micros>(std::llround(s * static_cast<double>(kSeconds))); }

const scenario::SystemSpec& pick_system(const scenario::ScenarioDocument& doc, const std::string& wanted) {
  std::vector<std::string> names;
  for (const auto& [name, s] : doc.systems) names.push_back(name);
  if (wanted.empty() && doc.systems.size() == 1) return doc.systems.begin()->second;
  const auto it = doc.systems.find(wanted);
  if (it != doc.systems.end()) return it->second;
  fail(doc.source, "systems",
       wanted.empty() ? fmt::format("pick one with --system (systems: {})", fmt::join(names, ", "))
                      : fmt::format("--system {}: no such system (systems: {})", wanted, fmt::join(names, ", ")));
}

// dissem-load publish --messages: runs of equal sizes, --interval-s apart.
void add_message_list(sim::Scenario& s, std::size_t node, const Publish& p) {
  const auto sizes = load::parse_message_sizes(p.args.messages);
  const Micros interval = micros(p.args.interval_s);
  for (std::size_t i = 0; i < sizes.size();) {
    std::size_t j = i;
    while (j < sizes.size() && sizes[j] == sizes[i]) ++j;
    sim::ScenarioPublication pub;
    pub.at = micros(p.at_s) + static_cast<Micros>(i) * interval;
    pub.node = node;
    pub.group = p.args.group;
    pub.size = sizes[i];
    pub.count = j - i;
    pub.interval = interval;
    pub.priority = p.args.priority;  // --messages: untagged, never replacing
    s.publications.push_back(std::move(pub));
    i = j;
  }
}

// dissem-load publish with a workload: each stream, evenly over its span.
void add_workload(sim::Scenario& s, std::size_t node, const Publish& p) {
  const auto workload = load::workload_from_options(p.args.plan, p.args.streams);
  const load::TagScheme tags = load::parse_tag_scheme(p.args.tag_scheme);
  for (const auto& st : workload.streams) {
    sim::ScenarioPublication pub;
    // Tags and replacement as dissem-load sets them (tools/load/load_publisher.cpp).
    pub.priority = st.priority;
    pub.lifetime_ms = st.lifetime_ms;
    if (tags != load::TagScheme::None) pub.tag = st.name;
    if (tags == load::TagScheme::Source) pub.sources = st.sources;
    pub.replace = st.replace && !p.args.no_replace;
    if (pub.replace && pub.tag.empty())
      fail(s.source, p.key, fmt::format("dissem-load --tag-scheme none: stream '{}' replaces, which needs a tag", st.name));
    pub.at = micros(p.at_s + st.start_s);
    pub.node = node;
    pub.group = p.args.group;
    pub.size = st.bytes;
    pub.count = st.count;
    if (st.count > 1) pub.spread = micros(static_cast<double>(st.count) / st.rate_hz);
    s.publications.push_back(std::move(pub));
  }
}

void add_publications(sim::Scenario& s, std::size_t node, const Publish& p) {
  const std::size_t first = s.publications.size();
  try {
    if (!p.args.messages.empty() && (!p.args.plan.empty() || !p.args.streams.empty()))
      fail(s.source, p.key, "dissem-load: --messages or a workload, not both");
    if (!p.args.messages.empty())
      add_message_list(s, node, p);
    else if (!p.args.plan.empty() || !p.args.streams.empty())
      add_workload(s, node, p);
    else
      fail(s.source, p.key, "dissem-load publish: needs --messages or a workload (--plan, --stream)");
  } catch (const std::invalid_argument& e) {
    fail(s.source, p.key, std::string("dissem-load: ") + e.what());
  }
  // --offer-for-s: messages due from the command's start plus that long on are not published.
  if (p.args.offer_for_s > 0)
    for (std::size_t i = first; i < s.publications.size(); ++i) s.publications[i].offer_until = micros(p.at_s + p.args.offer_for_s);
}

void add_subscription(sim::ScenarioNode& n, const Receive& r, const std::string& source) {
  const bool first = n.subscribe.empty();
  if (!first && (n.reliable != !r.args.unreliable || n.history != r.args.history || n.subscribe_at != micros(r.at_s)))
    fail(source, r.key, fmt::format("node {} subscribes twice with other options: the simulator has one set per node", n.name));
  n.subscribe.push_back(r.args.group);
  n.reliable = !r.args.unreliable;
  n.history = r.args.history;
  n.subscribe_at = micros(r.at_s);
}

// The node's engine settings: dissemd's configuration where it differs from
// what the simulator's runner starts from (sim/scenario_runner.h).
void set_engine(sim::ScenarioNode& n, const daemon::DaemonConfig& d, int id) {
  engine::EngineConfig cfg = daemon::engine_config_for(d, static_cast<NodeId>(id), engine::EngineConfig{}.seed);
  n.controllers = cfg.controllers;
  engine::EngineConfig base = sim::experiment_node_config(n.capacity_bps, sim::NodeRole::Relay);
  base.controllers = cfg.controllers;
  const auto want = engine::describe_config(cfg);
  const auto have = engine::describe_config(base);
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& [key, value] = want[i];
    if (key == "node_id" && d.node.node_id == 0) continue;  // the simulator numbers its nodes
    if (key == "seed" && d.engine.seed == 0) continue;      // and draws their seeds from its own
    if (value != have[i].second) n.engine.push_back(key + "=" + value);
  }
}

}  // namespace

bool is_language_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  toml::table root;
  if (config::parse_toml(text, path.string(), root)) return false;  // the reader of either format says what is wrong
  return root.contains("systems");
}

sim::Scenario language_scenario(const std::filesystem::path& path, const LanguageChoice& choice) {
  const auto doc = scenario::load_document(path);
  if (const auto* n = doc.root["nodes"]["start_delay_s"].as_table(); n != nullptr && !n->empty())
    fail(doc.source, "nodes.start_delay_s", "the simulator starts every node at t = 0");
  if (!doc.networks.empty())
    fail(doc.source, "networks", "the simulator gives each node one radio on one network (dissem-emu runs several)");
  const auto& system = pick_system(doc, choice.system);
  const auto cell = scenario::pick_cell(doc.matrix, choice.cells, doc.source);
  const auto names = scenario::cell_names(doc.name, doc.nodes, cell, choice.seed);
  const double limit = doc.time_limit_s->number(names);
  const auto work = read_node_workloads(doc, system, run_names(doc, names, system.name, limit));

  sim::Scenario s;
  s.source = doc.source;
  s.seed = choice.seed;
  s.duration = micros(limit);
  std::vector<bool> runs_daemon;
  std::vector<std::uint64_t> fallback;
  for (const auto& node : doc.nodes.nodes()) {
    s.nodes.push_back({});
    s.nodes.back().name = node.name;
    const auto& w = work[static_cast<std::size_t>(node.id - 1)];
    runs_daemon.push_back(w.daemon.has_value());
    fallback.push_back(w.daemon ? w.daemon->engine.link_capacity_bps : engine::EngineConfig{}.link_capacity_bps);
  }
  const auto x = scenario::expand(doc.topology, names, doc.nodes.size(), choice.seed, limit);
  sim::apply_language_links(s, x, doc.emulator, names, runs_daemon, fallback);
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    const auto& w = work[i];
    if (w.daemon) set_engine(s.nodes[i], *w.daemon, static_cast<int>(i + 1));
    for (const auto& r : w.receive) add_subscription(s.nodes[i], r, s.source);
    for (const auto& p : w.publish) add_publications(s, i, p);
  }
  return s;
}

}  // namespace dissem::sim_scenario
