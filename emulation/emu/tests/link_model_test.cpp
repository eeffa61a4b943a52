// The link model in virtual time: every figure here is exact or a sampling
// tolerance, never a wall-clock one.
#include "link_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "test_frames.h"

namespace dissem::emu {
namespace {

using testing::broadcast_frame;
using testing::frame_to;

using testing::kForever;
using testing::kMs;

LinkModel make_model(std::size_t nodes, ModelConfig config = {}) {
  config.nodes = nodes;
  return LinkModel(config, AddressPlan("test", nodes));
}

std::vector<Delivery> drain(LinkModel& m) {
  std::vector<Delivery> out;
  m.poll(kForever, out);
  return out;
}

std::size_t count_to(const std::vector<Delivery>& ds, NodeId receiver) {
  std::size_t n = 0;
  for (const auto& d : ds) n += d.receiver == receiver;
  return n;
}

TEST(LinkModel, UnaffectedBroadcastReachesEveryOtherNodeAtOnce) {
  LinkModel m = make_model(3);
  m.offer(5 * kMs, 2, broadcast_frame());
  std::vector<Delivery> out;
  m.poll(5 * kMs, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].receiver, 1u);
  EXPECT_EQ(out[1].receiver, 3u);
  for (const auto& d : out) {
    EXPECT_EQ(d.due, 5 * kMs);
    EXPECT_EQ(d.sender, 2u);
  }
  EXPECT_FALSE(m.next_deadline());
}

TEST(LinkModel, TwentyPercentLossOverTenThousandFrames) {
  LinkModel m = make_model(2);
  LinkEffects e;
  e.loss_pct = 20;
  m.set_effects(1, 2, e);
  constexpr int kFrames = 10'000;
  for (int i = 0; i < kFrames; ++i) m.offer(i * kMs, 1, broadcast_frame());
  const auto out = drain(m);
  const double loss = 1.0 - static_cast<double>(out.size()) / kFrames;
  EXPECT_NEAR(loss, 0.20, 0.02);
  const auto& c = m.counters().link(1, 2);
  EXPECT_EQ(c.offered, static_cast<std::uint64_t>(kFrames));
  EXPECT_EQ(c.lost + c.delivered, c.offered);
  EXPECT_EQ(c.in_flight(), 0u);
}

TEST(LinkModel, LinkRatePacesBackToBackFramesExactly) {
  ModelConfig config;
  config.queue_packets = 10'000;
  LinkModel m = make_model(2, config);
  LinkEffects e;
  e.broadcast_bps = 256'000;
  m.set_effects(1, 2, e);
  constexpr int kFrames = 500;
  constexpr std::size_t kBytes = 200;  // 6.25 ms each at 256 kbit/s
  for (int i = 0; i < kFrames; ++i) m.offer(0, 1, broadcast_frame(kBytes));
  const auto out = drain(m);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(kFrames));
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i].due, static_cast<TimeNs>(i + 1) * 6'250'000);
  const double seconds = static_cast<double>(out.back().due - out.front().due) / kNsPerSecond;
  const double bps = (kFrames - 1) * kBytes * 8 / seconds;
  EXPECT_NEAR(bps, 256'000, 256'000 * 0.01);
}

TEST(LinkModel, UnicastAndBroadcastRatesApplyByDestination) {
  LinkModel m = make_model(2);
  LinkEffects e;
  e.unicast_bps = 1'000'000;   // 100 bytes: 0.8 ms
  e.broadcast_bps = 100'000;  // 100 bytes: 8 ms
  m.set_effects(1, 2, e);
  m.offer(0, 1, frame_to(AddressPlan("test", 2).mac_of(2)));
  auto out = drain(m);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].due, 800'000);
  m.offer(kNsPerSecond, 1, broadcast_frame());
  out = drain(m);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].due, kNsPerSecond + 8 * kMs);
}

