#include "sim/scenario_runner.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/random.h"
#include "engine/config_keys.h"
#include "sim/completion_tracker.h"

namespace dissem::sim {
namespace {

// How often a publisher whose message the send budget refused tries again
// (dissem-load's publish waits for room in the daemon's queue).
constexpr Micros kPublishRetry = 10 * kMillis;

// Seed sub-streams for payloads, far from the medium (0) and nodes (1 + i).
constexpr std::uint64_t kPayloadStream = 1ULL << 32;

// The random bytes of message k of the scenario's publication number `publication`.
std::vector<std::uint8_t> random_payload(std::uint64_t seed, std::size_t publication, std::size_t k, std::uint64_t size) {
  Random rng(derive_seed(seed, kPayloadStream + (std::uint64_t{publication} << 20) + k));
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

// One run of a scenario, phase by phase; the simulation's actions refer to
// its members, so it stays where it is until the run is over.
class ScenarioRun {
 public:
  explicit ScenarioRun(const Scenario& sc) : sc_(sc), sim_(sc.seed, sc.medium) {}
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;

  void build();
  void schedule();
  bool run();
  ScenarioResult measure(bool complete) const;

 private:
  void schedule_link_changes();
  void schedule_subscriptions();
  void schedule_publications();
  // A message due now: published, or (the send budget full) queued behind
  // the node's earlier ones until there is room, as dissem-load waits.
  struct Waiting {
    std::size_t pub = 0;
    std::size_t k = 0;
    Micros due = 0;
    std::optional<engine::PublishRequest> request;  // built at its first try, kept while it waits
  };
  void publish_or_wait(Waiting w);
  bool try_publish(Waiting& w);
  void retry_waiting(std::size_t node);

  const Scenario& sc_;
  Simulation sim_;
  std::vector<NodeId> ids_;
  std::vector<std::size_t> expected_;
  std::map<MessageId, Micros> published_at_;
  Micros last_publish_ = 0;
  std::vector<std::deque<Waiting>> waiting_;  // per node, in publication order
  std::size_t publish_waits_ = 0;             // messages that waited for room
  std::size_t not_offered_ = 0;               // given up when their offer ended (offer_until)
  // Counts at the last change, to tell what came after it.
  std::pair<std::uint64_t, std::uint64_t> at_last_change_{0, 0};
  std::optional<CompletionTracker> tracker_;
};

void ScenarioRun::build() {
  sim_.set_all_links(sc_.default_link);
  std::vector<bool> publishes(sc_.nodes.size(), false);
  for (const auto& pub : sc_.publications) publishes.at(pub.node) = true;
  for (std::size_t i = 0; i < sc_.nodes.size(); ++i) {
    const ScenarioNode& n = sc_.nodes[i];
    const NodeRole role = publishes[i] ? NodeRole::Sender : n.subscribe.empty() ? NodeRole::Relay : NodeRole::Receiver;
    engine::EngineConfig cfg = experiment_node_config(n.capacity_bps, role);
    cfg.serve_requests = n.serve_requests;
    cfg.cache_unsubscribed = n.cache_unsubscribed;
    cfg.controllers = n.controllers;
    for (const auto& s : n.engine) engine::apply_config_assignment(cfg, s);
    sim_.add_node(cfg, n.capacity_bps);
    ids_.push_back(sim_.node(i).id());
  }
  for (const auto& l : sc_.links) sim_.set_link(l.from, l.to, l.params);
}

void ScenarioRun::schedule() {
  schedule_link_changes();
  schedule_subscriptions();
  for (std::size_t i = 0; i < sc_.nodes.size(); ++i) expected_.push_back(expected_messages(sc_, i));
  schedule_publications();
}

void ScenarioRun::schedule_link_changes() {
  for (const auto& c : sc_.link_changes)
    sim_.at(c.at, [c](Simulation& s) { s.set_link(c.from, c.to, c.params); });
  if (sc_.link_changes.empty()) return;
  Micros last = 0;
  for (const auto& c : sc_.link_changes) last = std::max(last, c.at);
  sim_.at(last, [this](Simulation& s) { at_last_change_ = fragment_counts(s); });
}

// Subscriptions go first among events of the same moment: a message
// published as a node subscribes counts as published after it.
void ScenarioRun::schedule_subscriptions() {
  for (std::size_t i = 0; i < sc_.nodes.size(); ++i) {
    sim_.at(sc_.nodes[i].subscribe_at, [this, i](Simulation& s) {
      engine::SubscriptionOptions opts;
      opts.reliable = sc_.nodes[i].reliable;
      opts.history = sc_.nodes[i].history;
      for (const auto& g : sc_.nodes[i].subscribe) s.subscribe(i, g, opts);
    });
  }
}

void ScenarioRun::schedule_publications() {
  for (std::size_t pi = 0; pi < sc_.publications.size(); ++pi) {
    const ScenarioPublication& pub = sc_.publications[pi];
    for (std::size_t k = 0; k < pub.count; ++k) {
      if (!pub.offered(k)) continue;
      const Micros t = pub.time_of(k);
      last_publish_ = std::max(last_publish_, t);
      sim_.at(t, [this, pi, k, t](Simulation&) { publish_or_wait({pi, k, t, std::nullopt}); });
    }
  }
}

bool ScenarioRun::try_publish(Waiting& w) {
  const ScenarioPublication& q = sc_.publications[w.pub];
  if (!w.request) {
    engine::PublishRequest& req = w.request.emplace();
    req.group = q.group;
    const std::uint64_t size = w.k + 1 == q.count && q.last_size > 0 ? q.last_size : q.size;
    req.payload = q.payload.empty() ? random_payload(sc_.seed, w.pub, w.k, size) : q.payload;
    req.priority = q.priority;
    req.lifetime_ms = q.lifetime_ms;
    req.tag = q.tag_of(w.k);
    req.replace = q.replace;
  }
  try {
    // Latency counts from the message's production, however long it waited.
    published_at_[sim_.publish(q.node, *w.request)] = w.due;
    return true;
  } catch (const engine::QueueFull&) {
    return false;
  }
}

void ScenarioRun::publish_or_wait(Waiting w) {
  const std::size_t node = sc_.publications[w.pub].node;
  if (waiting_.size() < sc_.nodes.size()) waiting_.resize(sc_.nodes.size());
  auto& queue = waiting_[node];
  if (queue.empty() && try_publish(w)) return;
  ++publish_waits_;
  queue.push_back(std::move(w));
  if (queue.size() == 1) sim_.at(sim_.now() + kPublishRetry, [this, node](Simulation&) { retry_waiting(node); });
}

void ScenarioRun::retry_waiting(std::size_t node) {
  auto& queue = waiting_[node];
  while (!queue.empty()) {
    Waiting& w = queue.front();
    const Micros offer_until = sc_.publications[w.pub].offer_until;
    if (offer_until > 0 && sim_.now() >= offer_until) {
      ++not_offered_;  // the offer ended while it waited
      queue.pop_front();
      continue;
    }
    if (!try_publish(w)) {
      sim_.at(sim_.now() + kPublishRetry, [this, node](Simulation&) { retry_waiting(node); });
      return;
    }
    queue.pop_front();
  }
}

bool ScenarioRun::run() {
  std::vector<std::size_t> all(sc_.nodes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  tracker_.emplace(all, expected_, [this](std::size_t node, const engine::Delivery& d) {
    return d.meta.id.publisher != ids_[node];
  });
  CompletionTracker& tracker = *tracker_;
  if (sc_.stop_when_complete) {
    sim_.run_until([&](const Simulation& s) { return s.now() >= last_publish_ && tracker.update(s); }, sc_.duration);
  } else {
    sim_.run_until(sc_.duration);
  }
  return tracker.update(sim_);
}

ScenarioResult ScenarioRun::measure(bool complete) const {
  ScenarioResult res;
  res.source = sc_.source;
  res.seed = sc_.seed;
  const auto outcomes = tracker_->outcomes();
  LatencySum latency;
  for (std::size_t i = 0; i < sc_.nodes.size(); ++i)
    res.nodes.push_back(node_outcome(sc_, sim_, i, expected_[i], outcomes[i], published_at_, latency));
  res.run = summarize(sim_, complete);
  res.metrics = scenario_metrics(sc_, sim_, res.nodes);
  if (!sc_.link_changes.empty()) {
    const auto end = fragment_counts(sim_);
    res.metrics.fragment_transmissions_after_change = end.first - at_last_change_.first;
    res.metrics.duplicate_fragments_after_change = end.second - at_last_change_.second;
  }
  res.metrics.publish_waits = publish_waits_;
  res.metrics.not_offered = not_offered_;
  res.metrics.mean_latency_s = latency.count > 0 ? latency.seconds / static_cast<double>(latency.count) : 0.0;
  return res;
}

}  // namespace

std::uint64_t kbps_to_bps(double kbps) {
  if (!(kbps > 0.0)) throw std::invalid_argument("capacity must be > 0 kbit/s");
  return static_cast<std::uint64_t>(std::llround(kbps * static_cast<double>(kBitsPerKbit)));
}

engine::EngineConfig experiment_node_config(std::uint64_t capacity_bps, [[maybe_unused]] NodeRole role) {
  // As in the paper's set-up, each node is configured with its link capacity
  // and may use all of it, whatever its role; `role` is there so sender
  // priority or a per-role rate split can be tuned here without touching the
  // scenario builders.
  engine::EngineConfig c;
  c.link_capacity_bps = capacity_bps;
  c.rate_limit_bps = capacity_bps;
  return c;
}

ScenarioResult run_scenario(const Scenario& scenario) {
  ScenarioRun run(scenario);
  run.build();
  run.schedule();
  const bool complete = run.run();
  return run.measure(complete);
}

}  // namespace dissem::sim
