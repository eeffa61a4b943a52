// The scenario language's expander (src/scenario): placeholders with
// Python's arithmetic, cells, every topology kind, overrides, timed
// changes, literal EEL, random outages, and errors that name file and key.
#include <gtest/gtest.h>

#include <set>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/cell.h"
#include "scenario/expansion.h"
#include "scenario/expression.h"
#include "scenario/scenario_document.h"
#include "scenario/scenario_error.h"
#include "support/scenario_docs.h"
#include "scenario/shell_words.h"
#include "scenario/template_text.h"

using namespace dissem::scenario;
using namespace dissem::test;

namespace scenario_language_test {
namespace {

ScenarioDocument doc_of(const std::string& nodes, const std::string& topology, const std::string& matrix = "") {
  const std::string text = "name = \"t\"\ntime_limit_s = 30\n[nodes]\n" + nodes + "\n[matrix]\n" + matrix +
                           "\n[topology]\n" + topology + "\n[systems.x.roles.all]\ncommand = \"true\"\n";
  return parse_document(text, "s.toml", ".");
}

Value eval(const std::string& text, const Names& names = {}) { return Expression::parse(text).evaluate(names); }

LinkParams state_at(const Expansion& x, Pair p, double t) {
  LinkParams out;
  for (const auto& e : x.events)
    if (e.time_s <= t && Pair{e.sender, e.receiver} == p) out = e.params;
  return out;
}

}  // namespace

TEST(ScenarioExpression, PythonArithmetic) {
  EXPECT_EQ(eval("7 // 2"), Value{std::int64_t{3}});
  EXPECT_EQ(eval("-7 // 2"), Value{std::int64_t{-4}});
  EXPECT_EQ(eval("-7 % 3"), Value{std::int64_t{2}});
  EXPECT_EQ(eval("7 / 2"), Value{3.5});
  EXPECT_EQ(eval("2 ** 10"), Value{std::int64_t{1024}});
  EXPECT_EQ(eval("round(2.5)"), Value{std::int64_t{2}});
  EXPECT_EQ(eval("round(3.14159, 2)"), Value{3.14});
  EXPECT_EQ(eval("max(1, round(x / 1024))", {{"x", std::int64_t{4096}}}), Value{std::int64_t{4}});
  EXPECT_EQ(eval("capacity_kbps * 1024", {{"capacity_kbps", std::int64_t{256}}}), Value{std::int64_t{262144}});
  EXPECT_EQ(eval("int(true)", {{"true", true}}), Value{std::int64_t{1}});
  EXPECT_NE(thrown_by([] { eval("1 / 0"); }).find("division by zero"), std::string::npos);
  EXPECT_NE(thrown_by([] { eval("nope(1)"); }).find("unknown function nope()"), std::string::npos);
  EXPECT_NE(thrown_by([] { eval("y + 1"); }).find("unknown name 'y'"), std::string::npos);
  EXPECT_NE(thrown_by([] { eval("b * 3", {{"b", true}}); }).find("true is not a number"), std::string::npos);
}

TEST(ScenarioShellWords, SplitsAsTheShellDoes) {
  const auto parts = split_shell("exec dissem-load receive --group 'a b' --x \"q\\\"t\" || test $? -eq 4");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].words, (std::vector<std::string>{"exec", "dissem-load", "receive", "--group", "a b", "--x", "q\"t"}));
  EXPECT_EQ(parts[0].then, "||");
  EXPECT_EQ(parts[1].words, (std::vector<std::string>{"test", "$?", "-eq", "4"}));
  EXPECT_EQ(split_shell("a; b & c | d && e").size(), 5u);
  EXPECT_THROW(split_shell("head -c 1 > f"), ShellSyntaxError);
  EXPECT_THROW(split_shell("echo 'open"), ShellSyntaxError);
  EXPECT_THROW(split_shell("a &&"), ShellSyntaxError);
}