TEST(LinkModel, LatencyAndJitterStayInBoundsAndSpread) {
  LinkModel m = make_model(2);
  LinkEffects e;
  e.latency = 40 * kMs;
  e.jitter = 5 * kMs;
  m.set_effects(1, 2, e);
  std::map<const Frame*, TimeNs> sent_at;
  std::vector<FramePtr> held;  // frames told apart by address: none may be freed and reused
  for (int i = 0; i < 2000; ++i) {
    held.push_back(broadcast_frame());
    sent_at[held.back().get()] = i * kMs;
    m.offer(i * kMs, 1, held.back());
  }
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 2000u);
  TimeNs min_delay = kForever, max_delay = 0;
  bool reordered = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const TimeNs delay = out[i].due - sent_at.at(out[i].frame.get());
    min_delay = std::min(min_delay, delay);
    max_delay = std::max(max_delay, delay);
    if (i > 0 && sent_at.at(out[i].frame.get()) < sent_at.at(out[i - 1].frame.get())) reordered = true;
    if (i > 0) {
      EXPECT_GE(out[i].due, out[i - 1].due);  // handed out in due order
    }
  }
  EXPECT_GE(min_delay, 40 * kMs);
  EXPECT_LE(max_delay, 45 * kMs);
  EXPECT_LT(min_delay, 40 * kMs + kMs / 2);
  EXPECT_GT(max_delay, 45 * kMs - kMs / 2);
  EXPECT_TRUE(reordered) << "jitter larger than the frame spacing should reorder";
}

TEST(LinkModel, LinkQueueIsDropTailInPackets) {
  ModelConfig config;
  config.queue_packets = 50;
  LinkModel m = make_model(2, config);
  LinkEffects e;
  e.broadcast_bps = 1'000'000;  // 125 bytes: 1 ms
  m.set_effects(1, 2, e);
  for (int i = 0; i < 200; ++i) m.offer(0, 1, broadcast_frame(125));
  // One on the air plus 50 waiting.
  EXPECT_EQ(m.counters().link(1, 2).queue_dropped, 149u);
  // Half-way through, 25 have left: 25 more fit.
  for (int i = 0; i < 40; ++i) m.offer(25 * kMs + kMs / 2, 1, broadcast_frame(125));
  EXPECT_EQ(m.counters().link(1, 2).queue_dropped, 149u + 15u);
  const auto out = drain(m);
  EXPECT_EQ(out.size(), 51u + 25u);
  EXPECT_EQ(out.back().due, 76 * kMs);
}

TEST(LinkModel, AsymmetricLinkPassesNothingOneWay) {
  LinkModel m = make_model(2);
  m.set_effects(1, 2, LinkEffects::disconnected());
  for (int i = 0; i < 100; ++i) {
    m.offer(i * kMs, 1, broadcast_frame());
    m.offer(i * kMs, 2, broadcast_frame());
  }
  const auto out = drain(m);
  EXPECT_EQ(count_to(out, 2), 0u);
  EXPECT_EQ(count_to(out, 1), 100u);
  EXPECT_EQ(m.counters().link(1, 2).lost, 100u);
}

TEST(LinkModel, DuplicatesAddCopiesAtTheirRate) {
  LinkModel m = make_model(2);
  LinkEffects e;
  e.duplicate_pct = 10;
  m.set_effects(1, 2, e);
  constexpr int kFrames = 10'000;
  for (int i = 0; i < kFrames; ++i) m.offer(i * kMs, 1, broadcast_frame());
  const auto out = drain(m);
  const auto& c = m.counters().link(1, 2);
  EXPECT_NEAR(static_cast<double>(c.duplicated) / kFrames, 0.10, 0.015);
  EXPECT_EQ(out.size(), kFrames + c.duplicated);
  EXPECT_EQ(c.delivered, out.size());
}

TEST(LinkModel, GilbertElliottMeanLossIsTheStationaryValueAndBursty) {
  ModelConfig config;
  config.gilbert = GilbertParams{0.05, 0.20, 0.8};
  LinkModel m = make_model(2, config);
  LinkEffects e;
  e.loss_pct = 5;
  m.set_effects(1, 2, e);
  constexpr int kFrames = 100'000;
  // Held here, so a lost (dropped) frame is not freed and its address is
  // not reused by a later one: frames are told apart by address.
  std::vector<FramePtr> sent;
  for (int i = 0; i < kFrames; ++i) {
    sent.push_back(broadcast_frame(20));
    m.offer(i * kMs, 1, sent.back());
  }
  const auto out = drain(m);
  std::map<const Frame*, bool> received;
  for (const auto& d : out) received[d.frame.get()] = true;
  const double expected = config.gilbert->mean_loss(0.05);  // 0.05 + 0.2 * 0.8 * 0.95 = 0.202
  EXPECT_NEAR(expected, 0.202, 1e-9);
  const double loss = 1.0 - static_cast<double>(out.size()) / kFrames;
  EXPECT_NEAR(loss, expected, 0.01);
  // Bursts: a loss right after a loss is much likelier than on average.
  std::size_t losses = 0, loss_after_loss = 0;
  for (int i = 1; i < kFrames; ++i) {
    const bool lost_before = !received.count(sent[i - 1].get());
    if (lost_before) {
      ++losses;
      loss_after_loss += !received.count(sent[i].get());
    }
  }
  EXPECT_GT(static_cast<double>(loss_after_loss) / static_cast<double>(losses), loss + 0.2);
}

