// Anti-entropy's and the deletion policies' decisions, and the controllers'
// settings table.
#include <gtest/gtest.h>

#include <map>

#include "controllers/controller_set.h"
#include "support/quiet_node_view.h"
#include "controllers/deletion/deletion_controller.h"
#include "controllers/replication/anti_entropy.h"

namespace dissem::controllers::replication_deletion_controller_test {
namespace {

using dissem::testing::QuietView;

HeldMessage held(const std::string& group, NodeId publisher, std::uint64_t seq, std::uint32_t bytes = 1000,
                 std::uint32_t priority = 0) {
  return HeldMessage{MessageId{group, publisher, seq}, bytes, priority};
}

TEST(AntiEntropy, SummarisesOnContactAfterARandomDelayAndNotMoreOftenThanTheInterval) {
  AntiEntropy ae({0.25, 1 << 20, 0, 2 * kSeconds});
  QuietView view;
  Random rng(1);
  const auto first = ae.on_contact(5, view, 0, rng);
  ASSERT_TRUE(first);
  EXPECT_LE(*first, view.serve_delay_max() + 4 * view.packet_time());
  ae.on_summary_sent(*first);
  // Another contact right after: its summary waits for the interval.
  const auto second = ae.on_contact(6, view, *first + 100 * kMillis, rng);
  ASSERT_TRUE(second);
  EXPECT_GE(*first + 100 * kMillis + *second, *first + 2 * kSeconds);
}

TEST(AntiEntropy, OneExchangePerContact) {
  AntiEntropy ae({0.25, 1 << 20, 0, 0});
  QuietView view;
  Random rng(1);
  PeerSummary s;
  s.peer = 5;
  // A summary from a peer we have not met (for us): no answer.
  EXPECT_FALSE(ae.on_summary(s, {}, view, 0, rng).reply_delay);
  ae.on_contact(5, view, 0, rng);
  // Met, ours not sent yet: answer, soon.
  const auto r = ae.on_summary(s, {}, view, 0, rng);
  ASSERT_TRUE(r.reply_delay);
  EXPECT_LE(*r.reply_delay, 4 * view.packet_time());
  ae.on_summary_sent(1);
  EXPECT_FALSE(ae.on_summary(s, {}, view, 2, rng).reply_delay);  // ours went out: done
  // A reply is never answered, even at a new contact.
  ae.on_contact(5, view, 3, rng);
  s.reply = true;
  EXPECT_FALSE(ae.on_summary(s, {}, view, 4, rng).reply_delay);
  // Silent and back: a new contact, a new exchange.
  ae.on_peer_silent(5);
  ae.on_contact(5, view, 5, rng);
  s.reply = false;
  EXPECT_TRUE(ae.on_summary(s, {}, view, 6, rng).reply_delay);
}

TEST(AntiEntropy, PushesWhatThePeerLacksAndWants) {
  AntiEntropy ae({0.25, 1 << 20, 0, 0});
  QuietView view;
  Random rng(1);
  PeerSummary s;
  s.peer = 5;
  s.wants = {"chat", "maps"};
  s.streams = {{StreamId{"chat", 1}, {{1, 3}, {4, 5}}}};  // holds chat/1: 1, 2, 4
  const std::vector<HeldMessage> ours = {held("chat", 1, 1), held("chat", 1, 3), held("chat", 1, 4),
                                         held("chat", 1, 5), held("chat", 2, 1), held("news", 1, 1),
                                         held("maps", 3, 7, 5000, 2)};
  const auto r = ae.on_summary(s, ours, view, 0, rng);
  // The map first (priority 2), then in stream order; news is not wanted.
  const std::vector<MessageId> expected = {{"maps", 3, 7}, {"chat", 1, 3}, {"chat", 1, 5}, {"chat", 2, 1}};
  EXPECT_EQ(r.pushes, expected);

  // Truncated summary: streams it did not list are unknown, not empty.
  s.truncated = true;
  const auto t = ae.on_summary(s, ours, view, 0, rng);
  EXPECT_EQ(t.pushes, (std::vector<MessageId>{{"chat", 1, 3}, {"chat", 1, 5}}));
}

TEST(AntiEntropy, PushesNoMoreThanTheByteBudgetPerSummary) {
  AntiEntropy ae({0.25, 2500, 0, 0});
  QuietView view;
  Random rng(1);
  PeerSummary s;
  s.peer = 5;
  s.wants = {"g"};
  const std::vector<HeldMessage> ours = {held("g", 1, 1), held("g", 1, 2), held("g", 1, 3)};
  EXPECT_EQ(ae.on_summary(s, ours, view, 0, rng).pushes, (std::vector<MessageId>{{"g", 1, 1}, {"g", 1, 2}}));
  EXPECT_TRUE(ae.learn_from_summaries());
  EXPECT_DOUBLE_EQ(ae.budget_fraction(), 0.25);
}

MessageRecord record(std::uint64_t seq, std::uint32_t priority, Micros first_seen, Micros last_used,
                            std::uint64_t expiry_ms = 0) {
  MessageRecord r;
  r.meta.id = MessageId{"g", 1, seq};
  r.meta.priority = priority;
  r.meta.expiry_ms = expiry_ms;
  r.stored_bytes = 100;
  r.first_seen = first_seen;
  r.last_used = last_used;
  r.complete = true;
  return r;
}

TEST(ExpiryPriorityEviction, ExpiredFirstThenLowestPriorityThenLeastRecentlyUsed) {
  const Micros now = Micros{2000} * kSeconds;
  const std::vector<MessageRecord> cache = {
      record(1, 0, 10, 500),          // old but used lately
      record(2, 0, 20, 20),           // never used since it came
      record(3, 1, 5, 5),             // higher priority
      record(4, 5, 30, 30, 1'000'000),  // expired (absolute Unix milliseconds)
  };
  ExpiryPriorityEviction lru(ExpiryPriorityEviction::Recency::LeastRecentlyUsed, 0.5);
  EXPECT_EQ(lru.name(), "expiry-priority-lru");
  // 400 bytes held, quota 300: the expired one goes; 300 is within the quota.
  EXPECT_EQ(lru.select_victims(cache, 400, 300, now), (std::vector<MessageId>{{"g", 1, 4}}));
  // Quota 250: down to 125 (the watermark): the expired, then priority 0 by last use.
  EXPECT_EQ(lru.select_victims(cache, 400, 250, now),
            (std::vector<MessageId>{{"g", 1, 4}, {"g", 1, 2}, {"g", 1, 1}}));
  ExpiryPriorityEviction oldest(ExpiryPriorityEviction::Recency::Oldest, 0.5);
  EXPECT_EQ(oldest.select_victims(cache, 400, 250, now).at(1), (MessageId{"g", 1, 1}));
}

TEST(ControllerSettings, KeysRoundTripAndErrorsNameTheKey) {
  ControllerSettings s;
  set_setting(s, "forwarding", "flooding");  // shorthand
  set_setting(s, "forwarding.probability", "0.5");
  set_setting(s, "forwarding.hop_limit", "4");
  set_setting(s, "forwarding.delay_max_ms", "2.5");
  set_setting(s, "replication.name", "anti-entropy");
  set_setting(s, "deletion", "expiry-priority-oldest");
  set_setting(s, "plugin", "/x.so");
  EXPECT_EQ(s.forwarding, "flooding");
  EXPECT_EQ(s.forwarding_delay_max, 2500);
  EXPECT_EQ(s.plugin_path, "/x.so");
  ControllerSettings back;
  for (const auto& [k, v] : describe_settings(s)) set_setting(back, k, v);
  EXPECT_EQ(back, s);

  const auto message = [&](const std::string& key, const std::string& value) {
    try {
      set_setting(s, key, value);
    } catch (const SettingsError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("forwarding.name", "teleport"),
            "forwarding.name: 'teleport' is not one of none, flooding, subscription-aware, subscriber-tree, relay-set, plugin");
  EXPECT_EQ(message("forwarding.probability", "1.5"), "forwarding.probability: 1.5 is out of range [0, 1]");
  EXPECT_EQ(message("forwarding.hop_limit", "0"), "forwarding.hop_limit: 0 is out of range [1, 255]");
  EXPECT_EQ(message("replication.budget_fraction", "nan"), "replication.budget_fraction: 'nan' is not a finite number");
  EXPECT_EQ(message("forwarding.colour", "red"), "unknown key 'forwarding.colour'");
  EXPECT_TRUE(is_setting("replication"));
  EXPECT_TRUE(is_text_setting("plugin.params"));
  EXPECT_FALSE(is_text_setting("forwarding.hop_limit"));
}

TEST(ControllerSettings, PluginDecisionPointsNeedAPlugin) {
  ControllerSettings s;
  s.deletion = "plugin";
  EXPECT_THROW(check_settings(s), SettingsError);
  EXPECT_THROW(make_controllers(s), SettingsError);
}

TEST(ControllerSet, BuildsTheNamedControllers) {
  ControllerSettings s;
  auto defaults = make_controllers(s);
  EXPECT_EQ(defaults.forwarding->name(), "none");
  EXPECT_EQ(defaults.replication->name(), "none");
  EXPECT_FALSE(defaults.replication->active());
  EXPECT_EQ(defaults.deletion->name(), "expiry-priority-lru");
  s.forwarding = "subscription-aware";
  s.replication = "anti-entropy";
  s.deletion = "expiry-priority-oldest";
  auto chosen = make_controllers(s);
  EXPECT_EQ(chosen.forwarding->name(), "subscription-aware");
  EXPECT_EQ(chosen.replication->name(), "anti-entropy");
  EXPECT_EQ(chosen.deletion->name(), "expiry-priority-oldest");
  s.forwarding = "flooding";
  EXPECT_EQ(make_controllers(s).forwarding->name(), "flooding");
}

}  // namespace
}  // namespace dissem::controllers::replication_deletion_controller_test
