// Local subscriptions (engine/subscriptions.h): bookkeeping by group, the
// filters, and the delivery disciplines: unordered, ordered reliable (waits
// until a gap is given up) and ordered unreliable (skips after the reorder time).
#include "engine/subscribers/subscriptions.h"
#include "support/test_time.h"

#include <gtest/gtest.h>

#include <limits>

namespace dissem::engine::subscriptions_test {
namespace {

const StreamId kStream{"g", 7};

MessageId msg(std::uint64_t seq, NodeId publisher = 7, const std::string& group = "g") {
  return {group, publisher, seq};
}

Subscription sub(bool ordered, bool reliable, const std::string& group = "g") {
  Subscription s;
  s.group = group;
  s.ordered = ordered;
  s.reliable = reliable;
  return s;
}

// A tracker in which `stream`'s baseline is `baseline` (first contact, no history).
MessageTracker tracker_from(std::uint64_t baseline, const StreamId& stream = kStream) {
  MessageTracker t(1000);
  t.learn_newest(stream, baseline, true, 0, true, kT0);
  return t;
}

// Completes message `id` in the tracker (one fragment).
void complete(MessageTracker& t, const MessageId& id) {
  MessageMeta m;
  m.id = id;
  m.total_length = 10;
  m.digest = 1;
  t.learn_newest(stream_of(id), id.seq, true, 0, false, kT0);
  ASSERT_EQ(t.on_fragment(m, 0, 10, kT0), FragmentOutcome::Completed);
}

std::vector<std::uint64_t> seqs(const std::vector<DeliveryOrder>& out, bool skipped) {
  std::vector<std::uint64_t> r;
  for (const auto& o : out)
    if (o.skipped == skipped) r.push_back(o.message.seq);
  return r;
}

using Seqs = std::vector<std::uint64_t>;

TEST(Subscriptions, IdsAreDistinctAndNeverReused) {
  Subscriptions s;
  const auto a = s.add(sub(false, true));
  const auto b = s.add(sub(false, true));
  EXPECT_NE(a, b);
  ASSERT_NE(s.find(a), nullptr);
  EXPECT_EQ(s.find(a)->group, "g");
  EXPECT_TRUE(s.remove(a));
  EXPECT_FALSE(s.remove(a)) << "already gone";
  EXPECT_EQ(s.find(a), nullptr);
  EXPECT_NE(s.find(b), nullptr);
  const auto c = s.add(sub(false, true));
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_FALSE(s.remove(12345));
  EXPECT_EQ(s.find(0), nullptr);
}

TEST(Subscriptions, GroupQueriesSeeEverySubscriptionOfTheGroup) {
  Subscriptions s;
  EXPECT_FALSE(s.any("g"));
  EXPECT_TRUE(s.groups().empty());
  EXPECT_FALSE(s.reliable("g"));
  EXPECT_EQ(s.history("g", 50), 0u);

  const auto unrel = s.add(sub(true, false, "g"));
  s.add(sub(false, false, "b"));
  s.add(sub(false, false, "b"));
  EXPECT_TRUE(s.any("g"));
  EXPECT_FALSE(s.any("G")) << "names are exact";
  EXPECT_EQ(s.groups(), (std::set<std::string>{"b", "g"}));
  EXPECT_FALSE(s.reliable("g"));
  const auto rel = s.add(sub(false, true, "g"));
  EXPECT_TRUE(s.reliable("g")) << "one reliable subscription makes the group reliable";
  EXPECT_FALSE(s.reliable("b"));
  s.remove(rel);
  EXPECT_FALSE(s.reliable("g"));
  s.remove(unrel);
  EXPECT_FALSE(s.any("g"));
  EXPECT_EQ(s.groups(), (std::set<std::string>{"b"}));
}

TEST(Subscriptions, HistoryIsTheLargestAskedAndMayFollowThePublisher) {
  Subscriptions s;
  auto a = sub(false, true);
  a.history = 10;
  s.add(a);
  auto other = sub(false, true, "other");
  other.history = 1000;
  s.add(other);
  EXPECT_EQ(s.history("g", 500), 10u) << "the publisher's hint is not asked for";
  auto b = sub(false, true);
  b.history = 20;
  b.use_publisher_history = true;
  s.add(b);
  EXPECT_EQ(s.history("g", 5), 20u) << "the subscription's own history is a floor";
  EXPECT_EQ(s.history("g", 500), 500u);
  EXPECT_EQ(s.history("none", 500), 0u);
}

TEST(Subscriptions, FiltersAcceptByPriorityAndTag) {
  Subscription s = sub(false, true);
  MessageMeta m;
  m.priority = 3;
  m.tag = "x";
  EXPECT_TRUE(s.accepts(m)) << "no filter";
  s.min_priority = 3;
  EXPECT_TRUE(s.accepts(m)) << "the minimum itself";
  s.min_priority = 4;
  EXPECT_FALSE(s.accepts(m));
  s.min_priority = 0;
  s.tags = {"a", "x"};
  EXPECT_TRUE(s.accepts(m));
  m.tag = "";
  EXPECT_FALSE(s.accepts(m)) << "untagged is not any of the tags";
  m.tag = "X";
  EXPECT_FALSE(s.accepts(m));
}

TEST(Subscriptions, UnorderedDeliversOnCompletionOnlyAndOnlyItsGroup) {
  Subscriptions s;
  const auto id = s.add(sub(false, true));
  s.add(sub(false, true, "other"));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  s.on_settled(msg(5), true, t, kT0, out);
  s.on_settled(msg(2), true, t, kT0, out);
  s.on_settled(msg(3), false, t, kT0, out);  // given up: nothing to deliver
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].subscription, id);
  EXPECT_EQ(out[0].message, msg(5));
  EXPECT_FALSE(out[0].skipped);
  EXPECT_EQ(out[1].message, msg(2)) << "in completion order, no waiting";
  out.clear();
  s.on_settled(msg(1, 7, "nobody"), true, t, kT0, out);
  EXPECT_TRUE(out.empty());
}