TEST(ScenarioTemplate, RendersAndKeepsASinglePlaceholdersValue) {
  const TemplateText t("{rate:.1f} bit/s, {{literal}}");
  EXPECT_EQ(t.render({{"rate", 2.25}}), "2.2 bit/s, {literal}");
  EXPECT_EQ(TemplateText("{reliability}").value({{"reliability", 0.9}}), Value{0.9});
  EXPECT_EQ(TemplateText("{n * 2}").render({{"n", 1.5}}), "3");
  EXPECT_NE(thrown_by([] { TemplateText("{a}").check_names({"b"}); }).find("unknown placeholder name a"), std::string::npos);
  EXPECT_NE(thrown_by([] { TemplateText("oops}"); }).find("single '}'"), std::string::npos);
}

TEST(ScenarioCell, PicksValuesAndNamesTheCellAsTheRunnerDoes) {
  const auto d = doc_of("count = 2", "kind = \"full\"", "capacity_kbps = [56, 128]\nreliability = [0.9]\nlabel = [\"a b\"]");
  const auto cell = pick_cell(d.matrix, {"capacity_kbps=128"}, d.source);
  EXPECT_EQ(cell_id(cell), "capacity_kbps-128_reliability-0.9_label-a-b");
  EXPECT_EQ(thrown_by([&] { pick_cell(d.matrix, {}, d.source); }),
            "s.toml: matrix.capacity_kbps: has 2 values: pick one with --cell capacity_kbps=VALUE (values: 56, 128)");
  EXPECT_NE(thrown_by([&] { pick_cell(d.matrix, {"capacity_kbps=64"}, d.source); }).find("is not among its values"),
            std::string::npos);
  EXPECT_NE(thrown_by([&] { pick_cell(d.matrix, {"bogus=1"}, d.source); }).find("no such matrix key"), std::string::npos);
}

TEST(ScenarioCell, EveryCellOfTheMatrixAsTheRunnerListsThem) {
  const auto d = doc_of("count = 2", "kind = \"full\"", "capacity_kbps = [56, 128]\nreliability = [0.9, 0.8, 0.7]");
  const auto cells = every_cell(d.matrix);
  ASSERT_EQ(cells.size(), 6u);
  EXPECT_EQ(cell_id(cells.front()), "capacity_kbps-56_reliability-0.9");  // the first key varies slowest
  EXPECT_EQ(cell_id(cells[1]), "capacity_kbps-56_reliability-0.8");
  EXPECT_EQ(cell_id(cells.back()), "capacity_kbps-128_reliability-0.7");
  const auto none = every_cell(doc_of("count = 2", "kind = \"full\"").matrix);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(cell_id(none.front()), "default");
}

TEST(ScenarioExpansion, FullLineAndGrid) {
  const auto full = expand_doc(doc_of("count = 3",
                                      "kind = \"full\"\ncapacity_bps = 256000\nreliability = 0.9\nlatency_ms = 5\n"
                                      "jitter_ms = 1\ndup_pct = 2"));
  ASSERT_EQ(full.links.size(), 6u);
  EXPECT_EQ(full.links.at({1, 2}), (LinkParams{0.005, 0.001, 10.0, 2.0, 256000, 256000}));
  EXPECT_FALSE(full.default_disconnected);
  const auto line = expand_doc(doc_of("count = 4", "kind = \"line\""));
  EXPECT_EQ(line.links.size(), 6u);
  EXPECT_TRUE(line.links.contains({2, 3}) && !line.links.contains({1, 3}));
  EXPECT_TRUE(line.default_disconnected);
  const auto grid = expand_doc(doc_of("count = 6", "kind = \"grid\"\nrows = 2\ncols = 3"));
  EXPECT_EQ(grid.links.size(), 14u);
  EXPECT_TRUE(grid.links.contains({2, 5}) && grid.links.contains({3, 6}) && !grid.links.contains({3, 4}));
}

