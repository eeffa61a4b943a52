// What the traffic-driven mechanisms buy, each measured against the same
// runs with it turned off (same seeds, same network):
//  * the MFR gate (engine.traffic_gate_fraction): no requests while the
//    traffic heard is near capacity, so a receiver asks once the first pass
//    has passed rather than for what is still on its way;
//  * the serving gate (engine.serve_gate_fraction, off by default): no
//    answers while the channel is that busy;
//  * channel-aware pacing on a shared medium (engine.channel_aware): each
//    node paces to the capacity less what it hears from others, so two
//    publishers do not fill the medium's queue with frames that arrive late.
// Sums over several seeds: one run moves with any change to unrelated timing.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/experiments.h"
#include "sim/scenario_file.h"
#include "sim/scenario_runner.h"
#include "support/lossy_baseline.h"
#include "tools/sim_scenario/language_scenario.h"

using namespace dissem;
using namespace dissem::sim;

namespace traffic_gates_test {
namespace {

struct Totals {
  double finished_s = 0;
  std::uint64_t mfrs_sent = 0;
  std::uint64_t rounds_gated = 0;
  std::uint64_t repairs_queued = 0;
  std::uint64_t bytes_on_air = 0;
  bool all_complete = true;
};

Totals baseline_runs(bool shared_channel, const std::vector<std::string>& settings) {
  Totals t;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const BaselineResult r = test::run_lossy_baseline(seed, settings, shared_channel);
    t.all_complete = t.all_complete && r.run.all_complete;
    t.finished_s += static_cast<double>(r.run.finished_at) / 1e6;
    t.bytes_on_air += r.run.medium.total.on_air_bytes();
    for (const auto& s : r.run.node_stats) {
      t.mfrs_sent += s.mfrs_sent;
      t.rounds_gated += s.mfr_rounds_gated;
      t.repairs_queued += s.repairs_queued;
    }
  }
  return t;
}

void print(const char* label, const Totals& t) {
  std::printf("%-28s finished %.1f s, MFRs %llu (rounds gated %llu), repairs queued %llu, %llu B on the air\n", label,
              t.finished_s, static_cast<unsigned long long>(t.mfrs_sent),
              static_cast<unsigned long long>(t.rounds_gated), static_cast<unsigned long long>(t.repairs_queued),
              static_cast<unsigned long long>(t.bytes_on_air));
}

}  // namespace

TEST(TrafficGates, TheMfrGateCutsRequestsWithoutSlowingTheTransfer) {
  const Totals gated = baseline_runs(false, {});
  const Totals open = baseline_runs(false, {"traffic_gate_fraction=100"});
  print("MFR gate at 0.8", gated);
  print("MFR gate off", open);
  ASSERT_TRUE(gated.all_complete && open.all_complete);
  EXPECT_GT(gated.rounds_gated, 0u);
  EXPECT_EQ(open.rounds_gated, 0u);
  EXPECT_LT(static_cast<double>(gated.mfrs_sent), 0.9 * static_cast<double>(open.mfrs_sent));
  EXPECT_LT(gated.finished_s, 1.05 * open.finished_s);
}

TEST(TrafficGates, TheServingGateCutsRepairsOnABusySharedChannel) {
  const Totals gated = baseline_runs(true, {"serve_gate_fraction=0.5"});
  const Totals open = baseline_runs(true, {});
  print("serving gate at 0.5", gated);
  print("serving gate off", open);
  ASSERT_TRUE(gated.all_complete && open.all_complete);
  EXPECT_LT(static_cast<double>(gated.repairs_queued), 0.8 * static_cast<double>(open.repairs_queued));
  EXPECT_LE(gated.bytes_on_air, open.bytes_on_air);
  EXPECT_LT(gated.finished_s, 1.05 * open.finished_s);
}

TEST(TrafficGates, ChannelAwarePacingCutsDuplicatesWhenTwoPublishersShareAMedium) {
  const Scenario base = sim_scenario::language_scenario(
      std::string(DISSEM_SOURCE_DIR) + "/emulation/scenarios/shared-channel-2pub.toml", {"dissem", {}, 1});
  auto runs = [&](bool aware) {
    std::uint64_t duplicates = 0;
    std::uint64_t transmissions = 0;
    bool delivered = true;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      Scenario s = base;
      s.seed = seed;
      for (auto& n : s.nodes) n.engine.push_back(aware ? "channel_aware=true" : "channel_aware=false");
      const ScenarioResult r = run_scenario(s);
      delivered = delivered && r.metrics.delivery_ratio == 1.0;
      duplicates += r.metrics.duplicate_fragments;
      transmissions += r.metrics.fragment_transmissions;
    }
    std::printf("channel_aware=%d: %llu duplicate fragments, %llu fragment transmissions\n", aware ? 1 : 0,
                static_cast<unsigned long long>(duplicates), static_cast<unsigned long long>(transmissions));
    EXPECT_TRUE(delivered);
    return std::pair{duplicates, transmissions};
  };
  const auto [dup_on, tx_on] = runs(true);
  const auto [dup_off, tx_off] = runs(false);
  EXPECT_LT(static_cast<double>(dup_on), 0.85 * static_cast<double>(dup_off));
  EXPECT_LT(tx_on, tx_off);
}

}  // namespace traffic_gates_test