TEST(Subscriptions, EverySubscriptionOfTheGroupGetsItsOwnDelivery) {
  Subscriptions s;
  const auto a = s.add(sub(false, true));
  const auto b = s.add(sub(false, false));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  s.on_settled(msg(1), true, t, kT0, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].subscription, a);
  EXPECT_EQ(out[1].subscription, b);
}

TEST(Subscriptions, OrderedReliableHoldsLaterMessagesUntilTheGapIsFilled) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(1));
  s.on_settled(msg(1), true, t, kT0, out);
  EXPECT_EQ(seqs(out, false), (Seqs{1}));
  complete(t, msg(3));
  complete(t, msg(4));
  s.on_settled(msg(3), true, t, kT0, out);
  s.on_settled(msg(4), true, t, kT0 + 10 * kSeconds, out);
  EXPECT_EQ(seqs(out, false), (Seqs{1})) << "2 is missing: reliable waits however long";
  s.on_timer(t, kT0 + 3600 * kSeconds, out);
  EXPECT_EQ(out.size(), 1u) << "no reorder timeout for reliable";
  complete(t, msg(2));
  s.on_settled(msg(2), true, t, kT0 + 3600 * kSeconds, out);
  EXPECT_EQ(seqs(out, false), (Seqs{1, 2, 3, 4}));
  EXPECT_TRUE(seqs(out, true).empty());
}

TEST(Subscriptions, OrderedReliableSkipsAGapOnlyOnceItIsGivenUp) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(1));
  complete(t, msg(3));
  s.on_settled(msg(1), true, t, kT0, out);
  s.on_settled(msg(3), true, t, kT0, out);
  ASSERT_EQ(out.size(), 1u);
  t.settle(msg(2));  // expired: given up
  s.on_settled(msg(2), false, t, kT0, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].message, msg(2));
  EXPECT_TRUE(out[1].skipped);
  EXPECT_EQ(out[2].message, msg(3));
  EXPECT_FALSE(out[2].skipped);
}

TEST(Subscriptions, ADuplicateOrOlderCompletionIsNotDeliveredTwice) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(1));
  complete(t, msg(2));
  s.on_settled(msg(1), true, t, kT0, out);
  s.on_settled(msg(2), true, t, kT0, out);
  s.on_settled(msg(1), true, t, kT0, out);
  s.on_settled(msg(2), true, t, kT0, out);
  EXPECT_EQ(seqs(out, false), (Seqs{1, 2}));
}

TEST(Subscriptions, OrderedDeliveryStartsAtTheStreamsBaselineIncludingHistory) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t(1000);
  t.learn_newest(kStream, 10, true, 3, true, kT0);  // baseline 7: 7..10 missing
  ASSERT_EQ(t.stream(kStream)->baseline, 7u);
  std::vector<DeliveryOrder> out;
  complete(t, msg(10));
  s.on_settled(msg(10), true, t, kT0, out);
  EXPECT_TRUE(out.empty()) << "waits for the history 7..9";
  for (std::uint64_t q : {8u, 9u, 7u}) {
    complete(t, msg(q));
    s.on_settled(msg(q), true, t, kT0, out);
  }
  EXPECT_EQ(seqs(out, false), (Seqs{7, 8, 9, 10}));
}

TEST(Subscriptions, OrderedDeliveryWithoutAKnownStreamStartsAtTheFirstMessage) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t(1000);  // nothing known of the stream
  std::vector<DeliveryOrder> out;
  s.on_settled(msg(42), true, t, kT0, out);
  EXPECT_EQ(seqs(out, false), (Seqs{42}));
  s.on_settled(msg(41), true, t, kT0, out);
  EXPECT_EQ(seqs(out, false), (Seqs{42})) << "before the start: never delivered";
}

TEST(Subscriptions, NothingBelowARaisedBaselineIsAwaited) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(1));
  s.on_settled(msg(1), true, t, kT0, out);
  complete(t, msg(5));
  s.on_settled(msg(5), true, t, kT0, out);
  ASSERT_EQ(seqs(out, false), (Seqs{1})) << "2..4 missing";
  // The stream now starts later (e.g. restored after a restart): 2..4 will
  // never be fetched, so they are not waited for (nor reported skipped).
  t.stream(kStream)->baseline = 5;
  s.on_timer(t, kT0, out);
  EXPECT_EQ(seqs(out, false), (Seqs{1, 5}));
  EXPECT_TRUE(seqs(out, true).empty());
}

