// Link quality between engines on the simulated medium, in virtual time:
// loss each way over asymmetric links, rates, RTT, and link events with
// their hysteresis as links change.
#include <gtest/gtest.h>

#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace link_quality_sim_test {
namespace {

constexpr std::uint64_t kCapacity = 1'000'000;
const std::string kGroup = "link-grp";

engine::EngineConfig config() {
  engine::EngineConfig c;
  c.link_capacity_bps = kCapacity;
  return c;
}

// Node `from` publishes one `bytes`-byte message every `every` in [start, end).
void publish_stream(Simulation& sim, std::size_t from, Micros start, Micros end, Micros every, std::size_t bytes) {
  for (Micros t = start; t < end; t += every) {
    sim.at(t, [from, bytes](Simulation& s) {
      engine::PublishRequest r;
      r.group = kGroup;
      r.payload.assign(bytes, static_cast<std::uint8_t>(s.now() / kMillis));
      s.publish(from, r);
    });
  }
}

// What `at` measures of `peer` (both are node indices).
std::optional<engine::LinkSample> link_of(Simulation& sim, std::size_t at, std::size_t peer) {
  const NodeId id = sim.node(peer).id();
  for (const auto& l : sim.node(at).links(sim.engine_now()))
    if (l.node == id) return l;
  return std::nullopt;
}

// The link events node `at` raised about node `peer`, in order.
std::vector<engine::LinkEvent::Kind> link_events(const Simulation& sim, std::size_t at, std::size_t peer) {
  std::vector<engine::LinkEvent::Kind> out;
  const NodeId id = sim.node(peer).id();
  for (const auto& e : sim.events(at))
    if (e.event.kind == engine::Event::Kind::LinkChanged && e.event.link.link.node == id) out.push_back(e.event.link.kind);
  return out;
}

}  // namespace

