// Replace and cancel (Mockets' timeliness): what a replacing message ends at
// its publisher, at a node that cached the older one, at one that never saw
// it, and at subscribers of every delivery mode; millisecond expiry.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/message_expiry.h"
#include "engine/node.h"
#include "engine/ending/supersession.h"
#include "sim/simulation.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace supersession_test {
namespace {


PublishRequest tagged(const std::string& tag, std::uint8_t salt, bool replace = false) {
  PublishRequest r = request("pos", bytes_of(300, salt));
  r.tag = tag;
  r.replace = replace;
  return r;
}

MessageMeta meta(std::uint64_t seq, const std::string& tag) {
  MessageMeta m;
  m.id = {"pos", 7, seq};
  m.tag = tag;
  return m;
}

// The sequence numbers of the data fragments among `datagrams`.
std::vector<std::uint64_t> data_seqs(const std::vector<std::vector<std::uint8_t>>& datagrams) {
  std::vector<std::uint64_t> out;
  wire::Decoded d;
  AirReader air;
  for (const auto& bytes : only_data(datagrams))
    if (!air.decode(bytes, d)) out.push_back(d.data.seq());
  return out;
}

std::vector<std::uint64_t> delivered(Node& n) {
  std::vector<std::uint64_t> out;
  while (auto d = n.poll_delivery()) out.push_back(d->meta.id.seq);
  return out;
}

std::size_t skipped_events(Node& n) {
  std::size_t k = 0;
  while (auto e = n.poll_event()) k += e->kind == Event::Kind::MessageSkipped;
  return k;
}

void feed(Node& n, const std::vector<std::vector<std::uint8_t>>& datagrams, Micros now) {
  for (const auto& d : datagrams) n.on_datagram(d, now);
}

}  // namespace

TEST(Supersession, RulesByTagAndByNumber) {
  Supersession s;
  MessageMeta by = meta(10, "a");
  by.replace = true;
  by.supersedes = {2, 4, 8, 10};
  EXPECT_TRUE(s.learn(by));
  EXPECT_FALSE(s.learn(by)) << "nothing new the second time";
  EXPECT_TRUE(s.ended(meta(9, "a")));
  EXPECT_TRUE(s.ended(meta(1, "a"))) << "every older message with the tag, named or not";
  EXPECT_FALSE(s.ended(meta(10, "a"))) << "not itself";
  EXPECT_FALSE(s.ended(meta(11, "a"))) << "nor newer ones";
  EXPECT_FALSE(s.ended(meta(5, "b")));
  EXPECT_TRUE(s.ended(meta(3, "b"))) << "named by number whatever its tag";
  EXPECT_TRUE(s.ended(StreamId{"pos", 7}, 8));
  EXPECT_FALSE(s.ended(StreamId{"pos", 7}, 5));
  EXPECT_FALSE(s.ended(StreamId{"pos", 8}, 3)) << "another publisher's stream";
}