TEST(ScenarioExpansion, OverridesByRoleAndAsymmetricLinks) {
  const std::string topo = "kind = \"full\"\ncapacity_bps = 1048576\nreliability = 0.9\n"
                           "[[topology.override]]\nfrom = \"role:sender\"\nto = \"*\"\ncapacity_bps = 235520\n"
                           "reliability = \"{sender_reliability}\"\nasymmetric = \"{asymmetric}\"\n";
  const auto d = doc_of("names = [\"uav\", \"g1\", \"g2\"]\n[nodes.roles]\nsender = [\"uav\"]", topo,
                        "sender_reliability = [0.5]\nasymmetric = [true, false]");
  const auto x = expand_doc(d, {"asymmetric=true"});
  EXPECT_EQ(x.links.at({1, 2}), (LinkParams{0, 0, 50.0, 0, 235520, 235520}));
  EXPECT_TRUE(x.links.at({2, 1}).disabled() && x.links.at({3, 1}).disabled());
  EXPECT_EQ(x.links.at({2, 3}).unicast_bps, 1048576);
  EXPECT_FALSE(expand_doc(d, {"asymmetric=false"}).links.at({2, 1}).disabled());
}

TEST(ScenarioExpansion, TimedChangesAndPartitionHeal) {
  const std::string topo = "kind = \"line\"\n[[topology.override]]\nfrom = \"n3\"\nto = \"n2\"\nenabled = false\n"
                           "[[topology.event]]\nat_s = 10\nfrom = \"n1\"\nto = \"n2\"\nreliability = 0.5\n"
                           "[[topology.event]]\nat_s = 12\nfrom = [\"n1\", \"n2\"]\nto = [\"n1\", \"n2\"]\nenabled = false\n";
  const auto x = expand_doc(doc_of("count = 3", topo));
  EXPECT_TRUE(state_at(x, {3, 2}, 0).disabled());
  EXPECT_EQ(state_at(x, {1, 2}, 10).loss_pct, 50);
  EXPECT_TRUE(state_at(x, {1, 2}, 12).disabled() && state_at(x, {2, 1}, 12).disabled());

  const auto p = expand_doc(doc_of("count = 5",
                                   "kind = \"partition-heal\"\nclusters = [2, 3]\npartition_at_s = 20\n"
                                   "heal_at_s = \"{20 + outage_s}\"\nreliability = 0.8",
                                   "outage_s = [15]"));
  EXPECT_EQ(p.links.size(), 2u + 6u + 2u);
  EXPECT_TRUE(state_at(p, {2, 3}, 25).disabled());
  EXPECT_EQ(state_at(p, {2, 3}, 35).loss_pct, 20.0);
}

TEST(ScenarioExpansion, LiteralEelWithPlaceholdersAndConventions) {
  const std::string eel = "eel = \"\"\"\n# comment\n0 nem:2 commeffect nem:1,0,0,{loss},0,{rate},{rate}\n\"\"\"";
  const auto x = expand_doc(doc_of("count = 2", eel, "loss = [10]\nrate = [1000]"));
  ASSERT_EQ(x.events.size(), 1u);
  EXPECT_EQ(x.events[0].sender, 2);
  EXPECT_EQ(x.events[0].params, (LinkParams{0, 0, 10, 0, 1000, 1000}));
  EXPECT_TRUE(x.default_disconnected);
  const auto r = expand_doc(doc_of("count = 2", eel + "\neel_convention = \"receiver-first\"", "loss = [10]\nrate = [1000]"));
  EXPECT_EQ(r.events[0].sender, 1);
  const auto bad = doc_of("count = 2", "eel = \"0 nem:1 pathloss nem:2,90\"");
  EXPECT_EQ(thrown_by([&] { expand_doc(bad); }), "s.toml: topology.eel: line 1: only commeffect events are supported, found 'pathloss'");
  // The one EEL reader (dissem-emu's too): no infinite delay, no sign on a rate, each refusal naming the field.
  const std::pair<const char*, const char*> odd_entries[] = {
      {"nem:2,inf,0,0,0,0,0", "line 1: field 'latency': 'inf' is not a number of seconds"},
      {"nem:2,0,nan,0,0,0,0", "line 1: field 'jitter': 'nan' is not a number of seconds"},
      {"nem:2,0,0,0,0,+5,0", "line 1: field 'unicast_bps': '+5' is not a non-negative whole number of bits per second"},
      {"nem:1,0,0,0,0,0,0", "line 1: entry 'nem:1,0,0,0,0,0,0' sets an effect of nem 1 on itself"}};
  for (const auto& [entry, message] : odd_entries) {
    const auto odd = doc_of("count = 2", std::string("eel = \"0 nem:1 commeffect ") + entry + "\"");
    EXPECT_EQ(thrown_by([&] { expand_doc(odd); }), std::string("s.toml: topology.eel: ") + message) << entry;
  }
  // Receiver-first: the line's nem receives, and a refusal says so.
  const auto receiving = doc_of("count = 2", "eel = \"0 nem:70000 commeffect nem:1,0,0,0,0,0,0\"\n"
                                             "eel_convention = \"receiver-first\"");
  EXPECT_EQ(thrown_by([&] { expand_doc(receiving); }),
            "s.toml: topology.eel: line 1: field 'receiving nem': nem id 70000 is not in 1..65535");
}

