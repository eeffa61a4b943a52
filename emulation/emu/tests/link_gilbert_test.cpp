// Burst loss configured per link: only the named links step a chain, with
// their own parameters; a per-link setting overrides the global one there.
#include <gtest/gtest.h>

#include "link_model.h"
#include "test_frames.h"

namespace dissem::emu {
namespace {

using testing::broadcast_frame;

using testing::kForever;
using testing::kMs;

double loss_on(const LinkModel& m, NodeId s, NodeId r) {
  const auto& c = m.counters().link(s, r);
  return static_cast<double>(c.lost) / static_cast<double>(c.offered);
}

TEST(LinkGilbert, OnlyTheNamedLinkLosesAndAtItsOwnRate) {
  ModelConfig config;
  config.nodes = 3;
  config.link_gilbert = {LinkGilbert{1, 2, GilbertParams{0.1, 0.1, 0.6}}};  // pi_bad 0.5: 30 % loss
  LinkModel m(config, AddressPlan("test", 3));
  for (int i = 0; i < 40'000; ++i) m.offer(i * kMs, 1, broadcast_frame(60));
  std::vector<Delivery> out;
  m.poll(kForever, out);
  EXPECT_NEAR(loss_on(m, 1, 2), 0.30, 0.02);
  EXPECT_EQ(m.counters().link(1, 3).lost, 0u);
}

TEST(LinkGilbert, PerLinkSettingOverridesTheGlobalOne) {
  ModelConfig config;
  config.nodes = 3;
  config.gilbert = GilbertParams{0.1, 0.1, 0.2};                               // 10 % everywhere
  config.link_gilbert = {LinkGilbert{1, 3, GilbertParams{0.0, 1.0, 1.0}}};     // never bad on 1 -> 3
  LinkModel m(config, AddressPlan("test", 3));
  for (int i = 0; i < 40'000; ++i) m.offer(i * kMs, 1, broadcast_frame(60));
  std::vector<Delivery> out;
  m.poll(kForever, out);
  EXPECT_NEAR(loss_on(m, 1, 2), 0.10, 0.015);
  EXPECT_EQ(m.counters().link(1, 3).lost, 0u);
}

TEST(LinkGilbert, RejectsALinkOutsideTheNodes) {
  ModelConfig config;
  config.nodes = 2;
  config.link_gilbert = {LinkGilbert{1, 3, GilbertParams{}}};
  EXPECT_THROW(LinkModel(config, AddressPlan("test", 2)), std::invalid_argument);
}

TEST(LowRateLink, SeventyFiveBitsPerSecondPacesFramesOf157Seconds) {
  // The HF rates: no overflow or truncation in serialisation times, queues
  // counted in frames however long each takes.
  ModelConfig config;
  config.nodes = 2;
  config.queue_packets = 2;
  LinkModel m(config, AddressPlan("test", 2));
  LinkEffects e;
  e.broadcast_bps = 75;
  m.set_effects(1, 2, e);
  for (int i = 0; i < 5; ++i) m.offer(0, 1, broadcast_frame(1474));
  std::vector<Delivery> out;
  m.poll(kForever, out);
  ASSERT_EQ(out.size(), 3u);  // one on the air, two waiting, two dropped
  const TimeNs each = serialisation_time(1474, 75);
  EXPECT_EQ(each, 157'226'666'667);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i].due, static_cast<TimeNs>(i + 1) * each);
  EXPECT_EQ(m.counters().link(1, 2).queue_dropped, 2u);
  // A jumbo frame at 1 bit/s still fits the 64-bit nanosecond clock.
  EXPECT_EQ(serialisation_time(9000, 1), 72'000 * kNsPerSecond);
}

}  // namespace
}  // namespace dissem::emu