TEST(LinkQualitySim, AsymmetricLossIsMeasuredInBothDirectionsWithRatesAndRtt) {
  Simulation sim(7);
  sim.add_node(config(), kCapacity);
  sim.add_node(config(), kCapacity);
  sim.set_link(0, 1, LinkParams{0.7, 2 * kMillis, 1 * kMillis, true});  // 30 % of node 0's datagrams lost
  sim.set_link(1, 0, LinkParams{1.0, 2 * kMillis, 1 * kMillis, true});
  sim.subscribe(1, kGroup);
  publish_stream(sim, 0, 5 * kSeconds, 60 * kSeconds, 100 * kMillis, 1000);  // 10 KB/s of payload
  sim.run_until(60 * kSeconds);

  const auto at_receiver = link_of(sim, 1, 0);
  ASSERT_TRUE(at_receiver.has_value());
  ASSERT_TRUE(at_receiver->loss_in.has_value());
  EXPECT_NEAR(*at_receiver->loss_in, 0.3, 0.08) << "what the receiver misses of the publisher";
  ASSERT_TRUE(at_receiver->loss_out.has_value());
  EXPECT_LT(*at_receiver->loss_out, 0.05) << "the publisher hears the receiver's every datagram";

  const auto at_publisher = link_of(sim, 0, 1);
  ASSERT_TRUE(at_publisher.has_value());
  ASSERT_TRUE(at_publisher->loss_out.has_value()) << "reported in the receiver's beacon echoes";
  EXPECT_NEAR(*at_publisher->loss_out, *at_receiver->loss_in, 0.1);
  ASSERT_TRUE(at_publisher->loss_in.has_value());
  EXPECT_LT(*at_publisher->loss_in, 0.05);
  EXPECT_NEAR(at_publisher->worst_loss(), 0.3, 0.1);

  // Rates: the publisher sends at least its 10 KB/s of payload; the receiver
  // hears about 70 % of what names its sender (repairs do not).
  const double sent = at_publisher->sent_bytes_per_s;
  EXPECT_GT(sent, 10'000.0);
  EXPECT_LT(sent, 25'000.0);
  EXPECT_GT(at_receiver->received_bytes_per_s, 0.4 * sent);
  EXPECT_LT(at_receiver->received_bytes_per_s, 0.8 * sent);
  EXPECT_LT(at_publisher->received_bytes_per_s, 0.2 * sent) << "the receiver sends beacons and requests only";
  EXPECT_GT(at_receiver->srtt, 0);
  EXPECT_GT(at_publisher->srtt, 0);
  EXPECT_LT(at_publisher->srtt, 50 * kMillis);
}

TEST(LinkQualitySim, LossEventsFireOnceEachWayAsALinkDegradesAndRecovers) {
  Simulation sim(11);
  auto c = config();
  c.link_thresholds.loss = 0.2;
  c.link_thresholds.loss_hysteresis = 0.1;
  // At 50 % loss five beacons in a row go missing now and then: the peer
  // must not be taken for silent meanwhile (this test is about loss).
  c.peer_silent_after = 15 * kSeconds;
  sim.add_node(c, kCapacity);
  sim.add_node(c, kCapacity);
  sim.set_all_links(LinkParams{1.0, 2 * kMillis, 1 * kMillis, true});
  // Beacons only: no data flows. Node 0's datagrams to node 1 degrade to
  // 50 % at 30 s and recover at 120 s; at 250 s the link goes down for good.
  sim.at(30 * kSeconds, [](Simulation& s) { s.set_link(0, 1, LinkParams{0.5, 2 * kMillis, 1 * kMillis, true}); });
  sim.at(120 * kSeconds, [](Simulation& s) { s.set_link(0, 1, LinkParams{1.0, 2 * kMillis, 1 * kMillis, true}); });
  sim.run_until(29 * kSeconds);
  using K = engine::LinkEvent::Kind;
  EXPECT_EQ(link_events(sim, 1, 0), std::vector<K>{K::PeerAppeared});
  sim.run_until(119 * kSeconds);
  EXPECT_EQ(link_events(sim, 1, 0), (std::vector<K>{K::PeerAppeared, K::LossAbove}));
  // Node 0 learns it from node 1's reports: its outgoing loss.
  EXPECT_EQ(link_events(sim, 0, 1), (std::vector<K>{K::PeerAppeared, K::LossAbove}));
  sim.run_until(240 * kSeconds);
  EXPECT_EQ(link_events(sim, 1, 0), (std::vector<K>{K::PeerAppeared, K::LossAbove, K::LossBelow}));
  EXPECT_EQ(link_events(sim, 0, 1), (std::vector<K>{K::PeerAppeared, K::LossAbove, K::LossBelow}));
  sim.at(250 * kSeconds, [](Simulation& s) {
    s.set_link(0, 1, LinkParams{1.0, 0, 0, false});
    s.set_link(1, 0, LinkParams{1.0, 0, 0, false});
  });
  sim.run_until(280 * kSeconds);
  const auto events = link_events(sim, 1, 0);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back(), K::PeerSilent);
  EXPECT_TRUE(sim.node(1).links(sim.engine_now()).empty());
}

TEST(LinkQualitySim, RateEventsFollowATransferAndItsEnd) {
  Simulation sim(5);
  auto c = config();
  c.link_thresholds.rate_bytes_per_s = 4000;
  c.link_rate_window = 2 * kSeconds;
  sim.add_node(c, kCapacity);
  sim.add_node(c, kCapacity);
  sim.set_all_links(LinkParams{1.0, 2 * kMillis, 1 * kMillis, true});
  sim.subscribe(1, kGroup);
  publish_stream(sim, 0, 20 * kSeconds, 40 * kSeconds, 100 * kMillis, 1000);  // 10 KB/s
  sim.run_until(60 * kSeconds);
  using K = engine::LinkEvent::Kind;
  EXPECT_EQ(link_events(sim, 1, 0), (std::vector<K>{K::PeerAppeared, K::RateAbove, K::RateBelow}));
  EXPECT_EQ(link_events(sim, 0, 1), std::vector<K>{K::PeerAppeared}) << "node 1 sends only beacons and requests";
  // The events came while the transfer ran and after it ended.
  Micros above = 0;
  Micros below = 0;
  for (const auto& e : sim.events(1)) {
    if (e.event.kind != engine::Event::Kind::LinkChanged) continue;
    if (e.event.link.kind == K::RateAbove) above = e.at;
    if (e.event.link.kind == K::RateBelow) below = e.at;
  }
  EXPECT_GT(above, 20 * kSeconds);
  EXPECT_LT(above, 23 * kSeconds);
  EXPECT_GT(below, 40 * kSeconds);
  EXPECT_LT(below, 43 * kSeconds);
}

}  // namespace link_quality_sim_test
