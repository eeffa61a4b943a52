// What a scenario run measures: per node, the messages it should receive and
// what it got (scenario_runner.h runs the scenario); over the run, delivery,
// latency and what the air carried.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"
#include "sim/completion_tracker.h"
#include "sim/scenario_file.h"
#include "sim/simulation.h"

namespace dissem::sim {

struct ScenarioNodeOutcome {
  std::string name;
  // Messages published by others in its groups: from its subscription on,
  // plus the `history` newest of each publisher before it.
  std::size_t expected = 0;
  std::size_t delivered = 0;  // distinct of those delivered
  std::uint64_t bytes = 0;
  bool complete = false;
  Micros completed_at = -1;  // delivery that completed it; -1 if incomplete, 0 if nothing expected
  std::size_t duplicate_deliveries = 0;  // a message delivered twice (must stay 0)
  // Publication to delivery, over messages published after it subscribed.
  double mean_latency_s = 0;
  double max_latency_s = 0;
};

// Figures over the whole run, for the multi-hop experiments.
struct ScenarioMetrics {
  std::size_t expected = 0;
  std::size_t delivered = 0;
  double delivery_ratio = 0;  // delivered / expected (1 when nothing was expected)
  double mean_latency_s = 0;  // over every delivery counted in the nodes' latencies
  double max_latency_s = 0;
  Micros complete_at = -1;     // when the last node completed; -1 if one never did
  Micros last_change_at = -1;  // the last link change; -1 without any
  // Datagrams carrying fragments (first pass, repairs and pushes, rebroadcasts).
  std::uint64_t fragment_transmissions = 0;
  std::uint64_t datagrams = 0;  // everything on the air
  double transmissions_per_delivery = 0;  // fragment transmissions / delivered
  std::uint64_t forwards = 0;             // rebroadcasts on the air
  std::uint64_t pushes = 0;               // replication pushes sent
  std::uint64_t summaries = 0;            // anti-entropy summaries sent
  std::uint64_t duplicate_fragments = 0;  // fragments received that a node already held
  std::size_t duplicate_deliveries = 0;
  // From the last link change on (0 without changes): what a heal cost.
  std::uint64_t fragment_transmissions_after_change = 0;
  std::uint64_t duplicate_fragments_after_change = 0;
  // Flow control: messages that waited for room in their publisher's send
  // budget, and those given up when their offer ended (offer_until).
  std::size_t publish_waits = 0;
  std::size_t not_offered = 0;
};

// Messages `node` should receive: every message another node publishes in a
// group it subscribes to from its subscription on, plus, per publisher, what
// its `history` covers of those published before it subscribed.
std::size_t expected_messages(const Scenario& scenario, std::size_t node);

// Fragments on the air and duplicate receptions so far, summed over nodes.
std::pair<std::uint64_t, std::uint64_t> fragment_counts(const Simulation& sim);

// Publication-to-delivery latencies of one node, summed.
struct LatencySum {
  double seconds = 0;
  std::size_t count = 0;
};

// Node `i`'s outcome: the tracker's `counts`, and the latency of each first
// delivery of a message published (at `published_at`) after it subscribed,
// also added to `total`.
ScenarioNodeOutcome node_outcome(const Scenario& scenario, const Simulation& sim, std::size_t i, std::size_t expected,
                                 const ReceiverOutcome& counts, const std::map<MessageId, Micros>& published_at,
                                 LatencySum& total);

// Everything but the mean latency and the figures after the last change,
// which the run adds from what it followed.
ScenarioMetrics scenario_metrics(const Scenario& scenario, const Simulation& sim,
                                 const std::vector<ScenarioNodeOutcome>& nodes);

}  // namespace dissem::sim
