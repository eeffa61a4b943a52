// No amplification (engine/serve_budget.h, node_request_budget.cpp, peers.h):
// a flood of requests, from one node or from invented ids, makes a holder
// send no more than its serving budget; ids heard once (invented requesters,
// phantom beacons) neither slow the members' answers nor get a member's
// budget; a legitimate request within budget is answered in full.
#include <gtest/gtest.h>

#include <optional>

#include "engine/node.h"
#include "engine/repair/serve_budget.h"
#include "sim/simulation.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace hostile_requests_test {
namespace {

constexpr std::uint64_t kCapacity = 1'000'000;  // bit/s

std::vector<std::uint8_t> whole_request(NodeId requester, NodeId publisher, std::uint64_t first, std::uint64_t last) {
  wire::MissingFragmentRequest r;
  r.set_requester(requester);
  auto* w = r.add_wants();
  w->set_group("g");
  w->set_publisher(publisher);
  for (std::uint64_t q = first; q <= last; ++q) w->add_messages()->set_seq(q);
  return wire::encode(r);
}

std::vector<std::uint8_t> range_request(NodeId requester, NodeId publisher, std::uint64_t seq, std::uint32_t begin,
                                        std::uint32_t end) {
  wire::MissingFragmentRequest r;
  r.set_requester(requester);
  auto* w = r.add_wants();
  w->set_group("g");
  w->set_publisher(publisher);
  auto* m = w->add_messages();
  m->set_seq(seq);
  m->add_ranges(begin);
  m->add_ranges(end);
  return wire::encode(r);
}

std::vector<std::uint8_t> beacon(NodeId from, std::uint32_t seq) {
  wire::Beacon b;
  b.set_node(from);
  b.set_sent_us(1);
  b.set_seq(seq);
  return wire::encode(b);
}

EngineConfig paced_config(NodeId id) {
  EngineConfig c;
  c.node_id = id;
  c.link_capacity_bps = kCapacity;
  c.coding = false;  // plain fragments: the bytes asked for are the bytes sent
  return c;
}

// A publisher holding `messages` messages of 20,000 B, its first pass done.
struct Holder {
  Node node;
  Micros now = kT0;
  explicit Holder(const EngineConfig& c, int messages) : node(c, cache::Store::open(":memory:"), kT0) {
    for (int m = 0; m < messages; ++m) node.publish(request("g", bytes_of(20'000, static_cast<std::uint8_t>(m))), now);
    run_for(30 * kSeconds);  // the first pass goes out (about 1.3 s of air per 160 kB)
  }
  // Runs the node for `span`, returning the repair bytes it sent.
  std::uint64_t run_for(Micros span, const std::function<void(Micros)>& every_3ms = {}) {
    const std::uint64_t before = repair_bytes();
    const Micros end = now + span;
    Micros next_input = now;
    while (now < end) {
      if (every_3ms && now >= next_input) {
        every_3ms(now);
        next_input += 3333;  // 300 per second
      }
      if (now >= node.next_deadline()) node.on_timer(now);
      while (node.poll_datagram(now)) {
      }
      Micros next = std::min({end, node.next_deadline(), every_3ms ? next_input : end});
      now = std::max(now + 1, next);
    }
    return repair_bytes() - before;
  }
  std::uint64_t repair_bytes() const {
    return node.stats().sent[static_cast<std::size_t>(TrafficKind::Repair)].bytes;
  }
};

}  // namespace

TEST(ServeBudget, MembersHaveTheirOwnBucketAndStrangersShareOne) {
  ServeBudget b({8000.0, 800.0, 2 * kSeconds, 2});  // 1,000 B/s per member, 100 B/s for all strangers
  EXPECT_EQ(b.available(1, true, 0), 2000u) << "a new member starts with a full bucket (2 s of its rate)";
  b.charge(1, true, 1500, 0);
  EXPECT_EQ(b.available(1, true, 0), 500u);
  EXPECT_EQ(b.available(1, true, kSeconds / 2), 1000u) << "refilled at 1,000 B/s";
  EXPECT_EQ(b.available(1, true, 100 * kSeconds), 2000u) << "never beyond its depth";
  EXPECT_EQ(b.available(2, true, 0), 2000u) << "another member is not charged for the first";
  EXPECT_EQ(b.available(77, false, 0), 200u);
  b.charge(77, false, 200, 0);
  EXPECT_EQ(b.available(78, false, 0), 0u) << "a new invented id draws on the same strangers' bucket";
  EXPECT_EQ(b.available(3, true, 0), 0u) << "members beyond max_members share the strangers' bucket";
  b.forget(1);
  EXPECT_EQ(b.tracked(), 1u);
}

TEST(ServeBudget, ABucketHoldsAtLeastOneAnswerDatagramWhateverTheLinksSpeed) {
  // At 75 bit/s: 4 s of half the link is 18 B for a member, of a tenth 3 B
  // for strangers, less than any answer. The floor (one full fragment and
  // its headers) lets one answer through; the refill rate still sets how often.
  ServeBudget b({37.5, 7.5, 4 * kSeconds, 8, 1464});
  EXPECT_EQ(b.available(1, true, 0), 1464u);
  EXPECT_EQ(b.available(9, false, 0), 1464u);
  b.charge(1, true, 1464, 0);
  EXPECT_EQ(b.available(1, true, 10 * kSeconds), 46u) << "refilled at 37.5 bit/s: 46 B in 10 s";
  EXPECT_EQ(b.available(1, true, 3600 * kSeconds), 1464u) << "never beyond the floor";
  ServeBudget fast({8e6, 8e5, 4 * kSeconds, 8, 1464});
  EXPECT_EQ(fast.available(1, true, 0), 4'000'000u) << "where the link's share is deeper, the floor does nothing";
}

TEST(HostileRequests, AFloodFromInventedIdsCostsNoMoreThanTheStrangersBudget) {
  EngineConfig c = paced_config(1);
  Holder h(c, 10);
  std::uint64_t request_bytes = 0;
  NodeId invented = 0x5000;
  const Micros span = 10 * kSeconds;
  const std::uint64_t sent = h.run_for(span, [&](Micros now) {
    const auto r = whole_request(++invented, 1, 1, 10);
    request_bytes += r.size();
    h.node.on_datagram(r, now);
  });
  // Budget: 0.1 x 1 Mbit/s for 10 s, plus the 4 s burst, plus one fragment of slack.
  const double budget = c.serve_stranger_share * kCapacity / 8 * (10 + 4) + 1500;
  std::printf("request flood, invented ids: %llu request bytes -> %llu repair bytes (%.1f per request byte, budget %.0f)\n",
              static_cast<unsigned long long>(request_bytes), static_cast<unsigned long long>(sent),
              static_cast<double>(sent) / static_cast<double>(request_bytes), budget);
  EXPECT_GT(sent, 0u) << "strangers are still served, within their budget";
  EXPECT_LE(static_cast<double>(sent), budget);
  EXPECT_GT(h.node.stats().requests_trimmed, 0u);
  EXPECT_GT(h.node.stats().request_bytes_trimmed, 0u);
}

TEST(HostileRequests, AFloodFromOneMemberCostsNoMoreThanAMembersBudget) {
  EngineConfig c = paced_config(1);
  c.serve_member_share = 0.2;
  Holder h(c, 10);
  h.node.on_datagram(beacon(9, 1), h.now);
  h.node.on_datagram(beacon(9, 2), h.now);  // node 9 is an established neighbour
  std::uint32_t beacon_seq = 2;
  Micros next_beacon = h.now + kSeconds;
  const std::uint64_t sent = h.run_for(10 * kSeconds, [&](Micros now) {
    if (now >= next_beacon) {  // it keeps beaconing, as a member does
      h.node.on_datagram(beacon(9, ++beacon_seq), now);
      next_beacon += kSeconds;
    }
    h.node.on_datagram(whole_request(9, 1, 1, 10), now);
  });
  const double budget = c.serve_member_share * kCapacity / 8 * (10 + 4) + 1500;
  std::printf("request flood, one member: %llu repair bytes in 10 s (budget %.0f)\n",
              static_cast<unsigned long long>(sent), budget);
  EXPECT_LE(static_cast<double>(sent), budget);
  EXPECT_GT(static_cast<double>(sent), c.serve_stranger_share * kCapacity / 8 * 14)
      << "a member's budget is its own, above the strangers'";
}

TEST(HostileRequests, ALegitimateRequestWithinBudgetIsAnsweredInFull) {
  Holder h(paced_config(1), 1);
  h.node.on_datagram(beacon(9, 1), h.now);
  h.node.on_datagram(beacon(9, 2), h.now);
  h.node.on_datagram(range_request(9, 1, 1, 0, 20'000), h.now);
  const std::uint64_t sent = h.run_for(2 * kSeconds);
  EXPECT_GE(sent, 20'000u) << "the whole message went out again";
  EXPECT_EQ(h.node.stats().requests_trimmed, 0u);
  EXPECT_EQ(h.node.stats().request_bytes_trimmed, 0u);
}

TEST(HostileRequests, PhantomNeighboursDoNotDelayTheMembersAnswers) {
  Holder h(paced_config(1), 1);
  h.node.on_datagram(beacon(9, 1), h.now);
  h.node.on_datagram(beacon(9, 2), h.now);
  // 1,000 invented neighbours, one beacon each (the table holds them all).
  for (NodeId id = 0x7000; id < 0x7000 + 1000; ++id) h.node.on_datagram(beacon(id, 1), h.now);
  h.node.on_datagram(range_request(9, 1, 1, 0, 1000), h.now);
  const Micros asked = h.now;
  Micros answered = 0;
  for (Micros end = h.now + 5 * kSeconds; h.now < end && answered == 0;) {
    if (h.now >= h.node.next_deadline()) h.node.on_timer(h.now);
    while (auto d = h.node.poll_datagram(h.now))
      if (d->kind == TrafficKind::Repair && answered == 0) answered = h.now;
    h.now = std::max(h.now + 1, std::min(end, h.node.next_deadline()));
  }
  ASSERT_GT(answered, 0) << "no answer within 5 s";
  std::printf("answer after %.1f ms beside 1,000 phantom neighbours\n", static_cast<double>(answered - asked) / 1000.0);
  EXPECT_LT(answered - asked, 200 * kMillis) << "serving timers scale with established neighbours only";
}

namespace {

// When a receiver that lost one fragment of a message first asks for it,
// while `flooder` (0: a new invented id each time) asks for the whole
// message every 3 ms; nothing if it never asked within 5 s.
std::optional<Micros> own_request_under_flood(NodeId flooder) {
  Node pub(paced_config(1), cache::Store::open(":memory:"), kT0);
  Node rx(paced_config(2), cache::Store::open(":memory:"), kT0);
  rx.subscribe("g", {}, kT0);
  Micros now = kT0;
  if (flooder != 0) {
    rx.on_datagram(beacon(flooder, 1), now);
    rx.on_datagram(beacon(flooder, 2), now);
  }
  // The flood starts before the loss is noticed.
  rx.on_datagram(whole_request(flooder != 0 ? flooder : 0x8fff, 1, 1, 1), now);
  pub.publish(request("g", bytes_of(5'000, 1)), now);
  int fragment = 0;
  for (const auto& d : drain(pub, now))
    if ((d[0] & 0x0f) != 1 || fragment++ != 1) rx.on_datagram(d, now);  // the second fragment is lost
  NodeId invented = 0x9000;
  for (const Micros end = now + 5 * kSeconds; now < end; now += 3333) {
    rx.on_datagram(whole_request(flooder != 0 ? flooder : ++invented, 1, 1, 1), now);
    if (now >= rx.next_deadline()) rx.on_timer(now);
    while (auto d = rx.poll_datagram(now))
      if (d->kind == TrafficKind::Request) return now - kT0;
  }
  return std::nullopt;
}

}  // namespace

TEST(HostileRequests, AStreamOfRequestsNobodyAnswersDoesNotSilenceAMembersOwn) {
  // Another member's request for what we miss holds ours back (its answer
  // will reach us too), but only once per request of ours: invented ids do
  // not hold it back at all, and a member asking without end only once.
  const auto invented = own_request_under_flood(0);
  const auto member = own_request_under_flood(9);
  ASSERT_TRUE(invented) << "never asked beside invented requesters";
  ASSERT_TRUE(member) << "never asked beside a member's endless requests";
  std::printf("own request after %.0f ms (flood from invented ids), %.0f ms (flood from a member)\n",
              static_cast<double>(*invented) / 1000.0, static_cast<double>(*member) / 1000.0);
  EXPECT_LT(*invented, 50 * kMillis) << "invented requesters hold nothing back";
  EXPECT_LT(*member, kSeconds) << "held back once, then asked";
}

}  // namespace hostile_requests_test
