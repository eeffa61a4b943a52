// The engine through its public API: restart, expiry, quota, malformed input,
// delivery modes, history and lost-last-message recovery.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/fragmenter.h"
#include "engine/config_keys.h"
#include "engine/node.h"
#include "sim/simulation.h"
#include "support/node_harness.h"
#include "support/temp_db.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace node_test {
namespace {


}  // namespace

TEST(NodeRestart, PublisherNeverReusesASequenceNumber) {
  TempDb db;
  {
    Node pub(fast_config(7), cache::Store::open(db.path()), kT0);
    EXPECT_EQ(pub.publish(request("g", bytes_of(100, 1)), kT0).seq, 1u);
    EXPECT_EQ(pub.publish(request("g", bytes_of(100, 2)), kT0).seq, 2u);
    EXPECT_EQ(pub.publish(request("other", bytes_of(100, 3)), kT0).seq, 1u);
  }
  Node again(fast_config(7), cache::Store::open(db.path()), kT0 + kSeconds);
  EXPECT_EQ(again.publish(request("g", bytes_of(100, 4)), kT0 + kSeconds).seq, 3u);
  EXPECT_EQ(again.publish(request("other", bytes_of(100, 5)), kT0 + kSeconds).seq, 2u);
}

TEST(NodeRestart, SilenceOutlivesARestartUntilItIsEnded) {
  TempDb db;
  {
    Node quiet(fast_config(7), cache::Store::open(db.path()), kT0);
    EXPECT_FALSE(quiet.silent());
    quiet.set_silent(true, kT0);
    // Silent: not a datagram, however long the timers run.
    for (Micros t = kT0; t < kT0 + 5 * kSeconds; t += 100 * kMillis) {
      quiet.on_timer(t);
      EXPECT_FALSE(quiet.poll_datagram(t).has_value());
    }
  }
  {
    // Restarted with engine.silent off (a crash, a reboot): still silent.
    Node again(fast_config(7), cache::Store::open(db.path()), kT0 + 10 * kSeconds);
    EXPECT_TRUE(again.silent());
    EXPECT_TRUE(again.stats().silent);
    EXPECT_GE(again.next_deadline(), kT0 + 10 * kSeconds) << "a silent node has nothing due for the air";
    again.set_silent(false, kT0 + 10 * kSeconds);
  }
  Node loud(fast_config(7), cache::Store::open(db.path()), kT0 + 20 * kSeconds);
  EXPECT_FALSE(loud.silent());
  bool sent = false;
  for (Micros t = kT0 + 20 * kSeconds; t < kT0 + 25 * kSeconds && !sent; t += 100 * kMillis) {
    loud.on_timer(t);
    sent = loud.poll_datagram(t).has_value();
  }
  EXPECT_TRUE(sent) << "silence ended: beacons go again";
}

TEST(NodeRestart, SequenceSurvivesEvictionOfOwnMessages) {
  TempDb db;
  cache::StoreOptions small;
  small.quota_bytes = 1000;
  {
    Node pub(fast_config(7), cache::Store::open(db.path(), small), kT0);
    for (int i = 0; i < 5; ++i) pub.publish(request("g", bytes_of(900, static_cast<std::uint8_t>(i))), kT0);
    pub.on_timer(kT0 + kSeconds);  // housekeeping evicts down to the quota
    EXPECT_GT(pub.stats().messages_evicted, 0u);
  }
  Node again(fast_config(7), cache::Store::open(db.path(), small), kT0 + 2 * kSeconds);
  EXPECT_EQ(again.publish(request("g", bytes_of(10, 9)), kT0 + 2 * kSeconds).seq, 6u);
}

