// Bounded state under well-formed hostile hearsay (message_tracker.h):
// beacons from invented publishers, or claiming huge sequence numbers for a
// real stream, cannot stop the delivery of real data, and what they make a
// node track is bounded and forgotten after engine.hearsay_lifetime.
#include <gtest/gtest.h>

#include "engine/message_tracker.h"
#include "engine/node.h"
#include "sim/simulation.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace hostile_hearsay_test {
namespace {


MessageMeta meta_of_seq(const StreamId& s, std::uint64_t seq) {
  MessageMeta m;
  m.id = MessageId{s.group, s.publisher, seq};
  m.total_length = 100;
  m.digest = 1;
  return m;
}

// A beacon from an invented node claiming `count` invented publishers of
// group "g" (first `first_publisher`), plus `extra` newest entries.
std::vector<std::uint8_t> phantom_beacon(NodeId from, NodeId first_publisher, int count,
                                         std::vector<std::pair<NodeId, std::uint64_t>> extra = {}) {
  wire::Beacon b;
  b.set_node(from);
  b.set_sent_us(1);
  for (int i = 0; i < count; ++i) {
    auto* n = b.add_newest();
    n->set_group("g");
    n->set_publisher(first_publisher + static_cast<NodeId>(i));
    n->set_seq(1'000'000);
  }
  for (const auto& [publisher, seq] : extra) {
    auto* n = b.add_newest();
    n->set_group("g");
    n->set_publisher(publisher);
    n->set_seq(seq);
  }
  return wire::encode(b);
}

}  // namespace

TEST(HostileHearsay, DataDisplacesHearsayWhenTheTrackerIsFull) {
  MessageTracker t(100);
  for (NodeId p = 1; p <= 100; ++p) t.learn_newest({"g", p}, 50, true, 0, true, 0);
  EXPECT_EQ(t.incomplete_count(), 100u);
  t.learn_newest({"g", 500}, 50, true, 0, true, 1);  // more hearsay: refused
  EXPECT_EQ(t.incomplete_count(), 100u);
  EXPECT_EQ(t.hearsay_refused(), 1u);
  // A real fragment still gets in, displacing the oldest hearsay.
  EXPECT_EQ(t.on_fragment(meta_of_seq({"g", 900}, 1), 0, 50, 2), FragmentOutcome::New);
  EXPECT_EQ(t.incomplete_count(), 100u);
  EXPECT_EQ(t.hearsay_displaced(), 1u);
  EXPECT_EQ(t.find(MessageId{"g", 1, 50}), nullptr) << "the oldest hearsay went";
  EXPECT_EQ(t.on_fragment(meta_of_seq({"g", 900}, 1), 50, 50, 3), FragmentOutcome::Completed);
}

TEST(HostileHearsay, AHugeSequenceClaimExpiresAndGapDetectionRecovers) {
  MessageTracker t(100'000);
  const StreamId real{"g", 7};
  t.learn_newest(real, 1, true, 0, false, 0);
  for (std::uint64_t q = 1; q <= 3; ++q) {
    t.learn_newest(real, q, true, 0, false, 0);
    t.on_fragment(meta_of_seq(real, q), 0, 100, 0);
  }
  t.learn_newest(real, 1'000'000'000, true, 0, true, 10);  // a forged beacon entry
  EXPECT_EQ(t.incomplete_count(), 1024u) << "a jump tracks its newest 1,024 only";
  EXPECT_EQ(t.stream(real)->newest, 1'000'000'000u);
  EXPECT_EQ(t.expire_hearsay(10), 0u) << "not before its lifetime";
  EXPECT_EQ(t.expire_hearsay(11), 1024u);
  EXPECT_EQ(t.incomplete_count(), 0u);
  EXPECT_EQ(t.stream(real)->newest, 3u) << "newest rolls back to what data showed";
  // The real publisher's next beacon is believed again: 4 and 5 are missing.
  t.learn_newest(real, 5, true, 0, true, 20);
  EXPECT_EQ(t.incomplete_count(), 2u);
  // A real gap below what data showed is not forgotten.
  t.learn_newest(real, 9, true, 0, false, 30);  // seq 9 arrives: 6, 7, 8 missing
  t.on_fragment(meta_of_seq(real, 9), 0, 100, 30);
  EXPECT_EQ(t.expire_hearsay(1'000), 0u) << "4 to 8 are below what data showed (9): real gaps, kept";
  EXPECT_EQ(t.incomplete_count(), 5u);
}

TEST(HostileHearsay, InventedStreamsAreCappedAndForgotten) {
  MessageTracker t(100'000, 0, 10);
  for (NodeId p = 1; p <= 50; ++p) t.learn_newest({"g", p}, 5, true, 0, true, 0);
  EXPECT_EQ(t.streams().size(), 10u) << "hearsay creates at most max_streams streams";
  t.on_fragment(meta_of_seq({"g", 99}, 1), 0, 100, 1);
  EXPECT_EQ(t.streams().size(), 11u) << "data is not refused for it";
  EXPECT_EQ(t.expire_hearsay(100), 10u);
  EXPECT_EQ(t.streams().size(), 1u) << "streams left with nothing are dropped";
}

TEST(HostileHearsay, ABeaconFloodNeverStopsTheDeliveryOfARealStream) {
  EngineConfig cfg = fast_config(2);
  cfg.max_tracked_messages = 5'000;
  cfg.hearsay_lifetime = 5 * kSeconds;
  Node rx(cfg, cache::Store::open(":memory:"), kT0);
  rx.subscribe("g", {}, kT0);
  Node pub(fast_config(1), cache::Store::open(":memory:"), kT0);
  Micros now = kT0;
  std::size_t delivered = 0;
  std::size_t most_tracked = 0;
  NodeId next_phantom = 1000;
  for (int round = 0; round < 25; ++round) {
    // 1,024 invented publishers per beacon, and a huge claim for the real one.
    for (int b = 0; b < 4; ++b) {
      rx.on_datagram(phantom_beacon(0xBAD00000 + static_cast<NodeId>(b), next_phantom, 1000, {{1, 1'000'000'000}}),
                     now);
      next_phantom += 1000;
    }
    most_tracked = std::max(most_tracked, rx.incomplete_wanted());
    pub.publish(request("g", bytes_of(3'000, static_cast<std::uint8_t>(round))), now);
    for (const auto& d : drain(pub, now)) rx.on_datagram(d, now);
    while (rx.poll_delivery()) ++delivered;
    now += 200 * kMillis;
    rx.on_timer(now);
  }
  EXPECT_EQ(delivered, 25u) << "every real message delivered during the flood";
  EXPECT_LE(most_tracked, cfg.max_tracked_messages);
  EXPECT_GT(rx.stats().hearsay_refused + rx.stats().hearsay_displaced, 0u);
  std::printf("beacon flood: %zu messages tracked at most (cap %zu), %llu hearsay refused, %llu displaced\n",
              most_tracked, cfg.max_tracked_messages, static_cast<unsigned long long>(rx.stats().hearsay_refused),
              static_cast<unsigned long long>(rx.stats().hearsay_displaced));
  // Once the flood stops, the hearsay is forgotten.
  for (int i = 0; i < 40; ++i) {
    now += 250 * kMillis;
    rx.on_timer(now);
  }
  EXPECT_EQ(rx.incomplete_wanted(), 0u);
  EXPECT_GT(rx.stats().hearsay_expired, 0u);
}

}  // namespace hostile_hearsay_test
