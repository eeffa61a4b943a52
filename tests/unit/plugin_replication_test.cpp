// Replication through the controller plugin ABI: the example plugin's policy
// (push only urgent messages the peer lacks, most urgent first) reaches the
// engine's ReplicationController interface, and a faulty plugin's decisions
// are clamped or dropped rather than trusted.
#include <gtest/gtest.h>

#include <string>

#include "controllers/plugin/plugin_controllers.h"
#include "controllers/plugin/plugin_loader.h"
#include "support/quiet_node_view.h"

namespace dissem::controllers::plugin_replication_test {
namespace {

using dissem::testing::QuietView;

PluginReplication load(const std::string& path, const std::string& params, double budget = 0.25) {
  return PluginReplication(std::make_shared<PluginInstance>(PluginLibrary::open(path), params), budget);
}

HeldMessage held(const std::string& group, NodeId publisher, std::uint64_t seq, std::uint32_t priority) {
  return {MessageId{group, publisher, seq}, 100, priority};
}

// Ordered as the engine orders them: by group, publisher, seq.
const std::vector<HeldMessage> kHeld = {held("g", 1, 1, 3), held("g", 1, 2, 2), held("g", 1, 3, 0),
                                        held("g", 1, 4, 5), held("g", 2, 1, 2)};

PeerSummary peer_holding_g1_seq1(bool reply, bool truncated) {
  PeerSummary s;
  s.peer = 7;
  s.reply = reply;
  s.truncated = truncated;
  s.wants = {"g"};
  s.streams = {HeldStream{StreamId{"g", 1}, {SeqRange{1, 2}}}};
  return s;
}

TEST(PluginReplication, TheExamplePushesOnlyUrgentMessagesThePeerLacksMostUrgentFirst) {
  auto r = load(DISSEM_EXAMPLE_PLUGIN, "min_priority=2");
  QuietView view;
  Random rng(3);
  // g/1/1 the peer holds; g/1/3 is routine; g/2/1 it lacks (its stream is
  // not listed in a complete summary). Priority 5, then the two of 2 in order.
  const auto answer = r.on_summary(peer_holding_g1_seq1(false, false), kHeld, view, 0, rng);
  EXPECT_EQ(answer.pushes, (std::vector<MessageId>{{"g", 1, 4}, {"g", 1, 2}, {"g", 2, 1}}));
  ASSERT_TRUE(answer.reply_delay.has_value());  // a first summary is answered, soon
  EXPECT_GE(*answer.reply_delay, 0);
  EXPECT_LT(*answer.reply_delay, 4 * view.packet_time());

  // An answer is not answered; a truncated summary that does not list g/2
  // cannot tell whether the peer holds g/2/1, so it is not pushed.
  const auto to_reply = r.on_summary(peer_holding_g1_seq1(true, true), kHeld, view, 0, rng);
  EXPECT_FALSE(to_reply.reply_delay.has_value());
  EXPECT_EQ(to_reply.pushes, (std::vector<MessageId>{{"g", 1, 4}, {"g", 1, 2}}));

  // The built-in anti-entropy would push all four the peer lacks.
  EXPECT_EQ(load(DISSEM_EXAMPLE_PLUGIN, "min_priority=0").on_summary(peer_holding_g1_seq1(false, false), kHeld,
                                                                     view, 0, rng).pushes.size(),
            4u);
}

TEST(PluginReplication, TheExampleSummarisesOnContactAndSetsItsPolicy) {
  auto r = load(DISSEM_EXAMPLE_PLUGIN, "", 0.4);
  QuietView view;
  Random rng(5);
  for (int i = 0; i < 20; ++i) {
    const auto delay = r.on_contact(static_cast<NodeId>(i + 1), view, 0, rng);
    ASSERT_TRUE(delay.has_value());
    EXPECT_GE(*delay, 0);
    EXPECT_LT(*delay, view.serve_delay_max() + 4 * view.packet_time());
  }
  r.on_peer_silent(1);  // NULL in the example: nothing to call
  r.on_summary_sent(0);
  EXPECT_TRUE(r.active());
  EXPECT_DOUBLE_EQ(r.budget_fraction(), 0.4);  // replication.budget_fraction: the example keeps it
  EXPECT_FALSE(r.learn_from_summaries());      // the example turns pulling off
}

TEST(PluginReplication, AFaultyPluginsDecisionsAreClampedAndFiltered) {
  auto r = load(DISSEM_PLUGIN_FAULTY_REPLICATION, "budget=0.5");
  EXPECT_DOUBLE_EQ(r.budget_fraction(), 0.5);
  EXPECT_TRUE(r.learn_from_summaries());  // the prefilled default, untouched
  QuietView view;
  Random rng(1);
  EXPECT_EQ(r.on_contact(1, view, 0, rng), std::optional<Micros>(0));  // it asked for -5 us
  const std::vector<HeldMessage> three(kHeld.begin(), kHeld.begin() + 3);
  const auto answer = r.on_summary(peer_holding_g1_seq1(false, false), three, view, 0, rng);
  EXPECT_EQ(answer.reply_delay, std::optional<Micros>(3600 * kSeconds));  // it asked for INT64_MAX us
  // It wrote indices 2, 10 (out of range) and 2 again.
  EXPECT_EQ(answer.pushes, (std::vector<MessageId>{{"g", 1, 3}}));
  EXPECT_TRUE(r.on_summary(peer_holding_g1_seq1(false, false), {}, view, 0, rng).pushes.empty());
}

TEST(PluginReplication, ABudgetOutsideItsRangeIsRefusedNamingTheFile) {
  for (const char* params : {"budget=0", "budget=1.5", "budget=nan"}) {
    try {
      load(DISSEM_PLUGIN_FAULTY_REPLICATION, params);
      ADD_FAILURE() << params << " was accepted";
    } catch (const PluginError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(DISSEM_PLUGIN_FAULTY_REPLICATION), std::string::npos) << what;
      EXPECT_NE(what.find("replication_policy() set budget_fraction"), std::string::npos) << what;
      EXPECT_NE(what.find("outside 0.001 .. 1"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace dissem::controllers::plugin_replication_test
