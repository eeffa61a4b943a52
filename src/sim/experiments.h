// The paper's experiments (see /work/shared/reference/README.md sections 1
// and 2): each builds its scenario (paper_scenarios.h), runs it with
// run_scenario (scenario_runner.h) and derives the paper's figures from the
// run as plain result structs; report.h prints them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/completion_tracker.h"
#include "sim/paper_scenarios.h"
#include "sim/scenario_runner.h"

namespace dissem::sim {

// --- 1. Reliable multicast baseline -------------------------------------------

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

TacticalResult run_tactical(const TacticalParams& params);

}  // namespace dissem::sim
