// Short group references and bundle context (wire/group_refs.h,
// wire/data_frame.h, engine/group_naming.h): a frame names its group by
// reference once the network knows it, the mapping is learnt from the air
// and survives restarts, and a frame whose reference is unknown (or whose
// bundle context is broken) is counted and dropped, never misfiled.
#include <gtest/gtest.h>

#include "engine/fragmenter.h"
#include "engine/node.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "support/temp_db.h"
#include "wire/codec.h"
#include "wire/message_digest.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace group_refs_test {
namespace {


wire::DataFragment small(const std::string& group, NodeId publisher, std::uint64_t seq, std::uint8_t salt = 1) {
  MessageMeta meta;
  meta.id = {group, publisher, seq};
  const auto payload = bytes_of(50, salt);
  meta.total_length = static_cast<std::uint32_t>(payload.size());
  meta.digest = wire::message_digest(payload);
  wire::DataFragment d;
  fill_fragment(d, meta, 0, payload, false, 0);
  return d;
}

std::uint64_t malformed(const Node& n, DecodeError e) { return n.stats().malformed[static_cast<std::size_t>(e)]; }

std::size_t delivered(Node& n) {
  std::size_t count = 0;
  while (n.poll_delivery()) ++count;
  return count;
}

}  // namespace

TEST(GroupRefs, LearnsKeepsOwnAndReplacesAStaleMapping) {
  wire::GroupRefs refs(2);
  EXPECT_EQ(refs.learn(5, 1, "a"), wire::GroupRefs::Learnt::New);
  EXPECT_EQ(refs.learn(5, 1, "a"), wire::GroupRefs::Learnt::Known);
  EXPECT_EQ(*refs.name_of(5, 1), "a");
  EXPECT_EQ(refs.ref_of(5, "a"), 1u);
  EXPECT_EQ(refs.name_of(6, 1), nullptr) << "references are per publisher";
  // A contradicting claim counts only when repeated: a corrupted copy of an
  // announcement seldom says the same thing twice.
  EXPECT_EQ(refs.learn(5, 1, "corrupted"), wire::GroupRefs::Learnt::Known);
  EXPECT_EQ(refs.learn(5, 1, "b"), wire::GroupRefs::Learnt::Known);
  EXPECT_EQ(refs.learn(5, 1, "b"), wire::GroupRefs::Learnt::Known);
  EXPECT_EQ(*refs.name_of(5, 1), "a");
  EXPECT_EQ(refs.learn(5, 1, "b"), wire::GroupRefs::Learnt::Changed) << "the publisher lost its state";
  EXPECT_EQ(refs.ref_of(5, "a"), 0u);
  refs.pin(9, 1, "mine");
  EXPECT_EQ(refs.learn(9, 1, "forged"), wire::GroupRefs::Learnt::Known) << "our own are never rewritten";
  EXPECT_EQ(*refs.name_of(9, 1), "mine");
  EXPECT_EQ(refs.next_free(9), 2u);
  EXPECT_EQ(refs.next_free(0xffffffffu), 1u);
  // Bounded: the learnt entry heard longest ago makes room; pinned ones stay.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> forgotten;
  refs.learn(5, 2, "c");
  refs.learn(5, 3, "d", &forgotten);
  ASSERT_TRUE(forgotten);
  EXPECT_EQ(*forgotten, (std::pair<std::uint32_t, std::uint32_t>{5, 1}));
  EXPECT_EQ(refs.name_of(5, 1), nullptr);
  EXPECT_EQ(refs.size(), 3u);  // two learnt, one pinned
}

