// Integrity without keys (integrity.h): forged or corrupted data never
// becomes part of a delivered message, never replaces verified data, does not
// block the real message for good, and data under a node's own id is never
// taken from the air. Each attack is played through the public API with
// datagrams a forger could send.
#include <gtest/gtest.h>

#include "engine/fragmenter.h"
#include "engine/node.h"
#include "sim/simulation.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "support/temp_db.h"
#include "wire/codec.h"
#include "wire/message_digest.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace message_integrity_test {
namespace {

constexpr NodeId kPublisher = 1;
constexpr NodeId kReceiver = 2;

std::uint64_t integrity(const Node& n, IntegrityEvent e) { return n.stats().integrity[static_cast<std::size_t>(e)]; }

// The i-th received datagram's data fragment, for a forger to alter (the
// others announce the group references it may use).
wire::DataFragment parse(const std::vector<std::vector<std::uint8_t>>& datagrams, std::size_t i) {
  wire::Decoded d;
  AirReader air;
  EXPECT_EQ(air.decode_among(datagrams, i, d), std::nullopt);
  EXPECT_EQ(d.kind, wire::Kind::Data);
  return d.data;
}

struct Published {
  std::vector<std::uint8_t> payload;
  std::vector<std::vector<std::uint8_t>> fragments;  // the first pass, in order
};

Published publish(std::size_t size, std::uint8_t salt, EngineConfig cfg = fast_config(kPublisher)) {
  Node pub(cfg, cache::Store::open(":memory:"), kT0);
  Published p{bytes_of(size, salt), {}};
  pub.publish(request("g", p.payload), kT0);
  p.fragments = only_data(drain(pub, kT0));
  return p;
}

std::unique_ptr<Node> receiver() {
  auto rx = std::make_unique<Node>(fast_config(kReceiver), cache::Store::open(":memory:"), kT0);
  rx->subscribe("g", {}, kT0);
  return rx;
}

}  // namespace

TEST(MessageIntegrity, CorruptedBytesUnderTheRealDigestAreNeverDeliveredAndTheMessageIsFetchedAgain) {
  const auto real = publish(14'000, 3);  // 10 fragments
  ASSERT_EQ(real.fragments.size(), 10u);
  auto rx = receiver();
  // The forger's copy of fragment 4: same header (digest included), other bytes.
  auto forged = parse(real.fragments, 4);
  forged.mutable_payload()->at(17) ^= 0x40;
  rx->on_datagram(wire::encode(forged), kT0 + 1);
  for (std::size_t i = 0; i < 10; ++i) rx->on_datagram(real.fragments[i], kT0 + 2);
  EXPECT_FALSE(rx->poll_delivery()) << "the reassembled message fails its digest";
  EXPECT_EQ(integrity(*rx, IntegrityEvent::VerifyFailed), 1u);
  EXPECT_EQ(rx->stats().messages_completed, 0u);
  EXPECT_FALSE(rx->store().contains(MessageId{"g", kPublisher, 1})) << "its unverifiable data is dropped";
  EXPECT_EQ(rx->incomplete_wanted(), 1u) << "and it is wanted again";
  bool rejected = false;
  while (auto e = rx->poll_event()) rejected = rejected || e->kind == Event::Kind::MessageRejected;
  EXPECT_TRUE(rejected);

  // The real fragments, fetched again, deliver the real message.
  for (const auto& f : real.fragments) rx->on_datagram(f, kT0 + 3);
  auto d = rx->poll_delivery();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, real.payload);
  EXPECT_FALSE(rx->poll_delivery());
}

