#include "sim/experiments.h"

#include "engine/config_keys.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "core/random.h"
#include "sim/completion_tracker.h"

namespace dissem::sim {
namespace {

const std::string kBaselineGroup = "baseline-grp";
const std::string kTacticalGroup = "tactical-grp";

// Seed sub-streams for payloads, far from the medium (0) and nodes (1 + i).
constexpr std::uint64_t kPayloadStream = 1ULL << 32;

std::vector<std::uint8_t> make_payload(std::uint64_t seed, std::uint64_t size) {
  Random rng(seed);
  std::vector<std::uint8_t> out(size);
  for (std::size_t i = 0; i < out.size(); i += 8) {
    std::uint64_t v = rng.next();
    for (std::size_t j = i; j < std::min<std::size_t>(i + 8, out.size()); ++j, v >>= 8)
      out[j] = static_cast<std::uint8_t>(v & 0xffu);
  }
  return out;
}

RunSummary summarize(const Simulation& sim, bool complete) {
  RunSummary s;
  s.finished_at = sim.now();
  s.all_complete = complete;
  s.medium = sim.medium();
  for (std::size_t i = 0; i < sim.node_count(); ++i) s.node_stats.push_back(sim.node(i).stats());
  s.sim = sim.stats();
  s.trace_hash = sim.trace_hash();
  return s;
}

LinkParams link_at(double reliability_pct, Micros latency = 0) {
  LinkParams l;
  l.reliability = reliability_pct / 100.0;
  l.latency = latency;
  return l;
}

void check_pct(double pct, const char* what) {
  if (!(pct > 0.0 && pct <= 100.0)) throw std::invalid_argument(std::string(what) + " must be in (0, 100]");
}

}  // namespace

std::uint64_t kbps_to_bps(double kbps) {
  if (!(kbps > 0.0)) throw std::invalid_argument("capacity must be > 0 kbit/s");
  return static_cast<std::uint64_t>(std::llround(kbps * static_cast<double>(kBitsPerKbit)));
}

engine::EngineConfig experiment_node_config(std::uint64_t capacity_bps, [[maybe_unused]] NodeRole role,
                                            const std::vector<std::string>& settings) {
  // As in the paper's set-up, each node is configured with its link capacity
  // and may use all of it, whatever its role; `role` is there so sender
  // priority or a per-role rate split can be tuned here without touching the
  // experiment builders.
  engine::EngineConfig c;
  c.link_capacity_bps = capacity_bps;
  c.rate_limit_bps = capacity_bps;
  for (const auto& s : settings) engine::apply_config_assignment(c, s);
  return c;
}

// --- baseline ----------------------------------------------------------------------

BaselineResult run_baseline(const BaselineParams& p) {
  if (p.receivers == 0) throw std::invalid_argument("the baseline needs at least one receiver");
  if (p.bytes == 0) throw std::invalid_argument("the baseline needs bytes > 0");
  check_pct(p.reliability_pct, "reliability");

  BaselineResult res;
  res.params = p;
  res.capacity_bps = kbps_to_bps(p.capacity_kbps);
  const double reliability = p.reliability_pct / 100.0;
  res.lower_bound_s = static_cast<double>(p.bytes) * 8.0 / (reliability * static_cast<double>(res.capacity_bps));

  MediumConfig mc;
  mc.shared_channel = p.shared_channel;
  Simulation sim(p.seed, mc);
  sim.set_all_links(link_at(p.reliability_pct, p.latency));
  const std::size_t sender = sim.add_node(experiment_node_config(res.capacity_bps, NodeRole::Sender, p.engine_settings), res.capacity_bps);
  std::vector<std::size_t> receivers;
  for (std::size_t r = 0; r < p.receivers; ++r)
    receivers.push_back(sim.add_node(experiment_node_config(res.capacity_bps, NodeRole::Receiver, p.engine_settings), res.capacity_bps));

  std::vector<std::uint64_t> sizes;
  const std::uint64_t piece = p.message_size == 0 ? p.bytes : p.message_size;
  for (std::uint64_t off = 0; off < p.bytes; off += piece) sizes.push_back(std::min(piece, p.bytes - off));
  res.messages = sizes.size();

  sim.at(0, [&](Simulation& s) {
    engine::SubscriptionOptions opts;
    opts.reliable = true;
    for (std::size_t r : receivers) s.subscribe(r, kBaselineGroup, opts);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      engine::PublishRequest req;
      req.group = kBaselineGroup;
      req.payload = make_payload(derive_seed(p.seed, kPayloadStream + k), sizes[k]);
      s.publish(sender, req);
    }
  });

