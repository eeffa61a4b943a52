// Bundling: small messages (and the control traffic with them) share a
// datagram; each item stays self-describing, is cached and verified on its
// own, and is repaired alone when the bundle is lost.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/node.h"
#include "sim/simulation.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace bundling_test {
namespace {


EngineConfig bundling(NodeId id, Micros delay = 10 * kMillis) {
  EngineConfig c = fast_config(id);
  c.bundle_delay = delay;
  return c;
}

// Every datagram the node sends until `end`, stepping virtual time to its deadlines.
std::vector<std::vector<std::uint8_t>> sent_until(Node& n, Micros from, Micros end) {
  std::vector<std::vector<std::uint8_t>> out;
  for (Micros t = from; t < end;) {
    if (t >= n.next_deadline()) n.on_timer(t);
    if (auto d = n.poll_datagram(t)) {
      out.push_back(std::move(d->bytes));
    } else {
      t = std::max(t + 1, std::min(end, n.next_deadline()));
    }
  }
  return out;
}

std::size_t items_in(const std::vector<std::uint8_t>& datagram) {
  if (datagram.empty()) return 0;
  if ((datagram[0] & 0x0f) != static_cast<std::uint8_t>(wire::Kind::Bundle)) return 1;
  wire::Decoded d;  // a bundle's items are counted without decoding them
  if (wire::decode(datagram, wire::Limits{}, d)) return 0;
  return d.items.size();
}

}  // namespace

TEST(Bundling, SmallMessagesShareADatagramAndArriveEachOnItsOwn) {
  Node pub(bundling(7), cache::Store::open(":memory:"), kT0);
  for (int i = 0; i < 10; ++i) pub.publish(request("g", bytes_of(100, static_cast<std::uint8_t>(i))), kT0);
  const auto sent = sent_until(pub, kT0, kT0 + 50 * kMillis);
  std::size_t data_items = 0;
  std::size_t bundles = 0;
  for (const auto& d : sent) {
    bundles += items_in(d) > 1;
    data_items += items_in(d);
  }
  EXPECT_LE(sent.size(), 2u) << "ten 100-byte messages fit one datagram (plus a beacon)";
  EXPECT_GE(bundles, 1u);
  EXPECT_GE(pub.stats().bundled_items, 10u);
  for (const auto& d : sent) EXPECT_LE(d.size(), pub.config().payload_size) << "a bundle never exceeds the payload size";

  Node sub(bundling(2), cache::Store::open(":memory:"), kT0);
  sub.subscribe("g", {}, kT0);
  for (const auto& d : sent) sub.on_datagram(d, kT0 + 60 * kMillis);
  std::vector<std::uint64_t> got;
  while (auto d = sub.poll_delivery()) got.push_back(d->meta.id.seq);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(sub.store().message_count(), 10u) << "each cached as a message of its own";
  EXPECT_GE(sub.stats().bundles_received, 1u);
}

TEST(Bundling, ALoneSmallFrameWaitsAtMostTheDelayAndFullFragmentsNever) {
  Node pub(bundling(7, 10 * kMillis), cache::Store::open(":memory:"), kT0);
  pub.publish(request("g", bytes_of(100, 1)), kT0);
  EXPECT_FALSE(pub.poll_datagram(kT0)) << "held for company";
  EXPECT_LE(pub.next_deadline(), kT0 + 10 * kMillis);
  EXPECT_FALSE(pub.poll_datagram(kT0 + 9 * kMillis));
  auto d = pub.poll_datagram(kT0 + 10 * kMillis);
  ASSERT_TRUE(d) << "sent once the delay is over";
  EXPECT_EQ(items_in(d->bytes), 1u) << "alone, it goes unwrapped";

  pub.publish(request("g", bytes_of(5000, 2)), kT0 + kSeconds);  // full-size fragments
  EXPECT_TRUE(pub.poll_datagram(kT0 + kSeconds)) << "a full fragment does not wait";

  Node off(bundling(8, 0), cache::Store::open(":memory:"), kT0);
  off.publish(request("g", bytes_of(100, 1)), kT0);
  off.publish(request("g", bytes_of(100, 2)), kT0);
  const auto unbundled = sent_until(off, kT0, kT0 + 20 * kMillis);
  EXPECT_EQ(only_data(unbundled).size(), 2u);
  for (const auto& u : unbundled) EXPECT_EQ(items_in(u), 1u) << "bundling off: one frame per datagram";
}

TEST(Bundling, MessagesOfALostBundleAreRepairedOneByOne) {
  sim::Simulation s(5);
  EngineConfig pc = bundling(1);
  pc.link_capacity_bps = 1'000'000;
  EngineConfig rc = bundling(2);
  rc.link_capacity_bps = 1'000'000;
  s.add_node(pc, 1'000'000);
  s.add_node(rc, 1'000'000);
  s.subscribe(1, "g");
  // Message 1 arrives; the bundle of 2..6 is lost (the link is off while it
  // goes out); 7 shows the gap.
  s.at(0, [](sim::Simulation& sm) { sm.publish(0, request("g", bytes_of(150, 0))); });
  s.at(50 * kMillis, [](sim::Simulation& sm) { sm.set_link(0, 1, sim::LinkParams{1.0, 0, 0, false}); });
  for (int i = 1; i < 6; ++i)
    s.at(50 * kMillis + kMillis * i,
         [i](sim::Simulation& sm) { sm.publish(0, request("g", bytes_of(150, static_cast<std::uint8_t>(i)))); });
  s.at(100 * kMillis, [](sim::Simulation& sm) { sm.set_link(0, 1, sim::LinkParams{1.0, 2 * kMillis, 0, true}); });
  s.at(200 * kMillis, [](sim::Simulation& sm) { sm.publish(0, request("g", bytes_of(150, 9))); });
  s.run_until(5 * kSeconds);
  std::vector<std::uint64_t> got;
  for (const auto& r : s.deliveries(1)) got.push_back(r.delivery.meta.id.seq);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_GE(s.node(0).stats().bundles_sent, 1u) << "2..6 went out bundled";
}

}  // namespace bundling_test
