// Whether two simulator Scenarios (sim/scenario_file.h) run the same: every
// field the run reads, and each ordered pair's link as the runner leaves it
// at t = 0 (the default, then the overrides in order), which is what a
// printed scenario keeps of the overrides. For scenario_toml() round trips:
// text that reads back the same is not enough, a field the printer drops
// reads back the same every time.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <string>
#include <utility>

#include "sim/scenario_file.h"

namespace dissem::sim::scenario_check {

// What the simulator's reader says of `text` (a file named s.toml), or "accepted".
inline std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "s.toml", ".");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "accepted";
}

inline void expect_same_link(const LinkParams& a, const LinkParams& b, const std::string& what) {
  EXPECT_EQ(a.reliability, b.reliability) << what;
  EXPECT_EQ(a.latency, b.latency) << what;
  EXPECT_EQ(a.jitter, b.jitter) << what;
  EXPECT_EQ(a.enabled, b.enabled) << what;
  EXPECT_EQ(a.duplicate, b.duplicate) << what;
  EXPECT_EQ(a.burst.has_value(), b.burst.has_value()) << what;
}

// Each ordered pair's link at t = 0.
inline std::map<std::pair<std::size_t, std::size_t>, LinkParams> links_at_start(const Scenario& s) {
  std::map<std::pair<std::size_t, std::size_t>, LinkParams> out;
  for (std::size_t f = 0; f < s.nodes.size(); ++f)
    for (std::size_t d = 0; d < s.nodes.size(); ++d)
      if (f != d) out[{f, d}] = s.default_link;
  for (const auto& l : s.links) out[{l.from, l.to}] = l.params;
  return out;
}

inline void expect_same_nodes(const Scenario& a, const Scenario& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const ScenarioNode& x = a.nodes[i];
    const ScenarioNode& y = b.nodes[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.capacity_bps, y.capacity_bps) << x.name;
    EXPECT_EQ(x.serve_requests, y.serve_requests) << x.name;
    EXPECT_EQ(x.cache_unsubscribed, y.cache_unsubscribed) << x.name;
    EXPECT_EQ(x.subscribe, y.subscribe) << x.name;
    EXPECT_EQ(x.reliable, y.reliable) << x.name;
    EXPECT_EQ(x.history, y.history) << x.name;
    EXPECT_EQ(x.subscribe_at, y.subscribe_at) << x.name;
    EXPECT_EQ(x.controllers, y.controllers) << x.name;
    EXPECT_EQ(x.engine, y.engine) << x.name;
  }
}

inline void expect_same_publications(const Scenario& a, const Scenario& b) {
  ASSERT_EQ(a.publications.size(), b.publications.size());
  for (std::size_t i = 0; i < a.publications.size(); ++i) {
    const ScenarioPublication& x = a.publications[i];
    const ScenarioPublication& y = b.publications[i];
    EXPECT_EQ(x.at, y.at) << "publication " << i;
    EXPECT_EQ(x.node, y.node) << "publication " << i;
    EXPECT_EQ(x.group, y.group) << "publication " << i;
    EXPECT_EQ(x.size, y.size) << "publication " << i;
    EXPECT_EQ(x.last_size, y.last_size) << "publication " << i;
    EXPECT_EQ(x.count, y.count) << "publication " << i;
    EXPECT_EQ(x.interval, y.interval) << "publication " << i;
    EXPECT_EQ(x.spread, y.spread) << "publication " << i;
    EXPECT_EQ(x.priority, y.priority) << "publication " << i;
    EXPECT_EQ(x.lifetime_ms, y.lifetime_ms) << "publication " << i;
    EXPECT_EQ(x.tag, y.tag) << "publication " << i;
    EXPECT_EQ(x.sources, y.sources) << "publication " << i;
    EXPECT_EQ(x.replace, y.replace) << "publication " << i;
    EXPECT_EQ(x.offer_until, y.offer_until) << "publication " << i;
  }
}

inline void expect_same_scenario(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.stop_when_complete, b.stop_when_complete);
  EXPECT_EQ(a.medium.shared_channel, b.medium.shared_channel);
  EXPECT_EQ(a.medium.per_packet_overhead, b.medium.per_packet_overhead);
  EXPECT_EQ(a.medium.queue_packets, b.medium.queue_packets);
  EXPECT_EQ(a.medium.radio_backpressure, b.medium.radio_backpressure);
  expect_same_link(a.default_link, b.default_link, "[links]");
  const auto la = links_at_start(a);
  const auto lb = links_at_start(b);
  ASSERT_EQ(la.size(), lb.size());
  for (const auto& [pair, params] : la)
    expect_same_link(params, lb.at(pair), "link " + std::to_string(pair.first) + " -> " + std::to_string(pair.second));
  ASSERT_EQ(a.link_changes.size(), b.link_changes.size());
  for (std::size_t i = 0; i < a.link_changes.size(); ++i) {
    const ScenarioLinkChange& x = a.link_changes[i];
    const ScenarioLinkChange& y = b.link_changes[i];
    EXPECT_EQ(x.at, y.at) << "change " << i;
    EXPECT_EQ(x.from, y.from) << "change " << i;
    EXPECT_EQ(x.to, y.to) << "change " << i;
    expect_same_link(x.params, y.params, "change " + std::to_string(i));
  }
  expect_same_nodes(a, b);
  expect_same_publications(a, b);
}

}  // namespace dissem::sim::scenario_check
