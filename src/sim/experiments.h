// Builders for the paper's experiments (see /work/shared/reference/README.md
// sections 1 and 2) and for user scenario files. Each runs a Simulation to
// completion and returns plain result structs; report.h prints them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/stats.h"
#include "core/types.h"
#include "sim/completion_tracker.h"
#include "sim/medium.h"
#include "sim/scenario_file.h"
#include "sim/simulation.h"

namespace dissem::sim {

// The paper's "kbit/s" are 1024 bit/s: its NORM figures put 864,884 bytes
// through a "256 kbps" link in 26.4 s, which is 262,144 bit/s.
constexpr std::uint64_t kBitsPerKbit = 1024;
std::uint64_t kbps_to_bps(double kbps);

enum class NodeRole { Sender, Receiver, Relay };

// The engine configuration of every node the experiments create: the one
// place to tune the engine for the paper runs. Callers only add what the
// experiment itself defines (e.g. a sender that does not serve requests).
// `settings` are "key=value" engine overrides (engine/config_keys.h), applied
// last; a bad one throws engine::ConfigError naming the key.
engine::EngineConfig experiment_node_config(std::uint64_t capacity_bps, NodeRole role,
                                            const std::vector<std::string>& settings = {});

// What every run reports beside its own metrics.
struct RunSummary {
  Micros finished_at = 0;  // virtual time the run stopped
  bool all_complete = false;
  MediumStats medium;  // as at finished_at
  std::vector<engine::Stats> node_stats;
  SimStats sim;
  std::uint64_t trace_hash = 0;
};

// --- 1. Reliable multicast baseline -------------------------------------------

struct BaselineParams {
  std::vector<std::string> engine_settings;  // key=value overrides for every node
  std::size_t receivers = 3;
  double capacity_kbps = 256;
  double reliability_pct = 100;
  std::uint64_t bytes = 819'200;
  std::uint64_t message_size = 0;  // 0: one message of `bytes`; else split into messages of this size
  std::uint64_t seed = 1;
  bool shared_channel = false;
  Micros latency = 0;
  Micros time_limit = 0;  // 0: 10 x the lower bound + 60 s
};

struct BaselineResult {
  BaselineParams params;
  std::uint64_t capacity_bps = 0;
  std::size_t messages = 0;
  std::vector<ReceiverOutcome> receivers;
  double mean_delivery_s = 0;  // over complete receivers
  double lower_bound_s = 0;    // k / (r C): bytes * 8 / (reliability * capacity)
  RunSummary run;
};

BaselineResult run_baseline(const BaselineParams& params);

// --- 2. Tactical network test ----------------------------------------------------

struct TacticalParams {
  std::vector<std::string> engine_settings;  // key=value overrides for every node
  double sender_reliability_pct = 90;
  std::uint32_t message_size = 1024;
  std::size_t messages = 0;  // 0: the paper's count for this size (~1.6 MB in all)
  bool asymmetric = false;   // ground -> sender links disabled
  Micros window = 70 * kSeconds;  // the sender publishes evenly over this window
  Micros settle = 60 * kSeconds;  // after it, the ground nodes may keep repairing this long
  double sender_capacity_kbps = 230;
  double ground_capacity_kbps = 1024;
  double ground_reliability_pct = 90;
  std::size_t ground_nodes = 9;
  std::size_t subscribers = 3;  // the first ground nodes; the others only cache
  std::uint64_t seed = 1;
  bool shared_channel = false;
};

struct TacticalResult {
  TacticalParams params;
  std::size_t messages_sent = 0;
  std::vector<ReceiverOutcome> subscribers;
  double mean_received = 0;  // complete messages per subscriber
  double success_pct = 0;
  // (sender's bytes on the air - published payload bytes) / messages sent.
  double sender_overhead_per_msg = 0;       // UDP payload bytes
  double sender_overhead_wire_per_msg = 0;  // plus IPv4/UDP headers
  // Everything the ground nodes put on the air / messages sent.
  double p2p_overhead_per_msg = 0;
  double p2p_overhead_wire_per_msg = 0;
  RunSummary run;
};

// The paper's message count for a size (about 1.6 MB), or the nearest count
// to 1578 KB for other sizes.
std::size_t tactical_default_messages(std::uint32_t message_size);
TacticalResult run_tactical(const TacticalParams& params);

// --- User scenario files ----------------------------------------------------------

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
};

struct ScenarioResult {
  std::string source;
  std::uint64_t seed = 0;
  std::vector<ScenarioNodeOutcome> nodes;
  ScenarioMetrics metrics;
  RunSummary run;
};

ScenarioResult run_scenario(const Scenario& scenario);

}  // namespace dissem::sim
