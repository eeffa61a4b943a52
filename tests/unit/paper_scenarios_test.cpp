// The paper's experiments as scenarios: the baseline and the tactical test
// have the nodes, links, subscriptions and publications the paper describes.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/paper_scenarios.h"
#include "sim/scenario_file.h"

namespace dissem::sim::paper_scenarios_test {
namespace {

std::map<std::pair<std::size_t, std::size_t>, LinkParams> links_of(const Scenario& s) {
  std::map<std::pair<std::size_t, std::size_t>, LinkParams> out;
  for (const auto& l : s.links) out[{l.from, l.to}] = l.params;
  return out;
}

TEST(PaperScenarios, BaselineIsOneSenderAndItsReceiversAllLinkedAlike) {
  BaselineParams p;
  p.receivers = 3;
  p.capacity_kbps = 256;
  p.reliability_pct = 70;
  p.latency = 5 * kMillis;
  p.seed = 9;
  p.shared_channel = true;
  p.engine_settings = {"repair_share=0.3"};
  const Scenario s = make_baseline(p);
  EXPECT_EQ(s.seed, 9u);
  EXPECT_TRUE(s.medium.shared_channel);
  ASSERT_EQ(s.nodes.size(), 4u);
  EXPECT_TRUE(s.links.empty());  // every pair has the default link
  EXPECT_TRUE(s.link_changes.empty());
  EXPECT_DOUBLE_EQ(s.default_link.reliability, 0.7);
  EXPECT_EQ(s.default_link.latency, 5 * kMillis);
  EXPECT_TRUE(s.default_link.enabled);
  EXPECT_EQ(s.nodes[0].name, "sender");
  EXPECT_TRUE(s.nodes[0].subscribe.empty());
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    EXPECT_EQ(s.nodes[i].capacity_bps, 262'144u);  // 256 x 1024 bit/s
    EXPECT_TRUE(s.nodes[i].serve_requests);
    EXPECT_EQ(s.nodes[i].engine, p.engine_settings);
    if (i == 0) continue;
    EXPECT_EQ(s.nodes[i].name, "r" + std::to_string(i));
    EXPECT_EQ(s.nodes[i].subscribe, std::vector<std::string>{"baseline-grp"});
    EXPECT_TRUE(s.nodes[i].reliable);
    EXPECT_EQ(s.nodes[i].subscribe_at, 0);
  }
  ASSERT_EQ(s.publications.size(), 1u);
  EXPECT_EQ(s.publications[0].node, 0u);
  EXPECT_EQ(s.publications[0].count, 1u);  // one message of every byte
  EXPECT_EQ(s.publications[0].size, 819'200u);
  EXPECT_EQ(s.publications[0].time_of(0), 0);
  // 10 x k / (r C) + 60 s.
  EXPECT_DOUBLE_EQ(baseline_lower_bound_s(p), 819'200.0 * 8 / (0.7 * 262'144));
  EXPECT_EQ(s.duration, static_cast<Micros>(10.0 * baseline_lower_bound_s(p) * 1e6) + 60 * kSeconds);
}

TEST(PaperScenarios, BaselineSplitsItsBytesWithAShortLastMessage) {
  BaselineParams p;
  p.bytes = 10'000;
  p.message_size = 3'000;
  p.time_limit = 42 * kSeconds;
  const Scenario s = make_baseline(p);
  ASSERT_EQ(s.publications.size(), 1u);
  EXPECT_EQ(s.publications[0].count, 4u);
  EXPECT_EQ(s.publications[0].size, 3'000u);
  EXPECT_EQ(s.publications[0].last_size, 1'000u);
  EXPECT_EQ(s.publications[0].time_of(3), 0);  // all at once
  EXPECT_EQ(s.duration, 42 * kSeconds);
  p.message_size = 2'500;
  EXPECT_EQ(make_baseline(p).publications[0].count, 4u);
  EXPECT_EQ(make_baseline(p).publications[0].last_size, 0u);
  p.receivers = 0;
  EXPECT_THROW(make_baseline(p), std::invalid_argument);
}

TEST(PaperScenarios, TacticalIsAUavOverGroundNodesThatRepairEachOther) {
  TacticalParams p;
  p.sender_reliability_pct = 50;
  p.asymmetric = true;
  const Scenario s = make_tactical(p);
  ASSERT_EQ(s.nodes.size(), 10u);  // the UAV and 9 ground nodes
  EXPECT_EQ(s.nodes[0].name, "uav");
  EXPECT_FALSE(s.nodes[0].serve_requests);  // the ground repairs itself
  EXPECT_EQ(s.nodes[0].capacity_bps, 230u * 1024);
  EXPECT_TRUE(s.nodes[0].subscribe.empty());
  for (std::size_t i = 1; i < s.nodes.size(); ++i) {
    const bool subscriber = i <= 3;
    EXPECT_EQ(s.nodes[i].name, subscriber ? "sub" + std::to_string(i) : "relay" + std::to_string(i - 3));
    EXPECT_EQ(s.nodes[i].subscribe.empty(), !subscriber);
    EXPECT_EQ(s.nodes[i].capacity_bps, 1024u * 1024);
    EXPECT_TRUE(s.nodes[i].serve_requests);
  }
  // Ground to ground: the default; UAV to ground at the sender reliability,
  // the way back switched off when asymmetric.
  EXPECT_DOUBLE_EQ(s.default_link.reliability, 0.9);
  const auto links = links_of(s);
  EXPECT_EQ(links.size(), 18u);
  for (std::size_t i = 1; i < s.nodes.size(); ++i) {
    ASSERT_TRUE(links.contains({0, i}) && links.contains({i, 0}));
    EXPECT_DOUBLE_EQ(links.at({0, i}).reliability, 0.5);
    EXPECT_TRUE(links.at({0, i}).enabled);
    EXPECT_DOUBLE_EQ(links.at({i, 0}).reliability, 0.5);
    EXPECT_FALSE(links.at({i, 0}).enabled);
  }
  // 1578 messages of 1 KiB spread evenly over the 70 s window; 60 s to settle.
  ASSERT_EQ(s.publications.size(), 1u);
  const auto& pub = s.publications[0];
  EXPECT_EQ(pub.node, 0u);
  EXPECT_EQ(pub.count, 1578u);
  EXPECT_EQ(pub.size, 1024u);
  EXPECT_EQ(pub.time_of(1), 70 * kSeconds / 1578);
  EXPECT_EQ(pub.time_of(1577), 70 * kSeconds * 1577 / 1578);
  EXPECT_EQ(s.duration, 130 * kSeconds);
  EXPECT_TRUE(s.stop_when_complete);
}

TEST(PaperScenarios, TacticalKeepsTheUplinkWhenSymmetricAndTheUavFromServing) {
  TacticalParams p;
  p.ground_nodes = 4;
  p.subscribers = 4;
  p.messages = 10;
  p.engine_settings = {"repair_share=0.3", "serve_requests=true"};
  const Scenario s = make_tactical(p);
  EXPECT_FALSE(s.nodes[0].serve_requests);  // the experiment fixes it for the UAV
  EXPECT_EQ(s.nodes[0].engine, std::vector<std::string>{"repair_share=0.3"});
  EXPECT_EQ(s.nodes[1].engine, p.engine_settings);
  EXPECT_EQ(s.nodes.size(), 5u);
  for (const auto& l : s.links) EXPECT_TRUE(l.params.enabled);
  EXPECT_EQ(s.publications[0].count, 10u);
  p.subscribers = 5;
  EXPECT_THROW(make_tactical(p), std::invalid_argument);
}

}  // namespace
}  // namespace dissem::sim::paper_scenarios_test