TEST(NodeRestart, ReceiverResumesAPartialMessageAndDeliversOnce) {
  TempDb db;
  Node pub(fast_config(1), cache::Store::open(":memory:"), kT0);
  const auto payload = bytes_of(14'000, 3);  // 10 fragments
  pub.publish(request("g", payload), kT0);
  const auto data = only_data(drain(pub, kT0));
  ASSERT_EQ(data.size(), 10u);
  {
    Node rx(fast_config(2), cache::Store::open(db.path()), kT0);
    rx.subscribe("g", {}, kT0);
    for (std::size_t i = 0; i < 6; ++i) rx.on_datagram(data[i], kT0 + 1);
    EXPECT_FALSE(rx.poll_delivery());
  }  // "crash" after a clean destructor: what was stored stays
  Node rx(fast_config(2), cache::Store::open(db.path()), kT0 + kSeconds);
  rx.subscribe("g", {}, kT0 + kSeconds);
  EXPECT_EQ(rx.incomplete_wanted(), 1u) << "the partial message is known again after restart";
  for (std::size_t i = 4; i < 10; ++i) rx.on_datagram(data[i], kT0 + kSeconds + 1);
  auto d = rx.poll_delivery();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, payload);
  EXPECT_FALSE(rx.poll_delivery()) << "delivered exactly once";
}

TEST(NodeCache, ExpiredMessagesAreDroppedByAbsoluteTime) {
  Node n(fast_config(1), cache::Store::open(":memory:"), kT0);
  const auto expiry = to_unix_millis(kT0) + 2000;
  const auto id = n.publish(request("g", bytes_of(100, 1), 0, expiry), kT0);
  n.publish(request("g", bytes_of(100, 2)), kT0);
  n.on_timer(kT0 + 1 * kSeconds);
  EXPECT_TRUE(n.store().contains(id));
  n.on_timer(kT0 + 3 * kSeconds);
  EXPECT_FALSE(n.store().contains(id));
  EXPECT_EQ(n.stats().messages_expired, 1u);
  EXPECT_EQ(n.store().message_count(), 1u);

  // A fragment that arrives after its absolute expiry is not cached at all.
  Node pub(fast_config(9), cache::Store::open(":memory:"), kT0);
  pub.publish(request("g", bytes_of(100, 3), 0, expiry), kT0);
  const auto late = only_data(drain(pub, kT0));
  Node rx(fast_config(2), cache::Store::open(":memory:"), kT0);
  rx.subscribe("g", {}, kT0);
  rx.on_datagram(late.front(), kT0 + 5 * kSeconds);
  EXPECT_EQ(rx.store().message_count(), 0u);
}

