// Scenario files: per-node controllers, history, late subscriptions and link
// changes are read and validated, with errors that say where.
#include <gtest/gtest.h>

#include "sim/scenario_file.h"

namespace dissem::sim {
namespace {

constexpr const char* kTwoClusters = R"(
seed = 3
[links]
enabled = false
[[links.override]]
from = "a"
to = "b"
symmetric = true
enabled = true
reliability_pct = 90.0
[[link_changes]]
at_s = 20.0
from = "b"
to = "c"
symmetric = true
enabled = true
[[link_changes]]
at_s = 10.0
from = "b"
to = "c"
latency_ms = 7.0
[controllers]
forwarding.name = "flooding"
forwarding.hop_limit = 3
[[nodes]]
name = "a"
capacity_kbps = 1024
subscribe = ["g"]
history = 5
[[nodes]]
name = "b"
capacity_kbps = 1024
[nodes.controllers]
replication = "anti-entropy"
forwarding.probability = 0.5
[[nodes]]
name = "c"
capacity_kbps = 1024
subscribe = ["g"]
subscribe_at_s = 30.0
)";

std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "s.toml", ".");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ScenarioFile, ReadsControllersHistoryAndLinkChanges) {
  const auto s = parse_scenario(kTwoClusters, "s.toml", ".");
  ASSERT_EQ(s.nodes.size(), 3u);
  EXPECT_EQ(s.nodes[0].controllers.forwarding, "flooding");  // the [controllers] defaults
  EXPECT_EQ(s.nodes[0].controllers.forwarding_hop_limit, 3u);
  EXPECT_EQ(s.nodes[0].controllers.replication, "none");
  EXPECT_EQ(s.nodes[1].controllers.replication, "anti-entropy");  // its own, over them
  EXPECT_EQ(s.nodes[1].controllers.forwarding_probability, 0.5);
  EXPECT_EQ(s.nodes[1].controllers.forwarding_hop_limit, 3u);
  EXPECT_EQ(s.nodes[0].history, 5u);
  EXPECT_EQ(s.nodes[2].subscribe_at, 30 * kSeconds);

  // In time order, each change over what the pair had just before.
  ASSERT_EQ(s.link_changes.size(), 3u);
  EXPECT_EQ(s.link_changes[0].at, 10 * kSeconds);
  EXPECT_FALSE(s.link_changes[0].params.enabled);
  EXPECT_EQ(s.link_changes[0].params.latency, 7 * kMillis);
  EXPECT_EQ(s.link_changes[1].at, 20 * kSeconds);
  EXPECT_TRUE(s.link_changes[1].params.enabled);
  EXPECT_EQ(s.link_changes[1].params.latency, 7 * kMillis);  // kept from the earlier change
  EXPECT_EQ(s.link_changes[2].from, 2u);                    // symmetric: c -> b too
  EXPECT_EQ(s.link_changes[2].params.latency, 0);           // c -> b had no earlier change
}

TEST(ScenarioFile, PrintedScenarioReadsBackTheSame) {
  const auto s = parse_scenario(kTwoClusters, "s.toml", ".");
  const auto text = scenario_toml(s);
  EXPECT_EQ(scenario_toml(parse_scenario(text, "printed.toml", ".")), text);
}

TEST(ScenarioFile, ControllerErrorsSayWhere) {
  EXPECT_EQ(error_of("[controllers]\nforwarding = \"teleport\"\n[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n"),
            "s.toml: forwarding: 'teleport' is not one of none, flooding, subscription-aware, subscriber-tree, plugin (in [controllers])");
  EXPECT_EQ(error_of("[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n[nodes.controllers]\ndeletion = \"plugin\"\n"),
            "s.toml: node \"a\": deletion.name: \"plugin\" needs plugin.path, the shared library to load");
  EXPECT_EQ(error_of("[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n[[link_changes]]\nat_s = 1.0\nfrom = \"a\"\n"
                     "to = \"z\"\n"),
            "s.toml: key 'to' in [[link_changes]] #1 names no node: \"z\"");
  EXPECT_EQ(error_of("[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\nhistory = -1\n"),
            "s.toml: key 'history' in [[nodes]] #1 must be >= 0");
}

}  // namespace

TEST(ScenarioFile, CharactersTheTomlParserMishandlesAreRefusedWithTheirLine) {
  // toml++ 3.3.0 reaches undefined behaviour on them (see engine/toml_input_guard.h).
  EXPECT_NE(error_of("# a scenario\n# \xCE\xA7\n").find("s.toml:2: character U+03A7"), std::string::npos);
}

}  // namespace dissem::sim
