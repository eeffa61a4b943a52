// The simulator's scenario files speak the scenario language's link words:
// reliability a fraction, overrides and changes one direction each, and
// asymmetric = true disabling the reverse as the language's overrides do
// (checked against the language's expander itself). The older words
// (reliability_pct, symmetric) are refused with what replaced them.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/cell.h"
#include "scenario/expansion.h"
#include "scenario/scenario_document.h"
#include "sim/scenario_file.h"
#include "support/same_scenario.h"

namespace dissem::sim::scenario_file_link_keys_test {
namespace {

using scenario_check::expect_same_scenario;
using scenario_check::links_at_start;

constexpr const char* kNodes =
    "[[nodes]]\nname = \"a\"\ncapacity_bps = 1000\n[[nodes]]\nname = \"b\"\ncapacity_bps = 1000\n"
    "[[nodes]]\nname = \"c\"\ncapacity_bps = 1000\n";

using scenario_check::error_of;

const std::string kRenamed = " was renamed to reliability (a fraction, as in the scenario language: 90 % is 0.9)";

TEST(ScenarioFileLinkKeys, ReliabilityPctIsRefusedWithWhatReplacedIt) {
  EXPECT_EQ(error_of(std::string(kNodes) + "[links]\nreliability_pct = 90.0\n"),
            "s.toml: key 'reliability_pct' in [links]" + kRenamed);
  EXPECT_EQ(error_of(std::string(kNodes) + "[[links.override]]\nfrom = \"a\"\nto = \"b\"\nreliability_pct = 90.0\n"),
            "s.toml: key 'reliability_pct' in [[links.override]] #1" + kRenamed);
  EXPECT_EQ(error_of(std::string(kNodes) + "[[link_changes]]\nat_s = 1.0\nfrom = \"a\"\nto = \"b\"\nreliability_pct = 9\n"),
            "s.toml: key 'reliability_pct' in [[link_changes]] #1" + kRenamed);
}

TEST(ScenarioFileLinkKeys, SymmetricIsRefusedWithWhatReplacedIt) {
  const std::string removed =
      " was removed: as in the scenario language, each table is one direction (from -> to); write a two-way change "
      "as two tables, or asymmetric = true to disable the reverse of each matched direction";
  for (const char* value : {"true", "false"}) {
    EXPECT_EQ(error_of(std::string(kNodes) + "[[links.override]]\nfrom = \"a\"\nto = \"b\"\nsymmetric = " + value + "\n"),
              "s.toml: key 'symmetric' in [[links.override]] #1" + removed);
    EXPECT_EQ(error_of(std::string(kNodes) + "[[link_changes]]\nat_s = 1.0\nfrom = \"a\"\nto = \"b\"\nsymmetric = " +
                       value + "\n"),
              "s.toml: key 'symmetric' in [[link_changes]] #1" + removed);
  }
  // Not a key of [links] at all: an unknown key there, as before.
  EXPECT_EQ(error_of(std::string(kNodes) + "[links]\nsymmetric = true\n").rfind("s.toml: unknown key 'symmetric' in [links]", 0),
            0u);
}

TEST(ScenarioFileLinkKeys, ReliabilityIsAFractionInZeroToOne) {
  EXPECT_EQ(error_of(std::string(kNodes) + "[links]\nreliability = 1.5\n"),
            "s.toml: key 'reliability' in [links] must be in [0, 1]");
  EXPECT_EQ(error_of(std::string(kNodes) + "[[links.override]]\nfrom = \"a\"\nto = \"b\"\nreliability = 90\n"),
            "s.toml: key 'reliability' in [[links.override]] #1 must be in [0, 1]");
  EXPECT_EQ(error_of(std::string(kNodes) + "[[link_changes]]\nfrom = \"a\"\nto = \"b\"\nreliability = -0.1\n"),
            "s.toml: key 'reliability' in [[link_changes]] #1 must be >= 0");
  EXPECT_EQ(error_of(std::string(kNodes) + "[links]\nreliability = \"0.9\"\n"),
            "s.toml: key 'reliability' in [links] must be a number");
  const auto s = parse_scenario(std::string(kNodes) + "[links]\nreliability = 0.25\n[[links.override]]\nfrom = \"a\"\n"
                                                      "to = \"b\"\nreliability = 1\n[[links.override]]\nfrom = \"b\"\n"
                                                      "to = \"a\"\nreliability = 0\n",
                                "s.toml", ".");
  EXPECT_EQ(s.default_link.reliability, 0.25);
  EXPECT_EQ(s.links.at(0).params.reliability, 1.0);
  EXPECT_EQ(s.links.at(1).params.reliability, 0.0);
}

TEST(ScenarioFileLinkKeys, AsymmetricOverrideDisablesTheReverseOfEachMatchedDirection) {
  const std::string override_text = std::string(kNodes) +
                                    "[links]\nlatency_ms = 3.0\n[[links.override]]\nfrom = \"a\"\nto = \"*\"\n"
                                    "reliability = 0.5\nasymmetric = ";
  const auto s = parse_scenario(override_text + "true\n", "s.toml", ".");
  const auto links = links_at_start(s);
  for (std::size_t ground : {1u, 2u}) {
    EXPECT_TRUE(links.at({0, ground}).enabled);  // a -> b, a -> c: the override's own fields
    EXPECT_EQ(links.at({0, ground}).reliability, 0.5);
    EXPECT_FALSE(links.at({ground, 0}).enabled);  // their reverses: disabled, nothing else changed
    EXPECT_EQ(links.at({ground, 0}).reliability, 1.0);
    EXPECT_EQ(links.at({ground, 0}).latency, 3 * kMillis);
  }
  EXPECT_TRUE(links.at({1, 2}).enabled && links.at({2, 1}).enabled);  // b <-> c untouched
  EXPECT_EQ(s.links.size(), 4u);

  const auto one_way = parse_scenario(override_text + "false\n", "s.toml", ".");
  EXPECT_EQ(one_way.links.size(), 2u);
  EXPECT_TRUE(links_at_start(one_way).at({1, 0}).enabled);
  EXPECT_NE(error_of(override_text + "1\n").find("key 'asymmetric' in [[links.override]] #1 must be true or false"),
            std::string::npos);
}

// Which directions are disabled at t = 0 after `overrides` (tables of from,
// to, enabled, asymmetric), as the simulator's file reads them and as the
// scenario language expands them on a full topology of the same three nodes.
std::set<std::pair<int, int>> disabled_by_sim(const std::string& overrides) {
  const auto s = parse_scenario(std::string(kNodes) + overrides, "s.toml", ".");
  std::set<std::pair<int, int>> out;
  for (const auto& [pair, params] : links_at_start(s))
    if (!params.enabled) out.emplace(static_cast<int>(pair.first) + 1, static_cast<int>(pair.second) + 1);
  return out;
}

std::set<std::pair<int, int>> disabled_by_language(std::string overrides) {
  for (std::size_t at = 0; (at = overrides.find("[[links.override]]", at)) != std::string::npos;)
    overrides.replace(at, 18, "[[topology.override]]");
  const std::string text = "name = \"t\"\ntime_limit_s = 30\n[nodes]\nnames = [\"a\", \"b\", \"c\"]\n"
                           "[matrix]\n[topology]\nkind = \"full\"\n" + overrides + "[systems.x.roles.all]\ncommand = \"true\"\n";
  const auto d = scenario::parse_document(text, "s.toml", ".");
  const auto picked = scenario::pick_cell(d.matrix, {}, d.source);
  const auto x = scenario::expand(d.topology, scenario::cell_names(d.name, d.nodes, picked, 1), d.nodes.size(), 1,
                                  std::nullopt);
  std::set<std::pair<int, int>> out;
  for (const auto& [pair, params] : x.links)
    if (params.disabled()) out.insert(pair);
  return out;
}

TEST(ScenarioFileLinkKeys, OverridesDisableWhatTheLanguagesOverridesDisable) {
  const std::vector<std::string> cases = {
      "[[links.override]]\nfrom = \"a\"\nto = \"*\"\nasymmetric = true\n",
      "[[links.override]]\nfrom = \"*\"\nto = \"*\"\nenabled = true\nasymmetric = true\n",
      "[[links.override]]\nfrom = \"a\"\nto = \"*\"\nasymmetric = true\n"
      "[[links.override]]\nfrom = \"b\"\nto = \"a\"\nenabled = true\n"
      "[[links.override]]\nfrom = \"c\"\nto = \"b\"\nenabled = false\nasymmetric = true\n",
      "[[links.override]]\nfrom = \"b\"\nto = \"c\"\nenabled = false\n"
      "[[links.override]]\nfrom = \"c\"\nto = \"b\"\nasymmetric = false\n"
      "[[links.override]]\nfrom = \"a\"\nto = \"c\"\nreliability = 0.5\n",
  };
  for (const auto& overrides : cases) {
    const auto sim = disabled_by_sim(overrides);
    EXPECT_EQ(sim, disabled_by_language(overrides)) << overrides;
    EXPECT_FALSE(sim.empty()) << overrides;
  }
}

TEST(ScenarioFileLinkKeys, ALinkChangeSetsOnlyWhatItNamesAsTheLanguagesEventsDo) {
  const std::string change = std::string(kNodes) +
                             "[[link_changes]]\nat_s = 5.0\nfrom = \"a\"\nto = \"b\"\nlatency_ms = 4.0\n";
  const auto s = parse_scenario(change, "s.toml", ".");
  ASSERT_EQ(s.link_changes.size(), 1u);
  EXPECT_EQ(s.link_changes[0].params.latency, 4 * kMillis);
  EXPECT_NE(error_of(change + "asymmetric = true\n")
                .find("key 'asymmetric' in [[link_changes]] #1 applies to [[links.override]] only"),
            std::string::npos)
      << error_of(change + "asymmetric = true\n");
}

TEST(ScenarioFileLinkKeys, AnAsymmetricScenarioPrintedReadsBackTheSame) {
  const auto s = parse_scenario(std::string(kNodes) +
                                    "[links]\nreliability = 0.9\n[[links.override]]\nfrom = \"a\"\nto = \"*\"\n"
                                    "reliability = 0.7\nasymmetric = true\n[[link_changes]]\nat_s = 2.5\nfrom = \"b\"\n"
                                    "to = \"c\"\nreliability = 0.3\n[[link_changes]]\nat_s = 2.5\nfrom = \"c\"\n"
                                    "to = \"b\"\nenabled = false\n",
                                "s.toml", ".");
  const std::string text = scenario_toml(s);
  EXPECT_NE(text.find("reliability = 0.7\n"), std::string::npos);
  EXPECT_EQ(text.find("reliability_pct"), std::string::npos);
  EXPECT_EQ(text.find("symmetric"), std::string::npos);  // each direction printed on its own
  const auto back = parse_scenario(text, "printed.toml", ".");
  expect_same_scenario(s, back);
  EXPECT_FALSE(links_at_start(back).at({1, 0}).enabled);
  EXPECT_EQ(scenario_toml(back), text);
}

TEST(ScenarioFileLinkKeys, TheShippedExampleReads) {
  const auto s = load_scenario_file(DISSEM_SOURCE_DIR "/emulation/scenarios/sim/sim-example.toml");
  const auto links = links_at_start(s);
  EXPECT_EQ(s.default_link.reliability, 0.9);
  EXPECT_EQ(links.at({0, 1}).reliability, 0.85);   // uav -> alpha
  EXPECT_FALSE(links.at({1, 0}).enabled);          // alpha -> uav: the reverse, disabled
  EXPECT_EQ(links.at({1, 0}).reliability, 0.9);
  EXPECT_TRUE(links.at({1, 2}).enabled);
}

}  // namespace

TEST(ScenarioFilePublications, TimelinessKeysReadAndPrintBack) {
  const std::string base = std::string(kNodes) + "[[publications]]\nnode = \"a\"\ngroup = \"g\"\nsize = 100\ncount = 4\n";
  const auto s = parse_scenario(base + "priority = 3\nlifetime_ms = 1500\ntag = \"pos\"\nsources = 2\nreplace = true\n"
                                           "offer_until_s = 2.5\n",
                                "s.toml", ".");
  const ScenarioPublication& p = s.publications.at(0);
  EXPECT_EQ(p.priority, 3u);
  EXPECT_EQ(p.lifetime_ms, 1500u);
  EXPECT_EQ(p.offer_until, 2500 * kMillis);
  EXPECT_TRUE(p.replace);
  EXPECT_EQ(p.tag_of(0), "pos/0");
  EXPECT_EQ(p.tag_of(3), "pos/1");
  const auto back = parse_scenario(scenario_toml(s), "printed.toml", ".");
  expect_same_scenario(s, back);
  EXPECT_EQ(back.publications.at(0).tag_of(3), "pos/1");
  EXPECT_EQ(parse_scenario(base + "tag = \"pos\"\n", "s.toml", ".").publications.at(0).tag_of(3), "pos");

  EXPECT_NE(error_of(base + "replace = true\n").find("key 'replace' in [[publications]] #1 needs a tag"), std::string::npos)
      << error_of(base + "replace = true\n");
  EXPECT_NE(error_of(base + "sources = 2\n").find("tags per source need a tag"), std::string::npos);
  EXPECT_NE(error_of(base + "lifetime_ms = 9999999999\n").find("at most 24 days"), std::string::npos);
}

}  // namespace dissem::sim::scenario_file_link_keys_test
