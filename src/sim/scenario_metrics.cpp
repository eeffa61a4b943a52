#include "sim/scenario_metrics.h"

#include <algorithm>
#include <set>

#include "engine/stats.h"

namespace dissem::sim {

std::size_t expected_messages(const Scenario& sc, std::size_t node) {
  const ScenarioNode& n = sc.nodes[node];
  // Publication times per (publisher, group): one stream each.
  std::map<std::pair<std::size_t, std::string>, std::vector<Micros>> streams;
  for (const auto& pub : sc.publications) {
    if (pub.node == node || std::find(n.subscribe.begin(), n.subscribe.end(), pub.group) == n.subscribe.end()) continue;
    auto& times = streams[{pub.node, pub.group}];
    for (std::size_t k = 0; k < pub.count; ++k)
      if (pub.offered(k)) times.push_back(pub.time_of(k));
  }
  // The engine's history is counted back from the first message of a
  // publisher the node hears of: a live one if the publisher is still
  // publishing, else the newest it finds cached (then fetched as well).
  std::size_t expected = 0;
  for (const auto& [stream, times] : streams) {
    const auto before = static_cast<std::size_t>(
        std::count_if(times.begin(), times.end(), [&](Micros t) { return t < n.subscribe_at; }));
    const std::size_t after = times.size() - before;
    expected += after + std::min<std::size_t>(before, after > 0 ? n.history : std::size_t{n.history} + 1);
  }
  return expected;
}

std::pair<std::uint64_t, std::uint64_t> fragment_counts(const Simulation& sim) {
  using engine::TrafficKind;
  std::uint64_t sent = 0;
  for (TrafficKind k : {TrafficKind::Data, TrafficKind::Repair, TrafficKind::Forward})
    sent += sim.medium().total.on_air[static_cast<std::size_t>(k)].datagrams;
  std::uint64_t duplicates = 0;
  for (std::size_t i = 0; i < sim.node_count(); ++i) duplicates += sim.node(i).stats().duplicate_fragments;
  return {sent, duplicates};
}

ScenarioNodeOutcome node_outcome(const Scenario& sc, const Simulation& sim, std::size_t i, std::size_t expected,
                                 const ReceiverOutcome& counts, const std::map<MessageId, Micros>& published_at,
                                 LatencySum& total) {
  ScenarioNodeOutcome o;
  o.name = sc.nodes[i].name;
  o.expected = expected;
  o.delivered = counts.messages;
  o.bytes = counts.bytes;
  o.complete = counts.complete;
  o.completed_at = counts.completed_at;
  o.duplicate_deliveries = counts.duplicate_deliveries;
  std::set<MessageId> seen;
  double sum = 0;
  std::size_t count = 0;
  for (const auto& d : sim.deliveries(i)) {
    const auto it = published_at.find(d.delivery.meta.id);
    if (it == published_at.end() || it->second < sc.nodes[i].subscribe_at || !seen.insert(it->first).second) continue;
    const double latency = static_cast<double>(d.received_at - it->second) / static_cast<double>(kSeconds);
    sum += latency;
    ++count;
    o.max_latency_s = std::max(o.max_latency_s, latency);
  }
  o.mean_latency_s = count > 0 ? sum / static_cast<double>(count) : 0.0;
  total.seconds += sum;
  total.count += count;
  return o;
}

ScenarioMetrics scenario_metrics(const Scenario& sc, const Simulation& sim, const std::vector<ScenarioNodeOutcome>& nodes) {
  ScenarioMetrics m;
  m.complete_at = 0;
  for (const auto& n : nodes) {
    m.expected += n.expected;
    m.delivered += std::min(n.delivered, n.expected);
    m.duplicate_deliveries += n.duplicate_deliveries;
    m.max_latency_s = std::max(m.max_latency_s, n.max_latency_s);
    if (!n.complete) m.complete_at = -1;
    if (m.complete_at >= 0) m.complete_at = std::max(m.complete_at, n.completed_at);
  }
  m.delivery_ratio = m.expected == 0 ? 1.0 : static_cast<double>(m.delivered) / static_cast<double>(m.expected);
  for (const auto& c : sc.link_changes) m.last_change_at = std::max(m.last_change_at, c.at);
  const NodeTraffic& total = sim.medium().total;
  using engine::TrafficKind;
  for (TrafficKind k : {TrafficKind::Data, TrafficKind::Repair, TrafficKind::Forward})
    m.fragment_transmissions += total.on_air[static_cast<std::size_t>(k)].datagrams;
  m.datagrams = total.on_air_datagrams();
  m.forwards = total.on_air[static_cast<std::size_t>(TrafficKind::Forward)].datagrams;
  for (std::size_t i = 0; i < sim.node_count(); ++i) {
    const engine::Stats& st = sim.node(i).stats();
    m.pushes += st.pushes_sent;
    m.summaries += st.summaries_sent;
    m.duplicate_fragments += st.duplicate_fragments;
  }
  m.transmissions_per_delivery =
      m.delivered == 0 ? 0.0 : static_cast<double>(m.fragment_transmissions) / static_cast<double>(m.delivered);
  return m;
}

}  // namespace dissem::sim
