// dissem-sim run on the scenario language (tools/sim_scenario): the
// emulator's own scenario files in virtual time, their dissemd and
// dissem-load commands read by those programs' own command lines, the links
// of the one expansion, and a clear refusal of what the simulator cannot
// honour.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/scenario_file.h"
#include "sim/scenario_runner.h"
#include "tools/sim_scenario/language_scenario.h"

using namespace dissem;
using namespace dissem::sim;
using dissem::sim_scenario::language_scenario;

namespace language_scenario_test {
namespace {

std::string shipped(const std::string& name) { return std::string(DISSEM_SOURCE_DIR) + "/emulation/scenarios/" + name; }

Scenario load(const std::string& name, const std::string& system, std::vector<std::string> cells = {}) {
  return language_scenario(shipped(name), {system, std::move(cells), 1});
}

std::string refusal(const std::filesystem::path& path, const std::string& system, std::vector<std::string> cells = {}) {
  try {
    language_scenario(path, {system, std::move(cells), 1});
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

const ScenarioNode& node(const Scenario& s, const std::string& name) {
  return *std::find_if(s.nodes.begin(), s.nodes.end(), [&](const ScenarioNode& n) { return n.name == name; });
}

// A small scenario of the language with one dissem system, `extra` appended to its publisher role.
std::filesystem::path write(const std::string& name, const std::string& body) {
  const auto path = std::filesystem::temp_directory_path() / ("language-scenario-" + name + ".toml");
  std::ofstream(path) << "name = \"t\"\ntime_limit_s = 60\n[nodes]\nnames = [\"p\", \"s\"]\n[nodes.roles]\n"
                         "publisher = [\"p\"]\nsubscriber = [\"s\"]\n[topology]\ncapacity_bps = 1048576\n"
                      << body;
  return path;
}

const std::string kDaemon =
    "[systems.d.roles.all]\ndaemon = \"dissemd --interface {interface} --socket {sockdir}/d.sock "
    "--set engine.link_capacity_bps=1048576\"\n";

}  // namespace

TEST(LanguageScenario, TheEmulatorsLineRunsWithItsCommandsAndLinks) {
  const Scenario s = load("line-5.toml", "flooding", {"reliability=0.9"});
  ASSERT_EQ(s.nodes.size(), 5u);
  for (const auto& n : s.nodes) {
    EXPECT_EQ(n.capacity_bps, 1048576u) << n.name;
    EXPECT_EQ(n.controllers.forwarding, "flooding") << n.name;
  }
  EXPECT_EQ(node(s, "n3").subscribe, std::vector<std::string>{"line"});
  EXPECT_EQ(node(s, "n3").history, 20u);
  EXPECT_TRUE(node(s, "n2").subscribe.empty());
  ASSERT_EQ(s.publications.size(), 1u);
  EXPECT_EQ(s.publications[0].count, 20u);
  EXPECT_EQ(s.publications[0].size, 10240u);
  EXPECT_EQ(s.publications[0].interval, 500 * kMillis);
  EXPECT_FALSE(s.default_link.enabled);
  EXPECT_EQ(s.links.size(), 8u) << "a line of 5: 4 pairs, both ways";
  for (const auto& l : s.links) EXPECT_DOUBLE_EQ(l.params.reliability, 0.9);
  EXPECT_EQ(s.duration, 90 * kSeconds) << "the scenario's time_limit_s";

  const auto flooded = run_scenario(s);
  EXPECT_TRUE(flooded.run.all_complete);
  EXPECT_EQ(run_scenario(s).run.trace_hash, flooded.run.trace_hash) << "same file, same seed, same run";
  // Without forwarding n1's messages never get past n2.
  EXPECT_FALSE(run_scenario(load("line-5.toml", "none", {"reliability=0.9"})).run.all_complete);
}

TEST(LanguageScenario, DissemdsOwnSettingsReachTheEngine) {
  const Scenario arq = load("baseline-1to3.toml", "dissem-arq",
                            {"capacity_kbps=256", "reliability_pct=70", "shared_channel=0"});
  for (const auto& n : arq.nodes) {
    EXPECT_NE(std::find(n.engine.begin(), n.engine.end(), "coding=false"), n.engine.end()) << n.name;
    EXPECT_EQ(n.capacity_bps, 262144u);
  }
  const Scenario coded = load("baseline-1to3.toml", "dissem", {"capacity_kbps=256", "reliability_pct=70", "shared_channel=0"});
  EXPECT_EQ(std::find(coded.nodes[0].engine.begin(), coded.nodes[0].engine.end(), "coding=false"), coded.nodes[0].engine.end());
  EXPECT_NE(run_scenario(arq).run.trace_hash, run_scenario(coded).run.trace_hash);
}

TEST(LanguageScenario, TimedLinksAndSilentNodes) {
  const Scenario p = load("partition-heal.toml", "anti-entropy");
  const auto bridge = std::find_if(p.links.begin(), p.links.end(), [&](const ScenarioLink& l) {
    return p.nodes[l.from].name == "a4" && p.nodes[l.to].name == "b1";
  });
  ASSERT_NE(bridge, p.links.end());
  EXPECT_FALSE(bridge->params.enabled) << "cut at t = 0";
  ASSERT_EQ(p.link_changes.size(), 2u);
  EXPECT_EQ(p.link_changes[0].at, 30 * kSeconds);
  EXPECT_TRUE(p.link_changes[0].params.enabled);
  EXPECT_TRUE(run_scenario(p).run.all_complete);
  // The rogue node of the undisturbed system runs nothing: it neither sends nor hears.
  const Scenario quiet = load("hostile-air.toml", "undisturbed", {"attack=\"every\""});
  for (const auto& l : quiet.links)
    if (quiet.nodes[l.from].name == "rogue" || quiet.nodes[l.to].name == "rogue") {
      EXPECT_FALSE(l.params.enabled);
    }
}

TEST(LanguageScenario, WhatTheSimulatorCannotHonourIsNamed) {
  EXPECT_NE(refusal(shipped("baseline-1to1.toml"), "norm", {"capacity_kbps=256", "reliability_pct=90", "shared_channel=0"})
                .find("systems.norm.roles.publisher.command: the simulator runs dissem-load here, not 'dissem-norm'"),
            std::string::npos);
  EXPECT_NE(refusal(shipped("seed004-hf-2nodes.toml"), "dissem", {"rate_bps=300"}).find("emulator.half_duplex_bps"),
            std::string::npos);
  EXPECT_NE(refusal(shipped("two-nets.toml"), "dissem").find("networks: the simulator gives each node one radio"),
            std::string::npos);
  EXPECT_NE(refusal(shipped("tactical.toml"), "dissem",
                    {"asymmetric=false", "sender_reliability_pct=90", "message_size=1024", "window_s=60"})
                .find("topology.capacity_bps: node g1 sends on a link at 235520 bit/s"),
            std::string::npos);
  EXPECT_NE(refusal(shipped("seed000-fluctuating.toml"), "dissem-replace").find("topology.capacity_bps: node jbi sends at"),
            std::string::npos);
  EXPECT_NE(refusal(shipped("line-5.toml"), "", {"reliability=0.9"}).find("pick one with --system (systems: flooding, none)"),
            std::string::npos);

  const auto unknown = write("unknown-option", kDaemon +
      "[systems.d.roles.publisher]\ncommand = \"dissem-load publish --socket x --group g --messages 1x10 --colour red\"\n");
  EXPECT_NE(refusal(unknown, "").find("systems.d.roles.publisher.command: dissem-load: "), std::string::npos);
  EXPECT_NE(refusal(unknown, "").find("--colour"), std::string::npos);
  const auto piped = write("piped", kDaemon +
      "[systems.d.roles.publisher]\ncommand = \"dissem-load publish --socket x --group g --messages 1x10 | tee log\"\n");
  EXPECT_NE(refusal(piped, "").find("it runs 'tee' after the program"), std::string::npos);
  const auto late = write("late", kDaemon + "[nodes.start_delay_s]\ns = 5\n");
  EXPECT_NE(refusal(late, "").find("nodes.start_delay_s: the simulator starts every node at t = 0"), std::string::npos);
  const auto bad_set = write("bad-set", "[systems.d.roles.all]\ndaemon = \"dissemd --set engine.no_such_key=1\"\n");
  EXPECT_NE(refusal(bad_set, "").find("systems.d.roles.all.daemon: dissemd: "), std::string::npos);
  EXPECT_NE(refusal(bad_set, "").find("no_such_key"), std::string::npos);
}

TEST(LanguageScenario, MocketsTimelinessReachesTheSimulatorsPublications) {
  // Seed 000: one tag per stream (dissem-replace) or per source
  // (dissem-replace-source), and the same workload without replacement.
  const Scenario stream = load("seed000-replacement.toml", "dissem-replace", {"experiment=1"});
  ASSERT_FALSE(stream.publications.empty());
  const ScenarioPublication& position = stream.publications.front();
  EXPECT_TRUE(position.replace);
  EXPECT_EQ(position.tag, "position");
  EXPECT_EQ(position.tag_of(3), "position");
  const Scenario source = load("seed000-replacement.toml", "dissem-replace-source", {"experiment=1"});
  EXPECT_EQ(source.publications.front().sources, 20u);
  EXPECT_EQ(source.publications.front().tag_of(23), "position/3");
  const Scenario plain = load("seed000-replacement.toml", "dissem", {"experiment=1"});
  EXPECT_FALSE(plain.publications.front().replace);

  // Replacement drops what the 4 KB/s link cannot carry in time: fewer
  // updates arrive than without it, and far sooner.
  const auto replaced = run_scenario(stream);
  const auto queued = run_scenario(plain);
  ASSERT_EQ(replaced.nodes.size(), 2u);
  const auto& r = replaced.nodes[1];
  const auto& q = queued.nodes[1];
  EXPECT_LT(r.delivered, q.delivered);
  EXPECT_GT(r.delivered, 0u);
  EXPECT_LT(replaced.metrics.mean_latency_s * 10, queued.metrics.mean_latency_s);
}

TEST(SimPublications, ALifetimeShorterThanTheQueueLetsTheOldMessagesExpire) {
  // 20 messages of 1000 bytes offered in 2 s to an 8 kbit/s link (one a
  // second): without a lifetime all arrive, with 3 s most expire queued.
  const std::string text =
      "seed = 1\nduration_s = 90\n[[nodes]]\nname = \"p\"\ncapacity_kbps = 8\n[[nodes]]\nname = \"s\"\n"
      "capacity_kbps = 8\nsubscribe = [\"g\"]\n[[publications]]\nnode = \"p\"\ngroup = \"g\"\nsize = 1000\n"
      "count = 20\ninterval_s = 0.1\n";
  const auto plain = run_scenario(parse_scenario(text, "s.toml", "."));
  const auto expiring = run_scenario(parse_scenario(text + "lifetime_ms = 3000\n", "s.toml", "."));
  EXPECT_EQ(plain.nodes.at(1).delivered, 20u);
  EXPECT_GT(expiring.nodes.at(1).delivered, 0u);
  EXPECT_LT(expiring.nodes.at(1).delivered, 10u);
}

TEST(SimPublications, APublisherWaitsForRoomAndGivesUpWhenItsOfferEnds) {
  // 40 messages of 1000 bytes in 4 s into an 8 kbit/s link whose send
  // budget holds 5 s of it: the publisher waits for room, as dissem-load
  // does, and every message still arrives; offered for 10 s only, those
  // still waiting then are given up.
  const std::string text =
      "seed = 1\nduration_s = 120\n[[nodes]]\nname = \"p\"\ncapacity_kbps = 8\n"
      "engine = [\"send_budget_ms=5000\", \"group_send_budget_ms=5000\"]\n[[nodes]]\nname = \"s\"\n"
      "capacity_kbps = 8\nsubscribe = [\"g\"]\n[[publications]]\nnode = \"p\"\ngroup = \"g\"\nsize = 1000\n"
      "count = 40\ninterval_s = 0.1\n";
  const auto waited = run_scenario(parse_scenario(text, "s.toml", "."));
  EXPECT_GT(waited.metrics.publish_waits, 20u);
  EXPECT_EQ(waited.metrics.not_offered, 0u);
  EXPECT_EQ(waited.nodes.at(1).delivered, 40u);
  const auto offered = run_scenario(parse_scenario(text + "offer_until_s = 10\n", "s.toml", "."));
  EXPECT_GT(offered.metrics.not_offered, 10u);
  EXPECT_EQ(offered.nodes.at(1).delivered + offered.metrics.not_offered, 40u);
}

TEST(LanguageScenario, SatcomsOfferedLoadRunsInVirtualTime) {
  // dissem-load --offer-for-s: the offer ends 60 s before the time limit.
  const Scenario s = load("seed004-satcom.toml", "dissem", {"rate_bps=9600"});
  ASSERT_FALSE(s.publications.empty());
  EXPECT_GT(s.publications.front().offer_until, 0);
  EXPECT_LT(s.publications.front().offer_until, s.duration);
}

}  // namespace language_scenario_test