TEST(MessageIntegrity, AForgedFirstFragmentWithAnotherDigestOrLengthDoesNotBlockTheRealMessage) {
  const auto real = publish(14'000, 3);
  for (const bool change_length : {false, true}) {
    SCOPED_TRACE(change_length ? "another length" : "another digest");
    auto rx = receiver();
    auto forged = parse(real.fragments, 0);
    forged.set_digest(forged.digest() ^ 1);
    if (change_length) forged.set_total_length(20'000);
    rx->on_datagram(wire::encode(forged), kT0 + 1);  // first: it fixes the claim
    for (const auto& f : real.fragments) rx->on_datagram(f, kT0 + 2);
    const auto conflicts =
        integrity(*rx, change_length ? IntegrityEvent::LengthConflict : IntegrityEvent::DigestConflict);
    EXPECT_GT(conflicts, 4u) << "the real fragments contradicted the forger's";
    EXPECT_EQ(integrity(*rx, IntegrityEvent::ConflictReset), 1u) << "outnumbered, the forger's claim was dropped";
    EXPECT_FALSE(rx->poll_delivery());
    // The rest of the real message (asked for again) completes it.
    for (const auto& f : real.fragments) rx->on_datagram(f, kT0 + 3);
    auto d = rx->poll_delivery();
    ASSERT_TRUE(d);
    EXPECT_EQ(d->payload, real.payload) << "no forged byte in the delivered message";
  }
}

TEST(MessageIntegrity, VerifiedDataIsNeverReplaced) {
  const auto real = publish(2'800, 5);  // 2 fragments
  auto rx = receiver();
  for (const auto& f : real.fragments) rx->on_datagram(f, kT0 + 1);
  ASSERT_TRUE(rx->poll_delivery());
  // Later copies with other bytes, another digest or another length change nothing.
  auto forged = parse(real.fragments, 1);
  forged.mutable_payload()->at(0) ^= 1;
  rx->on_datagram(wire::encode(forged), kT0 + 2);
  forged.set_digest(forged.digest() + 1);
  rx->on_datagram(wire::encode(forged), kT0 + 2);
  forged.set_total_length(9'000);
  rx->on_datagram(wire::encode(forged), kT0 + 2);
  EXPECT_EQ(integrity(*rx, IntegrityEvent::DigestConflict), 1u);
  EXPECT_EQ(integrity(*rx, IntegrityEvent::LengthConflict), 1u);
  EXPECT_EQ(integrity(*rx, IntegrityEvent::ConflictReset), 0u) << "complete messages are never reset";
  EXPECT_EQ(rx->store().read_message(MessageId{"g", kPublisher, 1}), real.payload);
  EXPECT_FALSE(rx->poll_delivery());
}

TEST(MessageIntegrity, APollutedCodedSymbolIsCaughtAfterDecoding) {
  const auto real = publish(4'200, 9);  // 3 fragments: one block
  ASSERT_EQ(real.fragments.size(), 3u);
  auto rx = receiver();
  const auto header = parse(real.fragments, 0);
  wire::CodedSymbol junk;
  junk.set_group(header.group());
  junk.set_publisher(header.publisher());
  junk.set_seq(header.seq());
  junk.set_total_length(header.total_length());
  junk.set_digest(header.digest());
  junk.set_block(0);
  junk.set_seed(12345);
  junk.set_payload(std::string(1400, 'J'));
  rx->on_datagram(real.fragments[0], kT0 + 1);
  rx->on_datagram(real.fragments[1], kT0 + 1);
  rx->on_datagram(wire::encode(junk), kT0 + 1);  // completes the block's rank
  EXPECT_EQ(rx->stats().blocks_decoded, 1u);
  EXPECT_EQ(integrity(*rx, IntegrityEvent::VerifyFailed), 1u);
  EXPECT_FALSE(rx->poll_delivery());
  for (const auto& f : real.fragments) rx->on_datagram(f, kT0 + 2);
  auto d = rx->poll_delivery();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, real.payload);
}

TEST(MessageIntegrity, DataUnderTheNodesOwnIdIsNeverTakenFromTheAir) {
  Node pub(fast_config(kPublisher), cache::Store::open(":memory:"), kT0);
  pub.subscribe("g", {}, kT0);
  const auto payload = bytes_of(2'800, 1);
  pub.publish(request("g", payload), kT0);
  ASSERT_TRUE(pub.poll_delivery());  // its own subscriber
  const auto sent = only_data(drain(pub, kT0));
  ASSERT_EQ(sent.size(), 2u);

  // Its own fragment heard again (a forwarder's or a repairer's copy): a duplicate.
  pub.on_datagram(sent[1], kT0 + kSeconds);
  EXPECT_EQ(integrity(pub, IntegrityEvent::OwnId), 0u);

  // An acknowledged publication rewritten by a forger: refused.
  auto forged = parse(sent, 0);
  forged.set_digest(forged.digest() ^ 0xff);
  forged.mutable_payload()->at(3) ^= 1;
  pub.on_datagram(wire::encode(forged), kT0 + kSeconds);
  // A message it never published: refused, not tracked, not requested.
  forged.set_seq(7);
  pub.on_datagram(wire::encode(forged), kT0 + kSeconds);
  EXPECT_EQ(integrity(pub, IntegrityEvent::OwnId), 2u);
  EXPECT_EQ(pub.store().read_message(MessageId{"g", kPublisher, 1}), payload);
  EXPECT_FALSE(pub.store().contains(MessageId{"g", kPublisher, 7}));
  EXPECT_EQ(pub.incomplete_wanted(), 0u);
  EXPECT_FALSE(pub.poll_delivery());
  bool alarmed = false;
  while (auto e = pub.poll_event()) alarmed = alarmed || e->kind == Event::Kind::ForgedOwnData;
  EXPECT_TRUE(alarmed);
}

TEST(MessageIntegrity, ACacheFromBeforeDigestsGetsThemAndServesThem) {
  TempDb db;
  const auto payload = bytes_of(3'000, 4);
  {
    Node pub(fast_config(kPublisher), cache::Store::open(db.path()), kT0);
    pub.publish(request("g", payload), kT0);
  }
  downgrade_to_schema_2(db.path());  // what a version-2 cache held: no digests
  Node pub(fast_config(kPublisher), cache::Store::open(db.path()), kT0 + kSeconds);
  const auto index = pub.store().load_index();
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0].meta.digest, wire::message_digest(payload));

  // A late subscriber fetches it from this cache and verifies it.
  Node rx_node(fast_config(kReceiver), cache::Store::open(":memory:"), kT0 + kSeconds);
  Node* rx = &rx_node;
  SubscriptionOptions history;
  history.history = 1;
  rx->subscribe("g", history, kT0 + kSeconds);
  Micros now = kT0 + kSeconds;
  for (int round = 0; round < 50 && !rx->poll_delivery(); ++round) {
    for (const auto& d : drain(*rx, now)) pub.on_datagram(d, now);
    for (const auto& d : drain(pub, now)) rx->on_datagram(d, now);
    now += 100 * kMillis;
    rx->on_timer(now);
    pub.on_timer(now);
  }
  EXPECT_EQ(rx->stats().messages_completed, 1u);
  EXPECT_EQ(integrity(*rx, IntegrityEvent::VerifyFailed), 0u);
}

}  // namespace message_integrity_test