TEST(NodeCache, QuotaEvictsLowestPriorityThenOldest) {
  cache::StoreOptions opts;
  opts.quota_bytes = 50'000;
  Node n(fast_config(1), cache::Store::open(":memory:", opts), kT0);
  std::vector<MessageId> ids;
  for (int i = 0; i < 6; ++i) {  // priorities 0,1,0,1,0,1; 10 kB each: 60 kB
    ids.push_back(n.publish(request("g", bytes_of(10'000, static_cast<std::uint8_t>(i)), i % 2), kT0 + i));
  }
  n.on_timer(kT0 + kSeconds);
  EXPECT_LE(n.store().total_bytes(), opts.quota_bytes);
  EXPECT_FALSE(n.store().contains(ids[0])) << "oldest of the lowest priority goes first";
  EXPECT_FALSE(n.store().contains(ids[2]));
  for (int i : {1, 3, 5}) EXPECT_TRUE(n.store().contains(ids[static_cast<std::size_t>(i)]));
}

TEST(NodeInput, MalformedDatagramsAreCountedAndDropped) {
  Node n(fast_config(1), cache::Store::open(":memory:"), kT0);
  n.subscribe("g", {}, kT0);
  n.on_datagram(std::vector<std::uint8_t>{}, kT0);
  n.on_datagram(std::vector<std::uint8_t>{0x31, 0x00}, kT0);       // version 3
  n.on_datagram(std::vector<std::uint8_t>{0x21, 0xff, 0xff}, kT0);  // truncated varint
  wire::DataFragment d;
  MessageMeta meta;
  meta.id = {"g", 5, 1};
  meta.total_length = 100;
  const auto payload = bytes_of(50, 0);
  fill_fragment(d, meta, 80, payload, false, 0);  // ends at 130 > 100
  n.on_datagram(wire::encode(d), kT0);
  EXPECT_EQ(n.stats().malformed_total(), 4u);
  EXPECT_EQ(n.stats().malformed[static_cast<std::size_t>(DecodeError::BadRange)], 1u);
  EXPECT_EQ(n.store().message_count(), 0u);

  // Every fragment must carry the message's digest.
  fill_fragment(d, meta, 0, payload, false, 0);
  n.on_datagram(wire::encode(d), kT0);
  EXPECT_EQ(n.stats().malformed[static_cast<std::size_t>(DecodeError::BadDigest)], 1u);
  EXPECT_EQ(n.store().message_count(), 0u);

  // A fragment contradicting an earlier one's total length is dropped and
  // counted by the integrity checks.
  meta.digest = 0xd1;
  fill_fragment(d, meta, 0, payload, false, 0);
  n.on_datagram(wire::encode(d), kT0);
  meta.total_length = 200;
  fill_fragment(d, meta, 50, payload, false, 0);
  n.on_datagram(wire::encode(d), kT0);
  EXPECT_EQ(n.stats().integrity[static_cast<std::size_t>(IntegrityEvent::LengthConflict)], 1u);
  EXPECT_EQ(n.stats().malformed_total(), 5u);
}

TEST(NodeInput, PublishRejectsInvalidRequests) {
  Node n(fast_config(1), cache::Store::open(":memory:"), kT0);
  EXPECT_THROW(n.publish(request("", bytes_of(10, 0)), kT0), PublishError);
  EXPECT_THROW(n.publish(request("g", {}), kT0), PublishError);
  EXPECT_THROW(n.publish(request("g", bytes_of(10, 0), 0, to_unix_seconds(kT0) - 1), kT0), PublishError);
}

// --- multi-node behaviour in the simulator ------------------------------------

namespace {

struct Net {
  explicit Net(std::size_t nodes, double reliability, std::uint64_t seed = 3) : sim(seed) {
    sim.set_all_links(sim::LinkParams{reliability, 2 * kMillis, 1 * kMillis, true});
    for (std::size_t i = 0; i < nodes; ++i) {
      EngineConfig c;
      c.link_capacity_bps = 1'000'000;
      sim.add_node(c, 1'000'000);
    }
  }
  sim::Simulation sim;
};

std::vector<std::uint64_t> seqs(const std::vector<sim::ReceivedMessage>& d) {
  std::vector<std::uint64_t> out;
  for (const auto& m : d) out.push_back(m.delivery.meta.id.seq);
  return out;
}

}  // namespace

TEST(NodeDelivery, OrderedReliableDeliversEverySequenceInOrder) {
  Net net(2, 0.6);
  SubscriptionOptions o;
  o.ordered = true;
  net.sim.subscribe(1, "g", o);
  for (int i = 0; i < 40; ++i)
    net.sim.at(10 * kMillis * i, [i](sim::Simulation& s) { s.publish(0, request("g", bytes_of(3000, static_cast<std::uint8_t>(i)))); });
  net.sim.run_until(30 * kSeconds);
  std::vector<std::uint64_t> expect(40);
  for (std::uint64_t i = 0; i < 40; ++i) expect[i] = i + 1;
  EXPECT_EQ(seqs(net.sim.deliveries(1)), expect);
}

TEST(NodeDelivery, UnreliableSubscriberNeverRequests) {
  Net net(2, 0.6);
  SubscriptionOptions o;
  o.reliable = false;
  net.sim.subscribe(1, "g", o);
  for (int i = 0; i < 40; ++i)
    net.sim.at(10 * kMillis * i, [i](sim::Simulation& s) { s.publish(0, request("g", bytes_of(1000, static_cast<std::uint8_t>(i)))); });
  net.sim.run_until(10 * kSeconds);
  EXPECT_EQ(net.sim.node(1).stats().mfrs_sent, 0u);
  const auto got = net.sim.deliveries(1).size();
  EXPECT_GT(got, 10u);
  EXPECT_LT(got, 40u) << "about 60 % arrive, nothing is repaired";
}

TEST(NodeDelivery, OrderedUnreliableSkipsGapsAfterTheReorderTime) {
  Net net(2, 0.6);
  SubscriptionOptions o;
  o.reliable = false;
  o.ordered = true;
  net.sim.subscribe(1, "g", o);
  for (int i = 0; i < 40; ++i)
    net.sim.at(10 * kMillis * i, [i](sim::Simulation& s) { s.publish(0, request("g", bytes_of(1000, static_cast<std::uint8_t>(i)))); });
  net.sim.run_until(10 * kSeconds);
  const auto got = seqs(net.sim.deliveries(1));
  EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
  EXPECT_EQ(std::adjacent_find(got.begin(), got.end()), got.end()) << "no duplicates";
  std::size_t skipped = 0;
  for (const auto& e : net.sim.events(1)) skipped += e.event.kind == Event::Kind::MessageSkipped;
  EXPECT_GT(skipped, 0u);
}

TEST(NodeHistory, LateSubscriberFetchesTheHistoryItAsksForFromANeighboursCache) {
  Net net(3, 1.0);
  // Node 2 cannot hear the publisher at all, and hears node 1 only from 3 s on.
  const sim::LinkParams off{1.0, 0, 0, false};
  const sim::LinkParams on{1.0, 2 * kMillis, 0, true};
  net.sim.set_link(0, 2, off);
  net.sim.set_link(2, 0, off);
  net.sim.set_link(1, 2, off);
  net.sim.set_link(2, 1, off);
  net.sim.subscribe(1, "g");
  for (int i = 0; i < 10; ++i)
    net.sim.at(20 * kMillis * i, [i](sim::Simulation& s) { s.publish(0, request("g", bytes_of(2000, static_cast<std::uint8_t>(i)))); });
  net.sim.at(3 * kSeconds, [&](sim::Simulation& s) {
    s.set_link(1, 2, on);
    s.set_link(2, 1, on);
    SubscriptionOptions o;
    o.history = 4;
    s.subscribe(2, "g", o);
  });
  net.sim.run_until(10 * kSeconds);
  auto got = seqs(net.sim.deliveries(2));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::uint64_t>{6, 7, 8, 9, 10})) << "the newest and the 4 before it";
  EXPECT_EQ(seqs(net.sim.deliveries(1)).size(), 10u);
}

TEST(NodeBeacon, ALostLastMessageIsNoticedAndFetched) {
  Net net(2, 1.0);
  net.sim.subscribe(1, "g");
  for (int i = 0; i < 3; ++i)
    net.sim.at(100 * kMillis * i, [i](sim::Simulation& s) { s.publish(0, request("g", bytes_of(4000, static_cast<std::uint8_t>(i)))); });
  // The whole of message 3 is lost on the way to node 1; nothing follows it.
  net.sim.at(150 * kMillis, [](sim::Simulation& s) { s.set_link(0, 1, sim::LinkParams{1.0, 0, 0, false}); });
  net.sim.at(400 * kMillis, [](sim::Simulation& s) { s.set_link(0, 1, sim::LinkParams{1.0, 2 * kMillis, 0, true}); });
  net.sim.run_until(5 * kSeconds);
  auto got = seqs(net.sim.deliveries(1));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(NodeConfig, RefusesAnUnresolvedLinkSizedPayload) {
  EngineConfig c = fast_config(1);
  c.payload_size = 0;  // "from the MTU": the host must resolve it first
  EXPECT_THROW(Node(c, cache::Store::open(":memory:"), 0), ConfigError);
}

namespace {

// A beacon of node 9 saying its stream in group "g" is at `seq`.
std::vector<std::uint8_t> beacon_newest(std::uint64_t seq) {
  wire::Beacon b;
  b.set_node(9);
  auto* n = b.add_newest();
  n->set_group("g");
  n->set_publisher(9);
  n->set_seq(seq);
  return wire::encode(b);
}

}  // namespace

TEST(NodeHistory, AStreamHeardOfBeforeSubscribingHasItsHistoryFetched) {
  // Found by the emulated late-join experiment: a beacon heard a moment
  // before the subscription made the stream known without tracking it, and
  // the subscription's history was then never asked for.
  Node rx(fast_config(2), cache::Store::open(":memory:"), kT0);
  rx.on_datagram(beacon_newest(30), kT0);
  EXPECT_EQ(rx.incomplete_wanted(), 0u) << "not subscribed yet";
  SubscriptionOptions o;
  o.history = 10;
  rx.subscribe("g", o, kT0 + 1);
  EXPECT_EQ(rx.incomplete_wanted(), 11u) << "messages 20..30 (the newest and the 10 before it) will be requested";
}

TEST(NodeHistory, HistoryCountsTheSameWhetherTheStreamWasHeardBeforeOrAfterSubscribing) {
  // History n is the newest and n messages before it both ways. (Found by
  // the emulated late-join experiment: a latecomer whose first beacon came
  // before its subscription asked for one message fewer than one whose
  // beacon came after.)
  SubscriptionOptions o;
  o.history = 4;
  Node before(fast_config(2), cache::Store::open(":memory:"), kT0);
  before.on_datagram(beacon_newest(12), kT0);
  before.subscribe("g", o, kT0 + 1);
  Node after(fast_config(2), cache::Store::open(":memory:"), kT0);
  after.subscribe("g", o, kT0);
  after.on_datagram(beacon_newest(12), kT0 + 1);
  EXPECT_EQ(after.incomplete_wanted(), 5u) << "messages 8..12";
  EXPECT_EQ(before.incomplete_wanted(), after.incomplete_wanted());
}

TEST(NodeHistory, ASubscriptionMadeLongAfterTheStreamWasHeardGetsItsHistory) {
  // Issue 13's report: 5 of 5 delivered when subscribing at 0 s, 0 of 5 at
  // 10 s. Node 1 hears the stream from the start without subscribing (and
  // caches it opportunistically); node 2 hears only the publisher's beacons
  // (its data link is lost); both subscribe at 10 s with history 5.
  for (const bool data_heard : {true, false}) {
    Net net(3, 1.0);
    if (!data_heard) {
      // Node 2 hears nothing from 0.5 s to 9 s: it learns of the stream only
      // from beacons afterwards, and must fetch the history.
      net.sim.at(0, [](sim::Simulation& s) { s.set_link(0, 2, sim::LinkParams{1.0, 0, 0, false}); });
      net.sim.at(0, [](sim::Simulation& s) { s.set_link(1, 2, sim::LinkParams{1.0, 0, 0, false}); });
      net.sim.at(9 * kSeconds, [](sim::Simulation& s) { s.set_link(0, 2, sim::LinkParams{1.0, 2 * kMillis, 0, true}); });
      net.sim.at(9 * kSeconds, [](sim::Simulation& s) { s.set_link(1, 2, sim::LinkParams{1.0, 2 * kMillis, 0, true}); });
    }
    for (int i = 0; i < 5; ++i)
      net.sim.at(100 * kMillis * i, [i](sim::Simulation& s) { s.publish(0, request("g", bytes_of(3000, static_cast<std::uint8_t>(i)))); });
    net.sim.at(10 * kSeconds, [](sim::Simulation& s) {
      SubscriptionOptions o;
      o.history = 5;
      s.subscribe(1, "g", o);
      s.subscribe(2, "g", o);
    });
    net.sim.run_until(20 * kSeconds);
    for (std::size_t node : {1u, 2u}) {
      auto got = seqs(net.sim.deliveries(node));
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, (std::vector<std::uint64_t>{1, 2, 3, 4, 5})) << "node " << node << (data_heard ? "" : ", data lost");
    }
  }
}

}  // namespace node_test