  const NodeId sender_id = sim.node(sender).id();
  CompletionTracker tracker(receivers, std::vector<std::size_t>(receivers.size(), res.messages),
                            [sender_id](std::size_t, const engine::Delivery& d) {
                              return d.meta.id.group == kBaselineGroup && d.meta.id.publisher == sender_id;
                            });
  const Micros limit = p.time_limit > 0
                           ? p.time_limit
                           : static_cast<Micros>(10.0 * res.lower_bound_s * static_cast<double>(kSeconds)) + 60 * kSeconds;
  const bool complete = sim.run_until([&](const Simulation& s) { return tracker.update(s); }, limit);

  res.receivers = tracker.outcomes();
  double sum = 0;
  std::size_t n = 0;
  for (const auto& r : res.receivers) {
    if (!r.complete) continue;
    sum += static_cast<double>(r.completed_at) / static_cast<double>(kSeconds);
    ++n;
  }
  res.mean_delivery_s = n > 0 ? sum / static_cast<double>(n) : 0.0;
  res.run = summarize(sim, complete);
  return res;
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

TacticalResult run_tactical(const TacticalParams& p) {
  check_pct(p.sender_reliability_pct, "sender reliability");
  check_pct(p.ground_reliability_pct, "ground reliability");
  if (p.ground_nodes == 0 || p.subscribers == 0 || p.subscribers > p.ground_nodes)
    throw std::invalid_argument("need 1 <= subscribers <= ground nodes");
  if (p.window <= 0) throw std::invalid_argument("the sender window must be > 0");

  TacticalResult res;
  res.params = p;
  const std::size_t count = p.messages > 0 ? p.messages : tactical_default_messages(p.message_size);
  const std::uint64_t sender_bps = kbps_to_bps(p.sender_capacity_kbps);
  const std::uint64_t ground_bps = kbps_to_bps(p.ground_capacity_kbps);

  MediumConfig mc;
  mc.shared_channel = p.shared_channel;
  Simulation sim(p.seed, mc);
  sim.set_all_links(link_at(p.ground_reliability_pct));
  engine::EngineConfig uav = experiment_node_config(sender_bps, NodeRole::Sender, p.engine_settings);
  uav.serve_requests = false;  // the paper's sender never serves MFRs: the ground repairs itself
  const std::size_t sender = sim.add_node(uav, sender_bps);
  std::vector<std::size_t> subscribers;
  for (std::size_t g = 0; g < p.ground_nodes; ++g) {
    const bool subscribes = g < p.subscribers;
    const std::size_t i = sim.add_node(
        experiment_node_config(ground_bps, subscribes ? NodeRole::Receiver : NodeRole::Relay, p.engine_settings), ground_bps);
    if (subscribes) subscribers.push_back(i);
    sim.set_link(sender, i, link_at(p.sender_reliability_pct));
    LinkParams up = link_at(p.sender_reliability_pct);
    up.enabled = !p.asymmetric;
    sim.set_link(i, sender, up);
  }

  sim.at(0, [&](Simulation& s) {
    for (std::size_t i : subscribers) s.subscribe(i, kTacticalGroup, engine::SubscriptionOptions{});
  });
  Micros last_publish = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const Micros t = p.window * static_cast<Micros>(k) / static_cast<Micros>(count);
    last_publish = t;
    sim.at(t, [&p, k, sender](Simulation& s) {
      engine::PublishRequest req;
      req.group = kTacticalGroup;
      req.payload = make_payload(derive_seed(p.seed, kPayloadStream + k), p.message_size);
      s.publish(sender, req);
    });
  }