TEST(Subscriptions, OrderedUnreliableSkipsAGapAfterTheReorderTime) {
  Subscriptions s;
  s.set_reorder_time(200 * kMillis);
  s.add(sub(true, false));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(1));
  s.on_settled(msg(1), true, t, kT0, out);
  EXPECT_EQ(s.next_deadline(200 * kMillis), std::numeric_limits<Micros>::max()) << "nothing waiting";
  complete(t, msg(3));
  s.on_settled(msg(3), true, t, kT0 + kSeconds, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(s.next_deadline(200 * kMillis), kT0 + kSeconds + 200 * kMillis);
  EXPECT_EQ(s.next_deadline(50 * kMillis), kT0 + kSeconds + 50 * kMillis) << "the caller's reorder time";
  s.on_timer(t, kT0 + kSeconds + 200 * kMillis - 1, out);
  EXPECT_EQ(out.size(), 1u) << "one microsecond early";
  s.on_timer(t, kT0 + kSeconds + 200 * kMillis, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].message, msg(2));
  EXPECT_TRUE(out[1].skipped);
  EXPECT_EQ(out[2].message, msg(3));
  EXPECT_FALSE(out[2].skipped);
  EXPECT_EQ(s.next_deadline(200 * kMillis), std::numeric_limits<Micros>::max()) << "nothing waiting any more";
}

TEST(Subscriptions, TheReorderClockRestartsAtEachNewGap) {
  Subscriptions s;
  s.set_reorder_time(100 * kMillis);
  s.add(sub(true, false));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(2));
  complete(t, msg(4));
  s.on_settled(msg(2), true, t, kT0, out);   // gap at 1 from kT0
  s.on_settled(msg(4), true, t, kT0 + 50 * kMillis, out);
  s.on_timer(t, kT0 + 100 * kMillis, out);   // 1 skipped, 2 delivered, gap at 3 from now
  EXPECT_EQ(seqs(out, true), (Seqs{1}));
  EXPECT_EQ(seqs(out, false), (Seqs{2}));
  EXPECT_EQ(s.next_deadline(100 * kMillis), kT0 + 200 * kMillis);
  s.on_timer(t, kT0 + 199 * kMillis, out);
  EXPECT_EQ(seqs(out, true), (Seqs{1}));
  s.on_timer(t, kT0 + 200 * kMillis, out);
  EXPECT_EQ(seqs(out, true), (Seqs{1, 3}));
  EXPECT_EQ(seqs(out, false), (Seqs{2, 4}));
}

TEST(Subscriptions, AGapFilledInTimeIsDeliveredNotSkipped) {
  Subscriptions s;
  s.add(sub(true, false));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(2));
  s.on_settled(msg(2), true, t, kT0, out);
  complete(t, msg(1));
  s.on_settled(msg(1), true, t, kT0 + 10 * kMillis, out);
  EXPECT_EQ(seqs(out, false), (Seqs{1, 2}));
  EXPECT_TRUE(seqs(out, true).empty());
  EXPECT_EQ(s.next_deadline(200 * kMillis), std::numeric_limits<Micros>::max());
}

TEST(Subscriptions, ReliableSubscriptionsHaveNoReorderDeadline) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(3));
  s.on_settled(msg(3), true, t, kT0, out);
  EXPECT_EQ(s.next_deadline(200 * kMillis), std::numeric_limits<Micros>::max());
}

TEST(Subscriptions, EachPublisherIsOrderedOnItsOwn) {
  Subscriptions s;
  s.add(sub(true, true));
  MessageTracker t = tracker_from(1);
  const StreamId other{"g", 8};
  t.learn_newest(other, 1, true, 0, true, kT0);
  std::vector<DeliveryOrder> out;
  complete(t, msg(2, 7));
  s.on_settled(msg(2, 7), true, t, kT0, out);  // publisher 7 waits for its 1
  complete(t, msg(1, 8));
  s.on_settled(msg(1, 8), true, t, kT0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, msg(1, 8)) << "not held back by publisher 7's gap";
}

TEST(Subscriptions, ARemovedSubscriptionGetsNothingMore) {
  Subscriptions s;
  const auto a = s.add(sub(true, false));
  MessageTracker t = tracker_from(1);
  std::vector<DeliveryOrder> out;
  complete(t, msg(2));
  s.on_settled(msg(2), true, t, kT0, out);
  EXPECT_NE(s.next_deadline(200 * kMillis), std::numeric_limits<Micros>::max());
  ASSERT_TRUE(s.remove(a));
  EXPECT_EQ(s.next_deadline(200 * kMillis), std::numeric_limits<Micros>::max());
  s.on_timer(t, kT0 + 3600 * kSeconds, out);
  complete(t, msg(3));
  s.on_settled(msg(3), true, t, kT0, out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace dissem::engine::subscriptions_test
