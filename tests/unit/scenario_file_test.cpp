// Scenario files: per-node controllers, history, late subscriptions and link
// changes are read and validated, with errors that say where.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/scenario_file.h"
#include "support/same_scenario.h"

namespace dissem::sim::scenario_file_test {
namespace {

constexpr const char* kTwoClusters = R"(
seed = 3
[links]
enabled = false
[[links.override]]
from = "a"
to = "b"
enabled = true
reliability = 0.9
[[links.override]]
from = "b"
to = "a"
enabled = true
reliability = 0.9
[[link_changes]]
at_s = 20.0
from = "b"
to = "c"
enabled = true
[[link_changes]]
at_s = 20.0
from = "c"
to = "b"
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

using scenario_check::error_of;

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

  ASSERT_EQ(s.links.size(), 2u);
  EXPECT_EQ(s.links[1].from, 1u);
  EXPECT_EQ(s.links[1].params.reliability, 0.9);
  EXPECT_TRUE(s.links[1].params.enabled);

  // In time order, each change over what the pair had just before.
  ASSERT_EQ(s.link_changes.size(), 3u);
  EXPECT_EQ(s.link_changes[0].at, 10 * kSeconds);
  EXPECT_FALSE(s.link_changes[0].params.enabled);
  EXPECT_EQ(s.link_changes[0].params.latency, 7 * kMillis);
  EXPECT_EQ(s.link_changes[1].at, 20 * kSeconds);
  EXPECT_TRUE(s.link_changes[1].params.enabled);
  EXPECT_EQ(s.link_changes[1].params.latency, 7 * kMillis);  // kept from the earlier change
  EXPECT_EQ(s.link_changes[2].from, 2u);                    // the other direction, its own table
  EXPECT_EQ(s.link_changes[2].params.latency, 0);           // c -> b had no earlier change
}

TEST(ScenarioFile, PrintedScenarioReadsBackTheSame) {
  const auto s = parse_scenario(kTwoClusters, "s.toml", ".");
  const auto text = scenario_toml(s);
  const auto back = parse_scenario(text, "printed.toml", ".");
  scenario_check::expect_same_scenario(s, back);
  EXPECT_EQ(scenario_toml(back), text);
}

TEST(ScenarioFile, ControllerErrorsSayWhere) {
  EXPECT_EQ(error_of("[controllers]\nforwarding = \"teleport\"\n[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n"),
            "s.toml: forwarding: 'teleport' is not one of none, flooding, subscription-aware, subscriber-tree, relay-set, plugin (in [controllers])");
  EXPECT_EQ(error_of("[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n[nodes.controllers]\ndeletion = \"plugin\"\n"),
            "s.toml: node \"a\": deletion.name: \"plugin\" needs plugin.path, the shared library to load");
  EXPECT_EQ(error_of("[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n[[link_changes]]\nat_s = 1.0\nfrom = \"a\"\n"
                     "to = \"z\"\n"),
            "s.toml: key 'to' in [[link_changes]] #1 names no node: \"z\"");
  EXPECT_EQ(error_of("[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\nhistory = -1\n"),
            "s.toml: key 'history' in [[nodes]] #1 must be >= 0");
}

TEST(ScenarioFile, ReadsEngineSettingsSpreadAndLastSize) {
  const auto s = parse_scenario(R"(
[[nodes]]
name = "a"
capacity_bps = 1000
engine = ["repair_share=0.25", "serve_requests=false"]
[[publications]]
node = "a"
group = "g"
size = 100
last_size = 30
count = 3
spread_s = 10.0
)",
                                "s.toml", ".");
  EXPECT_EQ(s.nodes[0].engine, (std::vector<std::string>{"repair_share=0.25", "serve_requests=false"}));
  ASSERT_EQ(s.publications.size(), 1u);
  const auto& p = s.publications[0];
  EXPECT_EQ(p.last_size, 30u);
  EXPECT_EQ(p.spread, 10 * kSeconds);
  // Message k at spread * k / count, in whole microseconds rounded down.
  EXPECT_EQ(p.time_of(0), 0);
  EXPECT_EQ(p.time_of(1), 3'333'333);
  EXPECT_EQ(p.time_of(2), 6'666'666);
  const auto text = scenario_toml(s);
  EXPECT_NE(text.find("engine = [\"repair_share=0.25\", \"serve_requests=false\"]"), std::string::npos);
  const auto back = parse_scenario(text, "printed.toml", ".");
  scenario_check::expect_same_scenario(s, back);
  EXPECT_EQ(scenario_toml(back), text);
}

TEST(ScenarioFile, EngineSpreadAndLastSizeErrorsSayWhere) {
  const std::string node = "[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n";
  EXPECT_EQ(error_of(node + "engine = [\"repair_share=2\"]\n").rfind("s.toml: key 'engine' in [[nodes]] #1 has a bad setting: ", 0),
            0u);
  EXPECT_NE(error_of(node + "engine = [\"no_such_key=1\"]\n").find("no_such_key"), std::string::npos);
  const std::string pub = "[[publications]]\nnode = \"a\"\ngroup = \"g\"\nsize = 10\n";
  EXPECT_EQ(error_of(node + pub + "interval_s = 1.0\nspread_s = 5.0\n"),
            "s.toml: key 'spread_s' in [[publications]] #1 conflicts with interval_s");
  EXPECT_EQ(error_of(node + pub + "last_size = 0\n"), "s.toml: key 'last_size' in [[publications]] #1 must be > 0");
}

}  // namespace

TEST(ScenarioFile, CharactersTheTomlParserMishandlesAreRefusedWithTheirLine) {
  // toml++ 3.3.0 reaches undefined behaviour on them (see config/toml_input_guard.h).
  EXPECT_NE(error_of("# a scenario\n# \xCE\xA7\n").find("s.toml:2: character U+03A7"), std::string::npos);
}

}  // namespace dissem::sim::scenario_file_test