  const NodeId sender_id = sim.node(sender).id();
  CompletionTracker tracker(subscribers, std::vector<std::size_t>(subscribers.size(), count),
                            [sender_id](std::size_t, const engine::Delivery& d) {
                              return d.meta.id.group == kTacticalGroup && d.meta.id.publisher == sender_id;
                            });
  const bool complete = sim.run_until(
      [&](const Simulation& s) { return tracker.update(s) && s.now() >= last_publish; }, p.window + p.settle);
  tracker.update(sim);

  res.messages_sent = sim.node(sender).stats().messages_published;
  res.subscribers = tracker.outcomes();
  res.run = summarize(sim, complete);
  double received = 0;
  for (const auto& s : res.subscribers) received += static_cast<double>(s.messages);
  res.mean_received = received / static_cast<double>(res.subscribers.size());
  if (res.messages_sent > 0) {
    const double sent = static_cast<double>(res.messages_sent);
    res.success_pct = 100.0 * res.mean_received / sent;
    const NodeTraffic& uav_air = res.run.medium.nodes[sender];
    const double payload = sent * static_cast<double>(p.message_size);
    res.sender_overhead_per_msg = (static_cast<double>(uav_air.on_air_bytes()) - payload) / sent;
    res.sender_overhead_wire_per_msg =
        (static_cast<double>(uav_air.on_air_bytes() + uav_air.header_bytes) - payload) / sent;
    std::uint64_t ground = 0;
    std::uint64_t ground_headers = 0;
    for (std::size_t i = 0; i < res.run.medium.nodes.size(); ++i) {
      if (i == sender) continue;
      ground += res.run.medium.nodes[i].on_air_bytes();
      ground_headers += res.run.medium.nodes[i].header_bytes;
    }
    res.p2p_overhead_per_msg = static_cast<double>(ground) / sent;
    res.p2p_overhead_wire_per_msg = static_cast<double>(ground + ground_headers) / sent;
  }
  return res;
}

// --- scenario files -------------------------------------------------------------------

