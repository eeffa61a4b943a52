// A partial holder answers a block deficit whenever what it holds reaches
// beyond the requester's sources, even at equal rank: found by the emulated
// tactical cell at 50 %, where every ground node lost the same fragment, the
// only node that heard the block's parity symbol was a relay (which never
// asks, so it never completes), and each subscriber's rank equalled the
// relay's. Judged by rank alone, the relay stayed silent and the message was
// never delivered although the ground nodes together held all of it.
#include <gtest/gtest.h>

#include "engine/node.h"
#include "sim/simulation.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace partial_holder_repair_test {
namespace {


}  // namespace

TEST(PartialHolderRepair, ARelayOfEqualRankWithTheParitySymbolCompletesASubscriber) {
  EngineConfig pub_cfg = fast_config(1);
  pub_cfg.serve_requests = false;  // as the tactical UAV: the ground must repair itself
  pub_cfg.redundancy_min = pub_cfg.redundancy_max = 0.2;
  Node pub(pub_cfg, cache::Store::open(":memory:"), kT0);
  Node relay(fast_config(2), cache::Store::open(":memory:"), kT0);  // caches, never subscribes
  Node sub(fast_config(3), cache::Store::open(":memory:"), kT0);
  sub.subscribe("g", {}, kT0);
  pub.publish(request("g", bytes_of(7168, 3)), kT0);  // 6 fragments: 5 x 1400 and 168

  // The first pass: the relay hears sources 0, 1, 3, 4 and the parity
  // symbol; the subscriber hears sources 0, 1, 3, 4, 5. Nobody hears source 2.
  std::size_t parity = 0;
  AirReader air;
  for (const auto& d : drain(pub, kT0)) {
    wire::Decoded w;
    ASSERT_FALSE(air.decode(d, w));
    if (w.kind == wire::Kind::Coded && parity++ == 0) relay.on_datagram(d, kT0);
    if (w.kind != wire::Kind::Data) continue;
    const std::uint32_t source = w.data.offset() / 1400;
    if (source == 2) continue;
    if (source != 5) relay.on_datagram(d, kT0);
    sub.on_datagram(d, kT0);
  }
  ASSERT_GE(parity, 1u) << "the publisher's proactive redundancy";

  // The relay and the subscriber alone, for up to 30 s.
  Micros now = kT0;
  for (int step = 0; step < 300 && sub.stats().deliveries == 0; ++step) {
    now += 100 * kMillis;
    for (Node* n : {&relay, &sub}) {
      n->on_timer(now);
      Node* other = n == &relay ? &sub : &relay;
      for (const auto& d : drain(*n, now)) other->on_datagram(d, now);
    }
  }
  EXPECT_EQ(sub.stats().deliveries, 1u) << "the relay's recoded parity completes the subscriber";
  EXPECT_GT(relay.stats().coded_recoded, 0u);
  std::size_t delivered = 0;
  while (auto m = sub.poll_delivery()) {
    EXPECT_EQ(m->payload, bytes_of(7168, 3));
    ++delivered;
  }
  EXPECT_EQ(delivered, 1u);
}

}  // namespace partial_holder_repair_test