TEST(ScenarioExpansion, GeometricNumberedFromTheCornerAndTheSameForEveryRunSeed) {
  const auto d = doc_of("count = 50", "kind = \"geometric\"\nradius = 0.25\ngraph_seed = 1");
  const auto x = expand_doc(d, {}, 1);
  ASSERT_TRUE(x.graph.has_value());
  EXPECT_EQ(x.links.size(), 2 * x.graph->edges());
  EXPECT_EQ(reachable_from_first(*x.graph), 50u);
  for (std::size_t i = 1; i < x.graph->points.size(); ++i) {
    const auto& a = x.graph->points[i - 1];
    const auto& b = x.graph->points[i];
    EXPECT_LE(a.x * a.x + a.y * a.y, b.x * b.x + b.y * b.y);
  }
  EXPECT_EQ(expand_doc(d, {}, 7).links, x.links);
  const auto by_degree = expand_doc(doc_of("count = 50", "kind = \"geometric\"\ndegree = 8"));
  EXPECT_NEAR(by_degree.graph->mean_degree(), 8, 2);
  EXPECT_NE(thrown_by([] { expand_doc(doc_of("count = 50", "kind = \"geometric\"\nradius = 0.02")); })
                .find("s.toml: topology.radius: geometric graph far from connected"),
            std::string::npos);
}

TEST(ScenarioExpansion, EachLinkDrawsItsOwnReliabilityPerSeed) {
  const std::string topo = "kind = \"full\"\n[[topology.override]]\nfrom = \"1\"\nto = \"*\"\n"
                           "reliability_range = [0.6, 0.95]\n";
  const auto d = doc_of("count = 6", topo);
  const auto one = expand_doc(d, {}, 1);
  const auto again = expand_doc(d, {}, 1);
  const auto other = expand_doc(d, {}, 2);
  std::set<double> losses;
  for (int to = 2; to <= 6; ++to) {
    const double loss = one.links.at({1, to}).loss_pct;
    EXPECT_GE(loss, 5.0 - 1e-9);
    EXPECT_LE(loss, 40.0 + 1e-9);
    EXPECT_EQ(loss, again.links.at({1, to}).loss_pct) << "the same seed draws the same";
    losses.insert(loss);
    EXPECT_EQ(one.links.at({to, 1}).loss_pct, 0.0) << "only the matched direction";
  }
  EXPECT_EQ(losses.size(), 5u) << "each link its own draw";
  EXPECT_NE(one.links.at({1, 2}).loss_pct, other.links.at({1, 2}).loss_pct) << "another seed, another draw";
  EXPECT_EQ(thrown_by([&] { doc_of("count = 2", topo + "reliability = 0.5\n"); }),
            "s.toml: topology.override[1].reliability_range: conflicts with reliability: give one of them");
  EXPECT_EQ(thrown_by([&] { expand_doc(doc_of("count = 2", "kind = \"full\"\n[[topology.override]]\n"
                                                          "reliability_range = [0.9, 0.5]\n")); }),
            "s.toml: topology.override[1].reliability_range: [0.9, 0.5]: lowest above highest");
  EXPECT_NE(thrown_by([&] { doc_of("count = 2", "kind = \"full\"\n[[topology.event]]\nat_s = 1\n"
                                               "reliability_range = [0.5, 0.9]\n"); }).find("reliability_range"),
            std::string::npos);
}