TEST(WireBundle, FramesOfOneStreamLeanOnTheFirstAndDecodeAlike) {
  std::vector<std::vector<std::uint8_t>> frames;
  for (std::uint64_t seq = 10; seq < 20; ++seq) frames.push_back(wire::encode(small("tracks", 7, seq), {2, seq == 10, false}));
  frames.push_back(wire::encode(small("other", 7, 3), {5, false, false}));
  frames.push_back(wire::encode(small("tracks", 7, 9), {2, false, false}));  // an older one, after another stream
  std::size_t standalone = 0;
  for (const auto& f : frames) standalone += f.size() + wire::bundle_item_overhead(f.size());
  std::vector<std::size_t> sizes;
  const auto bundle = wire::encode_bundle(frames, &sizes);
  std::printf("12 small frames: %zu bytes alone, %zu bundled\n", standalone + 1, bundle.size());
  EXPECT_LE(bundle.size() + 9 * 5, standalone + 1) << "each follower saves the publisher and reference";

  wire::GroupRefs refs;
  refs.learn(7, 5, "other");
  wire::Decoded outer;
  ASSERT_EQ(wire::decode(bundle, wire::Limits{}, outer, &refs), std::nullopt);
  ASSERT_EQ(outer.items.size(), frames.size());
  wire::DataContext context;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(outer.items[i].size(), sizes[i]);
    wire::Decoded item;
    wire::Decoded alone;
    ASSERT_EQ(wire::decode(outer.items[i], wire::Limits{}, item, &refs, &context), std::nullopt) << i;
    refs.learn(7, item.data_info.group_ref, item.data.group());  // as a node learns from the named first
    ASSERT_EQ(wire::decode(frames[i], wire::Limits{}, alone, &refs), std::nullopt) << i;
    EXPECT_EQ(item.data.SerializeAsString(), alone.data.SerializeAsString()) << "item " << i;
  }
  // Outside a bundle, a context frame means nothing.
  wire::Decoded item;
  EXPECT_EQ(wire::decode(outer.items[3], wire::Limits{}, item, &refs), DecodeError::Unparseable);
}

TEST(WireBundle, AFrameThatFailsBreaksTheContextOfTheFramesAfterIt) {
  // Frames 2.. lean on frame 1, whose reference the receiver does not know:
  // all of them are refused as unknown, none filed under another group.
  std::vector<std::vector<std::uint8_t>> frames;
  frames.push_back(wire::encode(small("known", 7, 1), {1, false, false}));
  for (std::uint64_t seq = 1; seq <= 3; ++seq) frames.push_back(wire::encode(small("unknown", 7, seq), {2, false, false}));
  const auto bundle = wire::encode_bundle(frames);
  wire::GroupRefs refs;
  refs.learn(7, 1, "known");
  wire::Decoded outer;
  ASSERT_EQ(wire::decode(bundle, wire::Limits{}, outer, &refs), std::nullopt);
  wire::DataContext context;
  wire::Decoded item;
  EXPECT_EQ(wire::decode(outer.items[0], wire::Limits{}, item, &refs, &context), std::nullopt);
  for (std::size_t i = 1; i < outer.items.size(); ++i)
    EXPECT_EQ(wire::decode(outer.items[i], wire::Limits{}, item, &refs, &context), DecodeError::UnknownGroupRef) << i;
  // A corrupt frame in the middle: the ones leaning on it do not parse.
  auto corrupt = bundle;
  wire::Decoded again;
  ASSERT_EQ(wire::decode(corrupt, wire::Limits{}, again), std::nullopt);
  const auto offset = static_cast<std::size_t>(again.items[2].data() - corrupt.data());
  corrupt[offset + 1] |= 0x02;  // flags: a context frame that also claims a name
  ASSERT_EQ(wire::decode(corrupt, wire::Limits{}, again), std::nullopt);
  refs.learn(7, 2, "unknown");
  context = {};
  EXPECT_EQ(wire::decode(again.items[0], wire::Limits{}, item, &refs, &context), std::nullopt);
  EXPECT_EQ(wire::decode(again.items[1], wire::Limits{}, item, &refs, &context), std::nullopt);
  EXPECT_EQ(wire::decode(again.items[2], wire::Limits{}, item, &refs, &context), DecodeError::Unparseable);
  EXPECT_EQ(wire::decode(again.items[3], wire::Limits{}, item, &refs, &context), DecodeError::Unparseable)
      << "it leant on the broken one";
}