namespace {

// Messages `node` should receive: every message another node publishes in a
// group it subscribes to from its subscription on, plus, per publisher, what
// its `history` covers of those published before it subscribed.
std::size_t expected_for(const Scenario& sc, std::size_t node) {
  const ScenarioNode& n = sc.nodes[node];
  // Publication times per (publisher, group): one stream each.
  std::map<std::pair<std::size_t, std::string>, std::vector<Micros>> streams;
  for (const auto& pub : sc.publications) {
    if (pub.node == node || std::find(n.subscribe.begin(), n.subscribe.end(), pub.group) == n.subscribe.end()) continue;
    auto& times = streams[{pub.node, pub.group}];
    for (std::size_t k = 0; k < pub.count; ++k) times.push_back(pub.at + static_cast<Micros>(k) * pub.interval);
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

// Everything but the mean latency, which run_scenario weighs by deliveries.
// Fragments on the air and duplicate receptions so far, summed over nodes.
std::pair<std::uint64_t, std::uint64_t> fragment_counts(const Simulation& sim) {
  using engine::TrafficKind;
  std::uint64_t sent = 0;
  for (TrafficKind k : {TrafficKind::Data, TrafficKind::Repair, TrafficKind::Forward})
    sent += sim.medium().total.on_air[static_cast<std::size_t>(k)].datagrams;
  std::uint64_t duplicates = 0;
  for (std::size_t i = 0; i < sim.node_count(); ++i) duplicates += sim.node(i).stats().duplicate_fragments;
  return {sent, duplicates};
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

}  // namespace

ScenarioResult run_scenario(const Scenario& sc) {
  ScenarioResult res;
  res.source = sc.source;
  res.seed = sc.seed;

  Simulation sim(sc.seed, sc.medium);
  sim.set_all_links(sc.default_link);
  std::vector<bool> publishes(sc.nodes.size(), false);
  for (const auto& pub : sc.publications) publishes.at(pub.node) = true;
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) {
    const ScenarioNode& n = sc.nodes[i];
    const NodeRole role = publishes[i] ? NodeRole::Sender : n.subscribe.empty() ? NodeRole::Relay : NodeRole::Receiver;
    engine::EngineConfig cfg = experiment_node_config(n.capacity_bps, role);
    cfg.serve_requests = n.serve_requests;
    cfg.cache_unsubscribed = n.cache_unsubscribed;
    cfg.controllers = n.controllers;
    sim.add_node(cfg, n.capacity_bps);
  }
  for (const auto& l : sc.links) sim.set_link(l.from, l.to, l.params);
  for (const auto& c : sc.link_changes)
    sim.at(c.at, [c](Simulation& s) { s.set_link(c.from, c.to, c.params); });
  // Counts at the last change, to tell what came after it.
  std::pair<std::uint64_t, std::uint64_t> at_last_change{0, 0};
  if (!sc.link_changes.empty()) {
    Micros last = 0;
    for (const auto& c : sc.link_changes) last = std::max(last, c.at);
    sim.at(last, [&at_last_change](Simulation& s) { at_last_change = fragment_counts(s); });
  }

  // Subscriptions go first among events of the same moment: a message
  // published as a node subscribes counts as published after it.
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) {
    sim.at(sc.nodes[i].subscribe_at, [&sc, i](Simulation& s) {
      engine::SubscriptionOptions opts;
      opts.reliable = sc.nodes[i].reliable;
      opts.history = sc.nodes[i].history;
      for (const auto& g : sc.nodes[i].subscribe) s.subscribe(i, g, opts);
    });
  }

  std::vector<std::size_t> expected(sc.nodes.size(), 0);
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) expected[i] = expected_for(sc, i);
  std::map<MessageId, Micros> published_at;
  Micros last_publish = 0;
  for (std::size_t pi = 0; pi < sc.publications.size(); ++pi) {
    const ScenarioPublication& pub = sc.publications[pi];
    for (std::size_t k = 0; k < pub.count; ++k) {
      const Micros t = pub.at + static_cast<Micros>(k) * pub.interval;
      last_publish = std::max(last_publish, t);
      sim.at(t, [&sc, &published_at, pi, k](Simulation& s) {
        const ScenarioPublication& q = sc.publications[pi];
        engine::PublishRequest req;
        req.group = q.group;
        req.payload = q.payload.empty() ? make_payload(derive_seed(sc.seed, kPayloadStream + (pi << 20) + k), q.size)
                                        : q.payload;
        published_at[s.publish(q.node, req)] = s.now();
      });
    }
  }

  std::vector<std::size_t> all(sc.nodes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<NodeId> ids;
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) ids.push_back(sim.node(i).id());
  CompletionTracker tracker(all, expected, [&ids](std::size_t node, const engine::Delivery& d) {
    return d.meta.id.publisher != ids[node];
  });
  bool complete = false;
  if (sc.stop_when_complete) {
    complete = sim.run_until([&](const Simulation& s) { return s.now() >= last_publish && tracker.update(s); },
                             sc.duration);
  } else {
    sim.run_until(sc.duration);
  }
  complete = tracker.update(sim);

  const auto outcomes = tracker.outcomes();
  double latency_sum = 0;
  std::size_t latency_count = 0;
  for (std::size_t i = 0; i < sc.nodes.size(); ++i) {
    ScenarioNodeOutcome o;
    o.name = sc.nodes[i].name;
    o.expected = expected[i];
    o.delivered = outcomes[i].messages;
    o.bytes = outcomes[i].bytes;
    o.complete = outcomes[i].complete;
    o.completed_at = outcomes[i].completed_at;
    o.duplicate_deliveries = outcomes[i].duplicate_deliveries;
    // Latency of each first delivery of a message published after the node subscribed.
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
    latency_sum += sum;
    latency_count += count;
    res.nodes.push_back(std::move(o));
  }
  res.run = summarize(sim, complete);
  res.metrics = scenario_metrics(sc, sim, res.nodes);
  if (!sc.link_changes.empty()) {
    const auto end = fragment_counts(sim);
    res.metrics.fragment_transmissions_after_change = end.first - at_last_change.first;
    res.metrics.duplicate_fragments_after_change = end.second - at_last_change.second;
  }
  res.metrics.mean_latency_s = latency_count > 0 ? latency_sum / static_cast<double>(latency_count) : 0.0;
  return res;
}

}  // namespace dissem::sim