TEST(ScenarioExpansion, OutagesAreDrawnPerSeedAndFoldedIn) {
  const std::string topo = "kind = \"full\"\n[[topology.outage]]\nfrom = \"a\"\nto = \"b\"\nmean_up_s = 20\nmean_down_s = 1\n";
  const auto d = doc_of("names = [\"a\", \"b\"]", topo);
  const auto x = expand_doc(d, {}, 1, 600.0);
  ASSERT_FALSE(x.outages.empty());
  const auto& spans = x.outages.at({1, 2});
  EXPECT_EQ(spans, x.outages.at({2, 1})) << "both directions by default";
  EXPECT_GT(spans.size(), 10u);
  for (std::size_t i = 0; i < spans.size(); ++i) {
    EXPECT_LT(spans[i].first, spans[i].second);
    if (i > 0) {
      EXPECT_GT(spans[i].first, spans[i - 1].second);
    }
    const double mid = (spans[i].first + spans[i].second) / 2;
    EXPECT_TRUE(state_at(x, {1, 2}, mid).disabled());
    EXPECT_FALSE(state_at(x, {1, 2}, spans[i].second).disabled());
  }
  EXPECT_EQ(expand_doc(d, {}, 1, 600.0).outages, x.outages);
  EXPECT_NE(expand_doc(d, {}, 2, 600.0).outages, x.outages);
  EXPECT_TRUE(expand_doc(d, {}, 1, std::nullopt).outages.empty());
}

TEST(ScenarioExpansion, OutageDurationsFollowTheirMeans) {
  const auto d = doc_of("names = [\"a\", \"b\"]",
                        "kind = \"full\"\n[[topology.outage]]\nfrom = \"a\"\nto = \"b\"\nmean_up_s = 20\nmean_down_s = 1\n");
  const auto spans = expand_doc(d, {}, 7, 200'000.0).outages.at({1, 2});
  ASSERT_GT(spans.size(), 8000u);
  double down = 0;
  double up = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    down += spans[i].second - spans[i].first;
    if (i > 0) up += spans[i].first - spans[i - 1].second;
  }
  EXPECT_NEAR(down / static_cast<double>(spans.size()), 1.0, 0.05);
  EXPECT_NEAR(up / static_cast<double>(spans.size() - 1), 20.0, 1.0);
}

TEST(ScenarioDocument, ErrorsNameTheFileAndTheKey) {
  EXPECT_EQ(thrown_by([] { doc_of("count = 3", "kind = \"full\"\nreliability = 1.5"); }),
            "s.toml: topology.reliability: 1.5 is above 1");
  EXPECT_EQ(thrown_by([] { doc_of("count = 3", "kind = \"full\"\nrows = 2"); }).rfind("s.toml: topology.rows: unknown key", 0), 0u);
  EXPECT_EQ(thrown_by([] { doc_of("count = 3", "kind = \"star\""); }),
            "s.toml: topology.kind: 'star' is not one of full, line, grid, partition-heal, geometric, eel");
  EXPECT_EQ(thrown_by([] { doc_of("count = 4", "kind = \"grid\"\nrows = 3\ncols = 3"); }),
            "s.toml: topology.rows: 3 x 3 grid needs 9 nodes, the scenario has 4");
  EXPECT_NE(thrown_by([] { doc_of("count = 3", "reliability = \"{nope}\""); }).find("s.toml: topology.reliability: unknown placeholder name nope"),
            std::string::npos);
  EXPECT_NE(thrown_by([] { doc_of("count = 3", "[[topology.override]]\nfrom = \"n9\"\nreliability = 0.5"); })
                .find("s.toml: topology.override[1].from: 'n9' is no node name"),
            std::string::npos);
  const auto d = doc_of("count = 3", "kind = \"line\"\n[[topology.override]]\nfrom = \"n1\"\nto = \"n3\"\nreliability = 0.5");
  EXPECT_EQ(thrown_by([&] { expand_doc(d); }), "s.toml: topology.override[1]: matches no link of the line topology");
  const auto t = doc_of("count = 2", "reliability = \"{r}\"", "r = [2]");
  EXPECT_EQ(thrown_by([&] { expand_doc(t); }), "s.toml: topology.reliability: 2 is above 1");
}

}  // namespace scenario_language_test
