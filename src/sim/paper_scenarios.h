// The paper's experiments (see /work/shared/reference/README.md sections 1
// and 2) as scenarios (scenario_file.h), built like the multi-hop topologies
// (topologies.h) and run by run_scenario; experiments.h derives the paper's
// figures from the runs. Node names, as the reports print them: "sender",
// r1..rN (baseline); "uav", sub1..subK (the subscribers), relay1..relayM
// (tactical).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"
#include "sim/scenario_file.h"

namespace dissem::sim {

// --- 1. Reliable multicast baseline -------------------------------------------
// One sender, `receivers` receivers, every pair linked alike; the sender
// publishes `bytes` at time 0 and every receiver subscribes reliably.

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

// k / (r C): bytes * 8 / (reliability * capacity), in seconds.
double baseline_lower_bound_s(const BaselineParams& params);
// One publication at time 0 of `bytes` in messages of `message_size` (the
// last one shorter when it does not divide `bytes`).
Scenario make_baseline(const BaselineParams& params);

// --- 2. Tactical network test ----------------------------------------------------
// A UAV sender that never serves repair requests (an engine setting of
// serve_requests does not reach it), over `ground_nodes` ground
// nodes that hear it at the sender reliability and each other at the ground
// reliability; the UAV publishes evenly over `window`.

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

// The paper's message count for a size (about 1.6 MB), or the nearest count
// to 1578 KB for other sizes.
std::size_t tactical_default_messages(std::uint32_t message_size);
Scenario make_tactical(const TacticalParams& params);

}  // namespace dissem::sim