TEST(LinkModel, SharedChannelSerialisesAllSenders) {
  ModelConfig config;
  config.shared_channel_bps = 1'000'000;  // 1000 bytes: 8 ms
  LinkModel m = make_model(3, config);
  for (int i = 0; i < 10; ++i)
    for (NodeId s = 1; s <= 3; ++s) m.offer(0, s, broadcast_frame(1000));
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 60u);  // each frame reaches the two other nodes
  // Frame k (of 30, in order of offer) leaves the channel at (k+1) * 8 ms.
  std::map<TimeNs, std::size_t> per_time;
  for (const auto& d : out) ++per_time[d.due];
  ASSERT_EQ(per_time.size(), 30u);
  TimeNs expected = 8 * kMs;
  for (const auto& [at, copies] : per_time) {
    EXPECT_EQ(at, expected);
    EXPECT_EQ(copies, 2u);
    expected += 8 * kMs;
  }
  EXPECT_EQ(out.front().sender, 1u);
  EXPECT_EQ(out[2].sender, 2u);
}

TEST(LinkModel, SharedChannelDropTailIsPerSender) {
  ModelConfig config;
  config.shared_channel_bps = 1'000'000;
  config.queue_packets = 5;
  LinkModel m = make_model(3, config);
  for (int i = 0; i < 20; ++i) m.offer(0, 1, broadcast_frame(1000));
  m.offer(0, 2, broadcast_frame(1000));  // node 1's full queue does not stop node 2
  EXPECT_EQ(m.counters().node(1).radio_queue_dropped, 14u);
  EXPECT_EQ(m.counters().node(2).radio_queue_dropped, 0u);
  const auto out = drain(m);
  EXPECT_EQ(count_to(out, 3), 7u);
}

TEST(LinkModel, RadioSerialisesOnceForAllReceiversBeforeTheLinks) {
  ModelConfig config;
  config.radio_bps = {1'000'000, 0, 0};
  LinkModel m = make_model(3, config);
  LinkEffects e;
  e.latency = 10 * kMs;
  m.set_effects(1, 3, e);
  m.offer(0, 1, broadcast_frame(1000));
  m.offer(0, 1, broadcast_frame(1000));
  EXPECT_EQ(m.next_deadline(), 8 * kMs);  // leaving the radio
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].receiver, 2u);
  EXPECT_EQ(out[0].due, 8 * kMs);
  EXPECT_EQ(out[1].due, 16 * kMs);
  EXPECT_EQ(out[2].receiver, 3u);
  EXPECT_EQ(out[2].due, 18 * kMs);
  EXPECT_EQ(out[3].due, 26 * kMs);
}

// A radio and a link rate on one path: the copy pays one serialisation, at
// the slower of the two (EMANE's comm effect shim sees min(radio, link)),
// not the radio's and then the link's.
// Node 1 with a 1 Mbit/s radio; its link to node i + 2 at link_bps[i].
LinkModel radio_before_links(const std::vector<std::uint64_t>& link_bps) {
  ModelConfig config;
  config.radio_bps.assign(link_bps.size() + 1, 0);
  config.radio_bps[0] = 1'000'000;
  LinkModel m = make_model(link_bps.size() + 1, config);
  for (std::size_t i = 0; i < link_bps.size(); ++i) {
    LinkEffects e;
    e.broadcast_bps = link_bps[i];
    m.set_effects(1, static_cast<NodeId>(i + 2), e);
  }
  return m;
}

TEST(LinkModel, RadioAndLinkRatesSerialiseOnceAtTheSlower) {
  LinkModel m = radio_before_links({2'000'000, 500'000});
  m.offer(0, 1, broadcast_frame(1000));
  m.offer(0, 1, broadcast_frame(1000));
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 4u);
  std::vector<TimeNs> to2, to3;
  for (const auto& d : out) (d.receiver == 2 ? to2 : to3).push_back(d.due);
  // Faster link: the radio's 8 ms per frame and nothing more.
  EXPECT_EQ(to2, (std::vector<TimeNs>{8 * kMs, 16 * kMs}));
  // Slower link: 16 ms per frame from when the first began to leave the
  // radio; the second waits for the link, not for a second radio pass.
  EXPECT_EQ(to3, (std::vector<TimeNs>{16 * kMs, 32 * kMs}));
}

// Radio and link at one rate: each frame is due when it has left the radio,
// whatever its size and whatever the link carried before it.
TEST(LinkModel, EqualRatesAddNothingToAnyFrame) {
  LinkModel m = radio_before_links({1'000'000});
  m.offer(0, 1, broadcast_frame(1000));
  m.offer(0, 1, broadcast_frame(250));
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].due, 8 * kMs);
  EXPECT_EQ(out[1].due, 10 * kMs);  // on the radio 8..10 ms, link free at 8 ms
}

