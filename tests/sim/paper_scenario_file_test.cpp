// The paper's experiments saved as scenario files (dissem-sim baseline |
// tactical --print-scenario) run as the experiments themselves do.
#include <gtest/gtest.h>

#include <string>

#include "sim/experiments.h"
#include "sim/scenario_file.h"
#include "sim/scenario_runner.h"
#include "support/same_scenario.h"

namespace dissem::sim::paper_scenario_file_test {
namespace {

// `s` printed and read back: the same Scenario, and printed again the same text.
Scenario read_back(const Scenario& s) {
  const std::string text = scenario_toml(s);
  Scenario back = parse_scenario(text, "printed.toml", ".");
  scenario_check::expect_same_scenario(s, back);
  EXPECT_EQ(scenario_toml(back), text);
  return back;
}

TEST(PaperScenarioFile, ABaselineReadBackFromItsTomlRunsTheSame) {
  BaselineParams p;
  p.bytes = 50'000;
  p.message_size = 12'000;  // a short last message
  p.reliability_pct = 80;
  p.capacity_kbps = 512;
  p.seed = 4;
  p.engine_settings = {"repair_share=0.4"};
  const auto direct = run_baseline(p);
  ASSERT_TRUE(direct.run.all_complete);
  EXPECT_EQ(direct.messages, 5u);
  const auto from_file = run_scenario(read_back(make_baseline(p)));
  EXPECT_EQ(from_file.run.trace_hash, direct.run.trace_hash);
  for (std::size_t i = 0; i < direct.receivers.size(); ++i) {
    EXPECT_EQ(from_file.nodes[i + 1].bytes, 50'000u);
    EXPECT_EQ(from_file.nodes[i + 1].completed_at, direct.receivers[i].completed_at);
  }
}

TEST(PaperScenarioFile, ATacticalTestReadBackFromItsTomlRunsTheSame) {
  TacticalParams p;
  p.messages = 30;
  p.window = 7 * kSeconds;  // 30 does not divide it: times round down
  p.settle = 20 * kSeconds;
  p.asymmetric = true;
  p.seed = 5;
  const auto direct = run_tactical(p);
  EXPECT_EQ(direct.messages_sent, 30u);
  const auto from_file = run_scenario(read_back(make_tactical(p)));
  EXPECT_EQ(from_file.run.trace_hash, direct.run.trace_hash);
  EXPECT_EQ(from_file.run.finished_at, direct.run.finished_at);
}

}  // namespace
}  // namespace dissem::sim::paper_scenario_file_test