TEST(Supersession, PublisherNamesItsRecentMessagesWithTheTag) {
  OwnTags own;
  for (std::uint64_t q = 1; q <= 10; ++q) own.note("g", q, q % 2 == 0 ? "even" : "odd");
  own.note("g", 11, "odd");
  EXPECT_EQ(own.with_tag("g", "odd", 64), (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(own.with_tag("g", "odd", 2), (std::vector<std::uint64_t>{9, 10, 11, 12})) << "the newest kept";
  EXPECT_TRUE(own.with_tag("other", "odd", 64).empty());
}

TEST(Supersession, AReplacementEndsTheOlderOnesInThePublishersQueueAndCache) {
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  const auto a = pub.publish(tagged("p", 1), kT0);
  const auto b = pub.publish(tagged("p", 2), kT0);
  const auto other = pub.publish(tagged("q", 3), kT0);
  const auto c = pub.publish(tagged("p", 4, true), kT0);
  EXPECT_EQ(data_seqs(drain(pub, kT0)), (std::vector<std::uint64_t>{c.seq, other.seq}))
      << "the superseded messages never went on the air; the replacement took the first one's place";
  EXPECT_FALSE(pub.store().contains(a));
  EXPECT_FALSE(pub.store().contains(b));
  EXPECT_TRUE(pub.store().contains(other)) << "another tag is untouched";
  EXPECT_EQ(pub.stats().messages_superseded, 2u);
  EXPECT_THROW(pub.publish(tagged("", 5, true), kT0), PublishError) << "replace needs a tag";
}

TEST(Supersession, CachesAndSubscribersOfEveryModeDropTheReplacedMessage) {
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  pub.publish(tagged("p", 1), kT0);
  const auto first = drain(pub, kT0);
  pub.publish(tagged("p", 2), kT0);
  const auto second = drain(pub, kT0);
  pub.publish(tagged("p", 3, true), kT0);
  const auto third = drain(pub, kT0);

  // A subscriber that got message 1, then the replacement, then message 2 late.
  Node unordered(fast_config(2), cache::Store::open(":memory:"), kT0);
  unordered.subscribe("pos", {}, kT0);
  feed(unordered, first, kT0);
  EXPECT_EQ(delivered(unordered), (std::vector<std::uint64_t>{1}));
  feed(unordered, third, kT0);
  EXPECT_EQ(delivered(unordered), (std::vector<std::uint64_t>{3}));
  EXPECT_FALSE(unordered.store().contains(MessageId{"pos", 7, 1})) << "evicted on learning the replacement";
  feed(unordered, second, kT0);
  EXPECT_TRUE(delivered(unordered).empty()) << "never delivered after its replacement";
  EXPECT_FALSE(unordered.store().contains(MessageId{"pos", 7, 2})) << "refused on arrival";
  EXPECT_EQ(unordered.stats().messages_superseded, 1u) << "counted: what was held (message 1)";

  // A reliable ordered subscriber with history that hears only the
  // replacement: it does not wait for 1 and 2, and reports nothing skipped.
  Node ordered(fast_config(3), cache::Store::open(":memory:"), kT0);
  SubscriptionOptions o;
  o.ordered = true;
  o.history = 5;
  ordered.subscribe("pos", o, kT0);
  feed(ordered, third, kT0);
  EXPECT_EQ(delivered(ordered), (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(skipped_events(ordered), 0u);
  EXPECT_EQ(ordered.incomplete_wanted(), 0u) << "the superseded messages are not requested";

  // A relay caching for others (not subscribed) drops it too.
  EngineConfig relay_config = fast_config(4);
  relay_config.cache_unsubscribed = true;
  Node relay(relay_config, cache::Store::open(":memory:"), kT0);
  feed(relay, first, kT0);
  ASSERT_TRUE(relay.store().contains(MessageId{"pos", 7, 1}));
  feed(relay, third, kT0);
  EXPECT_FALSE(relay.store().contains(MessageId{"pos", 7, 1}));
  EXPECT_TRUE(relay.store().contains(MessageId{"pos", 7, 3}));
}

TEST(Supersession, CancelByNumberAndByTagEndsWithoutAReplacement) {
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  pub.publish(tagged("p", 1), kT0);
  pub.publish(tagged("q", 2), kT0);
  pub.publish(tagged("p", 3), kT0);
  const auto data = drain(pub, kT0);
  Node sub(fast_config(2), cache::Store::open(":memory:"), kT0);
  SubscriptionOptions o;
  o.ordered = true;
  sub.subscribe("pos", o, kT0);
  feed(sub, data, kT0);
  EXPECT_EQ(delivered(sub), (std::vector<std::uint64_t>{1, 2, 3}));

  const auto cancel = pub.cancel(CancelRequest{"pos", {2}, "p", 0}, kT0);
  EXPECT_EQ(cancel.seq, 4u) << "a cancel travels as a message of the stream";
  EXPECT_EQ(pub.store().message_count(), 1u) << "only the cancel is left at the publisher";
  feed(sub, drain(pub, kT0), kT0);
  EXPECT_TRUE(delivered(sub).empty()) << "a cancel delivers nothing";
  EXPECT_EQ(sub.store().message_count(), 1u) << "1, 2 and 3 dropped; the cancel cached to be served";
  EXPECT_EQ(skipped_events(sub), 0u);

  pub.publish(tagged("p", 5), kT0);
  feed(sub, drain(pub, kT0), kT0);
  EXPECT_EQ(delivered(sub), (std::vector<std::uint64_t>{5})) << "ordered delivery moved past the cancel";

  EXPECT_THROW(pub.cancel(CancelRequest{"pos", {}, "", 0}, kT0), PublishError);
  EXPECT_THROW(pub.cancel(CancelRequest{"pos", {99}, "", 0}, kT0), PublishError) << "not published yet";
}

TEST(Supersession, ASupersededMessageIsNotServed) {
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  pub.publish(tagged("p", 1), kT0);
  const auto first = drain(pub, kT0);
  pub.publish(tagged("p", 2, true), kT0);
  drain(pub, kT0);
  // A request for message 1 (as a late receiver would send) gets nothing.
  wire::MissingFragmentRequest r;
  r.set_requester(55);
  auto* w = r.add_wants();
  w->set_group("pos");
  w->set_publisher(7);
  w->add_messages()->set_seq(1);
  pub.on_datagram(wire::encode(r), kT0 + kSeconds);
  EXPECT_TRUE(data_seqs(drain(pub, kT0 + kSeconds)).empty());
  (void)first;
}

TEST(MessageExpiry, WireFormResolvesNearTheReceiversClock) {
  const Micros now = kT0;
  const std::uint64_t now_ms = to_unix_millis(now);
  for (const std::uint64_t ahead : std::initializer_list<std::uint64_t>{1, 999, 3'600'000, kMaxExpiryAhead}) {
    EXPECT_EQ(resolve_expiry(wire_expiry(now_ms + ahead), now), now_ms + ahead);
    // Seen by a clock a few hours off, or later on, it resolves the same.
    EXPECT_EQ(resolve_expiry(wire_expiry(now_ms + ahead), now + 5 * 3600 * kSeconds), now_ms + ahead);
    EXPECT_EQ(resolve_expiry(wire_expiry(now_ms + ahead), now - 5 * 3600 * kSeconds), now_ms + ahead);
  }
  EXPECT_EQ(wire_expiry(0), 0u);
  EXPECT_EQ(resolve_expiry(0, now), 0u) << "never";
  EXPECT_EQ(wire_expiry(std::uint64_t{1} << 40), 1u) << "low bits 0: a millisecond later, never 'never'";
  EXPECT_EQ(on_air_expiry(std::uint64_t{1} << 40), (std::uint64_t{1} << 40) + 1);
}

TEST(MessageExpiry, ExpiresToTheMillisecondAndIsNeverSentAfter) {
  EngineConfig slow = fast_config(7);
  slow.link_capacity_bps = 100'000;  // a 300-byte message takes ~30 ms on the air
  Node pub(slow, cache::Store::open(":memory:"), kT0);
  PublishRequest soon = tagged("", 1);
  soon.lifetime_ms = 250;
  const auto id = pub.publish(soon, kT0);
  // 20 messages ahead of it would take ~600 ms: it expires in the queue.
  Node pub2(slow, cache::Store::open(":memory:"), kT0);
  for (int i = 0; i < 20; ++i) pub2.publish(tagged("", static_cast<std::uint8_t>(i)), kT0);
  const auto late = pub2.publish(soon, kT0);
  std::vector<std::vector<std::uint8_t>> sent;
  for (Micros t = kT0; t < kT0 + 2 * kSeconds;) {
    if (t >= pub2.next_deadline()) pub2.on_timer(t);
    if (auto d = pub2.poll_datagram(t)) {
      sent.push_back(std::move(d->bytes));
    } else {
      t = std::max(t + 1, std::min(kT0 + 2 * kSeconds, pub2.next_deadline()));
    }
  }
  const auto seqs = data_seqs(sent);
  EXPECT_EQ(std::count(seqs.begin(), seqs.end(), late.seq), 0) << "expired before its turn: never sent";
  EXPECT_FALSE(pub2.store().contains(late));

  pub.on_timer(kT0 + 249 * kMillis);
  EXPECT_TRUE(pub.store().contains(id));
  EXPECT_LE(pub.next_deadline(), kT0 + 250 * kMillis) << "the expiry is a deadline of its own";
  pub.on_timer(kT0 + 250 * kMillis);
  EXPECT_FALSE(pub.store().contains(id)) << "gone at 250 ms, not at the next whole second";
  EXPECT_EQ(pub.stats().messages_expired, 1u);

  PublishRequest far = tagged("", 2);
  far.lifetime_ms = static_cast<std::uint32_t>(kMaxExpiryAhead + 1);
  EXPECT_THROW(pub.publish(far, kT0), PublishError) << "beyond what the wire carries unambiguously";
}

TEST(Supersession, AReplacementTakesTheQueuePlaceOfWhatItReplaces) {
  // Seed 000, experiment 2 with a tag per source: an update replaced before
  // it reaches the front would never be sent if each replacement joined the
  // back of the queue. It takes the replaced one's place instead.
  EngineConfig slow = fast_config(7);
  slow.link_capacity_bps = 80'000;
  slow.coding = false;
  Node pub(slow, cache::Store::open(":memory:"), kT0);
  for (int i = 0; i < 5; ++i) pub.publish(tagged("other" + std::to_string(i), static_cast<std::uint8_t>(i)), kT0);
  pub.publish(tagged("fast", 10, true), kT0);       // seq 6
  pub.publish(tagged("late", 11), kT0);             // seq 7
  const auto newest = pub.publish(tagged("fast", 12, true), kT0);  // seq 8 replaces 6, in its place
  std::vector<std::vector<std::uint8_t>> out;
  for (Micros t = kT0; t < kT0 + 2 * kSeconds; t += 100 * kMillis) {
    auto more = drain(pub, t);
    out.insert(out.end(), more.begin(), more.end());
  }
  const auto sent = data_seqs(out);
  const auto at = std::find(sent.begin(), sent.end(), newest.seq);
  const auto late = std::find(sent.begin(), sent.end(), std::uint64_t{7});
  ASSERT_NE(at, sent.end());
  ASSERT_NE(late, sent.end());
  EXPECT_LT(at, late) << "the replacement went where message 6 stood, before message 7";
  EXPECT_EQ(std::count(sent.begin(), sent.end(), std::uint64_t{6}), 0);
}

TEST(Supersession, AReplacementKeepsItsPlaceWhenAnOlderOneHadBegunToGoOut) {
  // The replaced messages leave the queue as the replacement joins it: one
  // partly sent ahead of the place must not push the replacement behind the
  // messages that followed what it replaces.
  EngineConfig slow = fast_config(7);
  slow.link_capacity_bps = 80'000;
  slow.coding = false;
  Node pub(slow, cache::Store::open(":memory:"), kT0);
  PublishRequest big = request("pos", bytes_of(6000, 1));
  big.tag = "fast";
  big.replace = true;
  pub.publish(big, kT0);  // seq 1: several fragments
  std::vector<std::vector<std::uint8_t>> out = drain(pub, kT0);
  ASSERT_FALSE(data_seqs(out).empty()) << "message 1 has begun to go out";
  pub.publish(tagged("other", 2), kT0);        // seq 2
  pub.publish(tagged("fast", 3), kT0);         // seq 3: the oldest of the tag not begun
  pub.publish(tagged("late", 4), kT0);         // seq 4
  const auto newest = pub.publish(tagged("fast", 5, true), kT0);  // seq 5 replaces 1 and 3, in 3's place
  for (Micros t = kT0 + kMillis; t < kT0 + 3 * kSeconds; t += 50 * kMillis) {
    auto more = drain(pub, t);
    out.insert(out.end(), more.begin(), more.end());
  }
  const auto sent = data_seqs(out);
  const auto at = std::find(sent.begin(), sent.end(), newest.seq);
  const auto late = std::find(sent.begin(), sent.end(), std::uint64_t{4});
  ASSERT_NE(at, sent.end());
  ASSERT_NE(late, sent.end());
  EXPECT_LT(at, late) << "the replacement went where message 3 stood, before message 4";
  EXPECT_EQ(std::count(sent.begin(), sent.end(), std::uint64_t{3}), 0);
}

}  // namespace supersession_test
