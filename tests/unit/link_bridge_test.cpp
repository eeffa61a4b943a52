// A gateway between two networks (daemon/link_bridge.h): one node per link,
// driven by hand on two lossless media. What a subscriber on the other
// network wants crosses, in the order of its priority; what nobody there
// wants never goes on its air; a message that the slow link could not send
// before it expires is not carried, and under more load than it carries what
// leaves still arrives in time; this host's applications get what they
// subscribe to without the main network carrying it.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "daemon/link_bridge.h"
#include "engine/node.h"
#include "engine/publisher/publisher.h"
#include "support/node_harness.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace dissem::daemon::link_bridge_test {
namespace {

EngineConfig on_network(NodeId id, std::uint64_t capacity_bps) {
  EngineConfig c = fast_config(id);
  c.link_capacity_bps = capacity_bps;
  c.payload_size = 200;
  c.controllers.forwarding = "subscription-aware";  // neighbours advertise what they subscribe to
  return c;
}

// Network A: publisher 1 and the gateway's node 10. Network B: the gateway's
// node 11 (a slow link) and subscriber 2.
struct TwoNetworks {
  Node pub{on_network(1, 1'000'000), cache::Store::open(":memory:"), kT0};
  Node gw_a{on_network(10, 1'000'000), cache::Store::open(":memory:"), kT0};
  Node gw_b{on_network(11, 24'000), cache::Store::open(":memory:"), kT0};
  Node sub{on_network(2, 24'000), cache::Store::open(":memory:"), kT0};
  LinkBridge bridge{{&gw_a, &gw_b}};
  std::vector<Delivery> at_sub, at_host;
  std::vector<Micros> at_sub_when;  // when each of at_sub was delivered
  std::uint64_t b_air_bytes = 0;  // everything sent on network B

  void exchange(Node& from, std::vector<Node*> to, Micros now, std::uint64_t* counted = nullptr) {
    from.on_timer(now);
    while (auto d = from.poll_datagram(now)) {
      if (counted != nullptr) *counted += d->bytes.size();
      for (Node* n : to) n->on_datagram(d->bytes, now);
    }
  }
  void run(Micros from, Micros to) {
    for (Micros now = from; now < to; now += 20 * kMillis) {
      exchange(pub, {&gw_a}, now);
      exchange(gw_a, {&pub}, now);
      exchange(gw_b, {&sub}, now, &b_air_bytes);
      exchange(sub, {&gw_b}, now, &b_air_bytes);
      bridge.refresh(now);
      for (auto [link, node] : {std::pair{std::size_t{0}, &gw_a}, std::pair{std::size_t{1}, &gw_b}})
        while (auto d = node->poll_delivery())
          if (!bridge.on_delivery(link, *d, now)) at_host.push_back(std::move(*d));
      while (auto d = sub.poll_delivery()) {
        at_sub.push_back(std::move(*d));
        at_sub_when.push_back(now);
      }
    }
  }
};

std::uint64_t lifetime_ms(Micros now, Micros lifetime) { return to_unix_millis(now + lifetime); }

}  // namespace

TEST(LinkBridge, WhatASubscriberOnTheOtherNetworkWantsCrossesAndNothingElse) {
  TwoNetworks t;
  t.sub.subscribe("tracks", {}, kT0);
  t.run(kT0, kT0 + 5 * kSeconds);  // beacons: the subscriber's interest reaches the gateway
  ASSERT_EQ(t.gw_b.groups_wanted_by_neighbours(), (std::set<std::string>{"tracks"}));
  EXPECT_EQ(t.bridge.carried_from(0), (std::set<std::string>{"tracks"})) << "network A is heard for B's subscriber";
  EXPECT_TRUE(t.bridge.carried_from(1).empty()) << "nobody on A wants anything";

  Micros now = kT0 + 5 * kSeconds;
  for (int i = 0; i < 5; ++i) t.pub.publish(request("tracks", bytes_of(120, static_cast<std::uint8_t>(i)), 5), now);
  t.pub.publish(request("files", bytes_of(20'000, 9), 1), now);
  const std::uint64_t before = t.b_air_bytes;
  t.run(now, now + 20 * kSeconds);
  ASSERT_EQ(t.at_sub.size(), 5u) << "every track reached the other network";
  for (const auto& d : t.at_sub) EXPECT_EQ(d.meta.id.publisher, 1u) << "under its publisher's own id";
  EXPECT_EQ(t.gw_b.stats().messages_carried, 5u);
  EXPECT_TRUE(t.gw_b.list({.group = "files"}).empty()) << "nobody on B wants the file: it never went there";
  EXPECT_TRUE(t.sub.list({.group = "files"}).empty());
  EXPECT_LT(t.b_air_bytes - before, 20'000u) << "B's air never carried the file";
  EXPECT_TRUE(t.at_host.empty()) << "nothing for this host's applications: they subscribe to nothing";
}

TEST(LinkBridge, AMessageTheSlowLinkCouldNotSendBeforeItExpiresIsNotCarried) {
  TwoNetworks t;
  t.sub.subscribe("tracks", {}, kT0);
  t.run(kT0, kT0 + 5 * kSeconds);
  Micros now = kT0 + 5 * kSeconds;
  // 6 KB at 24 kbit/s is 2 s of air: a 1 s lifetime cannot be met; 30 s can.
  t.pub.publish(request("tracks", bytes_of(6'000, 1), 3, lifetime_ms(now, kSeconds)), now);
  t.pub.publish(request("tracks", bytes_of(6'000, 2), 3, lifetime_ms(now, 30 * kSeconds)), now);
  t.run(now, now + 15 * kSeconds);
  EXPECT_EQ(t.bridge.counters().too_late, 1u);
  EXPECT_EQ(t.gw_b.stats().carry_too_late, 1u);
  ASSERT_EQ(t.at_sub.size(), 1u) << "only the one that could arrive in time";
  EXPECT_EQ(t.at_sub[0].payload, bytes_of(6'000, 2));
}

TEST(LinkBridge, UnderMoreLoadThanTheSlowLinkCarriesWhatLeavesStillArrivesInTime) {
  TwoNetworks t;
  t.sub.subscribe("tracks", {}, kT0);
  t.run(kT0, kT0 + 5 * kSeconds);
  // 40 tracks a second of 120 bytes with 5 s to live: twice what 24 kbit/s carries.
  const Micros start = kT0 + 5 * kSeconds;
  int published = 0;
  for (Micros now = start; now < start + 30 * kSeconds; now += 500 * kMillis) {
    for (int i = 0; i < 20; ++i, ++published)
      t.pub.publish(request("tracks", bytes_of(120, static_cast<std::uint8_t>(published)), 5,
                            lifetime_ms(now, 5 * kSeconds)),
                    now);
    t.run(now, now + 500 * kMillis);
  }
  t.run(start + 30 * kSeconds, start + 40 * kSeconds);
  const Micros margin = carried_delivery_margin(t.gw_b.config());
  for (std::size_t i = 0; i < t.at_sub.size(); ++i)
    EXPECT_GE(static_cast<std::int64_t>(t.at_sub[i].meta.expiry_ms) - to_unix_millis(t.at_sub_when[i]),
              margin / kMillis - 20)  // the harness's step
        << "track " << i << " left the gateway with less than a datagram's air time to live";
  EXPECT_LT(t.at_sub.size(), static_cast<std::size_t>(published)) << "the overload was shed at the gateway";
  EXPECT_EQ(t.gw_b.stats().messages_carried + t.bridge.counters().too_late,
            static_cast<std::uint64_t>(t.at_sub.size()) + t.gw_b.stats().carry_too_late)
      << "every track the gateway took either arrived or is counted as never sent";
  // What B carries at 24 kbit/s in 30 s, about 18 tracks a second, arrives: the queue does not settle where
  // everything at its head has expired.
  EXPECT_GT(t.at_sub.size(), 450u) << published << " published";
  // The freshest go first: most of the last batch arrives, which behind a backlog in arrival order would
  // have expired waiting.
  std::size_t last_batch = 0;
  for (const auto& d : t.at_sub)
    if (d.meta.id.seq + 20 > static_cast<std::uint64_t>(published)) ++last_batch;  // seqs count from 0 or 1
  EXPECT_GE(last_batch, 10u);
}

TEST(LinkBridge, ThisHostsApplicationsGetTheOtherNetworksMessagesWithoutTheMainNetworkCarryingThem) {
  TwoNetworks t;
  t.gw_a.subscribe("alerts", {}, kT0);  // this host's application, on the main link
  t.bridge.set_local_groups({"alerts"});
  t.run(kT0, kT0 + 2 * kSeconds);
  EXPECT_EQ(t.bridge.carried_from(1), (std::set<std::string>{"alerts"}));
  Micros now = kT0 + 2 * kSeconds;
  t.sub.publish(request("alerts", bytes_of(300, 4), 7), now);  // published on B
  t.run(now, now + 10 * kSeconds);
  ASSERT_EQ(t.at_host.size(), 1u) << "delivered to the main link's local subscription";
  EXPECT_EQ(t.at_host[0].payload, bytes_of(300, 4));
  EXPECT_EQ(t.gw_a.stats().sent[static_cast<std::size_t>(TrafficKind::Data)].datagrams, 0u)
      << "nobody on A subscribes: it is not sent there";
}

}  // namespace dissem::daemon::link_bridge_test
