#include "sim/paper_scenarios.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "sim/scenario_runner.h"

namespace dissem::sim {
namespace {

const std::string kBaselineGroup = "baseline-grp";
const std::string kTacticalGroup = "tactical-grp";

void check_pct(double pct, const char* what) {
  if (!(pct > 0.0 && pct <= 100.0)) throw std::invalid_argument(std::string(what) + " must be in (0, 100]");
}

LinkParams link_at(double reliability_pct, Micros latency = 0) {
  LinkParams l;
  l.reliability = reliability_pct / 100.0;
  l.latency = latency;
  return l;
}

// A node that subscribes (reliably, nothing before the first message heard)
// to `group`, or to nothing when it is empty.
ScenarioNode paper_node(std::string name, std::uint64_t capacity_bps, const std::vector<std::string>& engine_settings,
                        const std::string& group) {
  ScenarioNode n;
  n.name = std::move(name);
  n.capacity_bps = capacity_bps;
  if (!group.empty()) n.subscribe = {group};
  n.engine = engine_settings;
  return n;
}

// Messages of node 0 in `group`, all from time 0.
ScenarioPublication sender_publication(const std::string& group, std::uint64_t size, std::size_t count) {
  ScenarioPublication p;
  p.node = 0;
  p.group = group;
  p.size = size;
  p.count = count;
  return p;
}

}  // namespace

// --- baseline ----------------------------------------------------------------------

double baseline_lower_bound_s(const BaselineParams& p) {
  const double reliability = p.reliability_pct / 100.0;
  return static_cast<double>(p.bytes) * 8.0 / (reliability * static_cast<double>(kbps_to_bps(p.capacity_kbps)));
}

Scenario make_baseline(const BaselineParams& p) {
  if (p.receivers == 0) throw std::invalid_argument("the baseline needs at least one receiver");
  if (p.bytes == 0) throw std::invalid_argument("the baseline needs bytes > 0");
  check_pct(p.reliability_pct, "reliability");
  const std::uint64_t bps = kbps_to_bps(p.capacity_kbps);

  Scenario s;
  s.source = fmt::format("baseline: 1 sender, {} receivers", p.receivers);
  s.seed = p.seed;
  s.duration = p.time_limit > 0 ? p.time_limit
                                : static_cast<Micros>(10.0 * baseline_lower_bound_s(p) * static_cast<double>(kSeconds)) +
                                      60 * kSeconds;
  s.stop_when_complete = true;
  s.medium.shared_channel = p.shared_channel;
  s.default_link = link_at(p.reliability_pct, p.latency);
  s.nodes.push_back(paper_node("sender", bps, p.engine_settings, ""));
  for (std::size_t r = 0; r < p.receivers; ++r)
    s.nodes.push_back(paper_node(fmt::format("r{}", r + 1), bps, p.engine_settings, kBaselineGroup));

  const std::uint64_t piece = p.message_size == 0 ? p.bytes : std::min(p.message_size, p.bytes);
  const std::uint64_t rest = p.bytes % piece;
  const auto count = static_cast<std::size_t>(p.bytes / piece) + (rest > 0 ? 1 : 0);
  ScenarioPublication pub = sender_publication(kBaselineGroup, piece, count);
  pub.last_size = rest;
  s.publications.push_back(std::move(pub));
  return s;
}

// --- tactical ----------------------------------------------------------------------

std::size_t tactical_default_messages(std::uint32_t message_size) {
  switch (message_size) {
    case 1024: return 1578;
    case 7168: return 228;
    case 15360: return 108;
    case 35840: return 46;
    default: break;
  }
  if (message_size == 0) throw std::invalid_argument("message size must be > 0");
  const double n = std::round(1578.0 * 1024.0 / static_cast<double>(message_size));
  return std::max<std::size_t>(1, static_cast<std::size_t>(n));
}

Scenario make_tactical(const TacticalParams& p) {
  check_pct(p.sender_reliability_pct, "sender reliability");
  check_pct(p.ground_reliability_pct, "ground reliability");
  if (p.ground_nodes == 0 || p.subscribers == 0 || p.subscribers > p.ground_nodes)
    throw std::invalid_argument("need 1 <= subscribers <= ground nodes");
  if (p.window <= 0) throw std::invalid_argument("the sender window must be > 0");
  const std::size_t count = p.messages > 0 ? p.messages : tactical_default_messages(p.message_size);
  const std::uint64_t sender_bps = kbps_to_bps(p.sender_capacity_kbps);
  const std::uint64_t ground_bps = kbps_to_bps(p.ground_capacity_kbps);

  Scenario s;
  s.source = fmt::format("tactical: UAV and {} ground nodes, {} subscribe", p.ground_nodes, p.subscribers);
  s.seed = p.seed;
  s.duration = p.window + p.settle;
  s.stop_when_complete = true;
  s.medium.shared_channel = p.shared_channel;
  s.default_link = link_at(p.ground_reliability_pct);
  // The paper's sender never serves MFRs, whatever the engine settings say:
  // the ground repairs itself.
  std::vector<std::string> uav_settings;
  for (const auto& setting : p.engine_settings)
    if (setting.substr(0, setting.find('=')) != "serve_requests") uav_settings.push_back(setting);
  ScenarioNode uav = paper_node("uav", sender_bps, uav_settings, "");
  uav.serve_requests = false;
  s.nodes.push_back(std::move(uav));
  for (std::size_t g = 0; g < p.ground_nodes; ++g) {
    const bool subscribes = g < p.subscribers;
    s.nodes.push_back(paper_node(subscribes ? fmt::format("sub{}", g + 1) : fmt::format("relay{}", g + 1 - p.subscribers),
                                 ground_bps, p.engine_settings, subscribes ? kTacticalGroup : ""));
    const std::size_t i = g + 1;
    s.links.push_back({0, i, link_at(p.sender_reliability_pct)});
    LinkParams up = link_at(p.sender_reliability_pct);
    up.enabled = !p.asymmetric;
    s.links.push_back({i, 0, up});
  }
  ScenarioPublication pub = sender_publication(kTacticalGroup, p.message_size, count);
  pub.spread = p.window;
  s.publications.push_back(std::move(pub));
  return s;
}

}  // namespace dissem::sim