TEST(GroupNaming, AReceiverThatMissedTheAnnouncementsCountsTheFramesThenLearnsFromABeacon) {
  EngineConfig pc = fast_config(1);
  pc.beacon_interval = 10 * kSeconds;
  Node pub(pc, cache::Store::open(":memory:"), kT0);
  for (std::uint8_t i = 0; i < 8; ++i) pub.publish(request("tracks", bytes_of(40, i)), kT0);
  const auto sent = only_data(drain(pub, kT0));
  ASSERT_EQ(sent.size(), 8u);
  std::size_t named = 0;
  AirReader air;
  for (const auto& d : sent) {
    wire::Decoded out;
    ASSERT_FALSE(air.decode(d, out));
    named += out.data_info.named;
  }
  EXPECT_EQ(named, 4u) << "the first few frames name the group, the rest use its reference";

  Node late(fast_config(2), cache::Store::open(":memory:"), kT0);
  late.subscribe("tracks", {}, kT0);
  for (std::size_t i = 4; i < sent.size(); ++i) late.on_datagram(sent[i], kT0);
  EXPECT_EQ(malformed(late, DecodeError::UnknownGroupRef), 4u);
  EXPECT_EQ(delivered(late), 0u);
  // The publisher's next beacon lists the stream with its reference.
  std::vector<std::uint8_t> beacon;
  Micros t = kT0;
  for (int step = 0; step < 10'000 && t < kT0 + 30 * kSeconds && beacon.empty(); ++step, t = std::max(t + 1, pub.next_deadline())) {
    pub.on_timer(t);
    while (auto d = pub.poll_datagram(t))
      if ((d->bytes[0] & 0x0f) == static_cast<std::uint8_t>(wire::Kind::Beacon)) beacon = d->bytes;
  }
  ASSERT_FALSE(beacon.empty());
  late.on_datagram(beacon, kT0 + 11 * kSeconds);
  for (std::size_t i = 4; i < sent.size(); ++i) late.on_datagram(sent[i], kT0 + 11 * kSeconds);
  EXPECT_EQ(delivered(late), 4u) << "the same frames read once the mapping is known";
}

TEST(GroupNaming, ReferencesSurviveARestartOfThePublisherAndOfTheReceiver) {
  TempDb pub_db;
  TempDb rx_db;
  std::vector<std::vector<std::uint8_t>> before;
  {
    Node pub(fast_config(1), cache::Store::open(pub_db.path()), kT0);
    pub.publish(request("alpha", bytes_of(40, 1)), kT0);
    pub.publish(request("beta", bytes_of(40, 2)), kT0);
    before = only_data(drain(pub, kT0));
    Node rx(fast_config(2), cache::Store::open(rx_db.path()), kT0);
    rx.subscribe("beta", {}, kT0);
    for (const auto& d : before) rx.on_datagram(d, kT0);
    EXPECT_EQ(delivered(rx), 1u);
  }
  Node pub(fast_config(1), cache::Store::open(pub_db.path()), kT0 + kSeconds);
  for (std::uint8_t i = 0; i < 6; ++i) pub.publish(request("beta", bytes_of(40, i)), kT0 + kSeconds);
  const auto after = only_data(drain(pub, kT0 + kSeconds));
  AirReader air;
  for (const auto& d : before) air.frames(d);
  for (const auto& d : after) {
    wire::Decoded out;
    ASSERT_FALSE(air.decode(d, out)) << "the same reference as before the restart";
    EXPECT_EQ(out.data.group(), "beta");
  }
  Node rx(fast_config(2), cache::Store::open(rx_db.path()), kT0 + kSeconds);
  rx.subscribe("beta", {}, kT0 + kSeconds);
  for (std::size_t i = 4; i < after.size(); ++i) rx.on_datagram(after[i], kT0 + kSeconds);  // unnamed ones only
  EXPECT_EQ(malformed(rx, DecodeError::UnknownGroupRef), 0u) << "the receiver kept what it had learnt";
  EXPECT_EQ(delivered(rx), 2u);
}

}  // namespace group_refs_test
