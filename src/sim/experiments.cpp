#include "sim/experiments.h"

#include <utility>

namespace dissem::sim {
namespace {

// Node `i` of a run as the paper's tables count it.
ReceiverOutcome receiver_outcome(const ScenarioResult& r, std::size_t i) {
  const ScenarioNodeOutcome& n = r.nodes.at(i);
  ReceiverOutcome o;
  o.node = i;
  o.messages = n.delivered;
  o.bytes = n.bytes;
  o.complete = n.complete;
  o.completed_at = n.completed_at;
  o.duplicate_deliveries = n.duplicate_deliveries;
  return o;
}

// What the UAV (node 0) and the ground nodes put on the air per message sent.
void tactical_overheads(TacticalResult& res) {
  const double sent = static_cast<double>(res.messages_sent);
  const NodeTraffic& uav_air = res.run.medium.nodes[0];
  const double payload = sent * static_cast<double>(res.params.message_size);
  res.sender_overhead_per_msg = (static_cast<double>(uav_air.on_air_bytes()) - payload) / sent;
  res.sender_overhead_wire_per_msg = (static_cast<double>(uav_air.on_air_bytes() + uav_air.header_bytes) - payload) / sent;
  std::uint64_t ground = 0;
  std::uint64_t ground_headers = 0;
  for (std::size_t i = 1; i < res.run.medium.nodes.size(); ++i) {
    ground += res.run.medium.nodes[i].on_air_bytes();
    ground_headers += res.run.medium.nodes[i].header_bytes;
  }
  res.p2p_overhead_per_msg = static_cast<double>(ground) / sent;
  res.p2p_overhead_wire_per_msg = static_cast<double>(ground + ground_headers) / sent;
}

}  // namespace

BaselineResult run_baseline(const BaselineParams& p) {
  const Scenario scenario = make_baseline(p);
  BaselineResult res;
  res.params = p;
  res.capacity_bps = kbps_to_bps(p.capacity_kbps);
  res.lower_bound_s = baseline_lower_bound_s(p);
  for (const auto& pub : scenario.publications) res.messages += pub.count;

  ScenarioResult run = run_scenario(scenario);
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 1; i < scenario.nodes.size(); ++i) {
    res.receivers.push_back(receiver_outcome(run, i));
    if (!res.receivers.back().complete) continue;
    sum += static_cast<double>(res.receivers.back().completed_at) / static_cast<double>(kSeconds);
    ++n;
  }
  res.mean_delivery_s = n > 0 ? sum / static_cast<double>(n) : 0.0;
  res.run = std::move(run.run);
  return res;
}

TacticalResult run_tactical(const TacticalParams& p) {
  const Scenario scenario = make_tactical(p);
  TacticalResult res;
  res.params = p;
  ScenarioResult run = run_scenario(scenario);
  for (std::size_t i = 1; i < scenario.nodes.size(); ++i)
    if (!scenario.nodes[i].subscribe.empty()) res.subscribers.push_back(receiver_outcome(run, i));
  res.run = std::move(run.run);
  res.messages_sent = res.run.node_stats[0].messages_published;
  double received = 0;
  for (const auto& s : res.subscribers) received += static_cast<double>(s.messages);
  res.mean_received = received / static_cast<double>(res.subscribers.size());
  if (res.messages_sent > 0) {
    res.success_pct = 100.0 * res.mean_received / static_cast<double>(res.messages_sent);
    tactical_overheads(res);
  }
  return res;
}

}  // namespace dissem::sim