TEST(LinkModel, ScheduledEffectsChangeAtTheirTime) {
  LinkModel m = make_model(2);
  m.schedule_effects(kNsPerSecond, 1, 2, LinkEffects::disconnected());
  m.schedule_effects(2 * kNsPerSecond, 1, 2, LinkEffects{});
  EXPECT_EQ(m.next_deadline(), kNsPerSecond);
  std::vector<Delivery> out;
  for (int i = 0; i < 300; ++i) {
    m.offer(i * 10 * kMs, 1, broadcast_frame());
    m.poll(i * 10 * kMs, out);
  }
  // Frames at 0..0.99 s and 2.0..2.99 s pass; 1.0..1.99 s do not.
  EXPECT_EQ(out.size(), 200u);
  EXPECT_EQ(m.counters().link(1, 2).lost, 100u);
  EXPECT_EQ(m.effect_changes_applied(), 2u);
  EXPECT_EQ(m.effect_changes_pending(), 0u);
}

TEST(LinkModel, DefaultDisconnectedPassesOnlyConfiguredLinks) {
  ModelConfig config;
  config.default_connected = false;
  LinkModel m = make_model(3, config);
  m.set_effects(1, 2, LinkEffects{});
  m.offer(0, 1, broadcast_frame());
  m.offer(0, 2, broadcast_frame());
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sender, 1u);
  EXPECT_EQ(out[0].receiver, 2u);
}

TEST(LinkModel, UnicastGoesOnlyToItsOwnerAndUnknownIsDropped) {
  LinkModel m = make_model(3);
  const AddressPlan plan("test", 3);
  m.offer(0, 1, frame_to(plan.mac_of(3)));
  m.offer(0, 1, frame_to({0x02, 0x11, 0x22, 0x33, 0x44, 0x55}));
  m.offer(0, 1, frame_to(plan.mac_of(1)));  // to itself
  m.offer(0, 1, frame_to({0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}));  // multicast: flooded
  const auto out = drain(m);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(count_to(out, 3), 2u);
  EXPECT_EQ(count_to(out, 2), 1u);
  EXPECT_EQ(m.counters().node(1).unknown_unicast_dropped, 2u);
  EXPECT_EQ(m.counters().node(1).multicast_sent, 1u);
  EXPECT_EQ(m.counters().node(1).frames_sent, 4u);
}

std::vector<std::pair<TimeNs, NodeId>> lossy_run(std::uint64_t seed) {
  ModelConfig config;
  config.seed = seed;
  config.gilbert = GilbertParams{0.1, 0.3, 0.5};
  LinkModel m = make_model(4, config);
  LinkEffects e;
  e.loss_pct = 30;
  e.duplicate_pct = 5;
  e.latency = 3 * kMs;
  e.jitter = 2 * kMs;
  for (NodeId s = 1; s <= 4; ++s)
    for (NodeId r = 1; r <= 4; ++r)
      if (s != r) m.set_effects(s, r, e);
  for (int i = 0; i < 1000; ++i) m.offer(i * kMs, static_cast<NodeId>(i % 4 + 1), broadcast_frame());
  std::vector<std::pair<TimeNs, NodeId>> trace;
  for (const auto& d : drain(m)) trace.emplace_back(d.due, d.receiver);
  return trace;
}

TEST(LinkModel, SameSeedSameOutcome) {
  EXPECT_EQ(lossy_run(7), lossy_run(7));
  EXPECT_NE(lossy_run(7), lossy_run(8));
}

TEST(LinkModel, RejectsRadioWithSharedChannel) {
  ModelConfig config;
  config.nodes = 2;
  config.shared_channel_bps = 1000;
  config.radio_bps = {1000, 0};
  EXPECT_THROW(LinkModel(config, AddressPlan("x", 2)), std::invalid_argument);
}

}  // namespace
}  // namespace dissem::emu
