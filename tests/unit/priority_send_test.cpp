// Priority on the air: strict between levels, first come first served within
// one, repairs at their message's level, and the fairness floor's share for
// lower levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "engine/leveled_queue.h"
#include "engine/node.h"
#include "engine/priority_floor.h"
#include "sim/simulation.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace priority_send_test {
namespace {


struct Sent {
  std::uint64_t seq;
  std::uint32_t priority;
  bool repair;
};

// Every data fragment the node sends in `span`, in order, letting its pacer
// and timers advance virtual time.
std::vector<Sent> run(Node& n, Micros from, Micros span) {
  std::vector<Sent> out;
  wire::Decoded d;
  AirReader air;
  for (Micros t = from; t < from + span;) {
    if (t >= n.next_deadline()) n.on_timer(t);
    if (auto g = n.poll_datagram(t)) {
      if (!air.decode(g->bytes, d) && d.kind == wire::Kind::Data)
        out.push_back({d.data.seq(), d.data.priority(), d.data.repair()});
    } else {
      t = std::max(t + 1, std::min(from + span, n.next_deadline()));
    }
  }
  return out;
}

EngineConfig slow(NodeId id, double floor) {
  EngineConfig c = fast_config(id);
  c.link_capacity_bps = 80'000;  // a 1 KB fragment every ~105 ms
  c.priority_floor = floor;
  c.coding = false;              // fragments only: what is counted is what was asked for
  return c;
}

// Publishes 1,000-byte messages in `group`, the i-th at `at(i)`, until the
// group's send budget refuses one (or `max` are taken); returns how many were.
int publish_until_group_full(Node& n, const std::string& group, int max, const std::function<Micros(int)>& at) {
  for (int i = 0; i < max; ++i) {
    try {
      n.publish(request(group, bytes_of(1000, static_cast<std::uint8_t>(i))), at(i));
    } catch (const QueueFull& e) {
      EXPECT_NE(std::string(e.what()).find("group_send_budget_ms"), std::string::npos) << e.what();
      return i;
    }
  }
  return max;
}

}  // namespace

TEST(LeveledQueue, StrictBetweenLevelsFifoWithin) {
  LeveledQueue<int> q;
  q.push(0, 1);
  q.push(5, 2);
  q.push(0, 3);
  q.push(5, 4);
  q.push(2, 5);
  EXPECT_EQ(q.size(), 5u);
  EXPECT_EQ(q.top(), 5u);
  EXPECT_EQ(q.highest_below(5), 2u);
  EXPECT_EQ(q.highest_below(2), 0u);
  EXPECT_EQ(q.highest_below(0), std::nullopt);
  std::vector<int> order;
  q.for_each([&](int v) { order.push_back(v); });
  EXPECT_EQ(order, (std::vector<int>{2, 4, 5, 1, 3}));
  q.erase_if([](int v) { return v == 4 || v == 5; }, [](int) {});
  EXPECT_EQ(q.size(), 3u);
  EXPECT_FALSE(q.has(2)) << "an emptied level goes";
  EXPECT_EQ(q.front(5), 2);
  q.pop_front(5);
  EXPECT_EQ(q.top(), 0u);
}

TEST(PriorityFloor, OwesLowerLevelsTheirShareInTurn) {
  PriorityFloor f(0.25);
  auto below = [](std::uint32_t l) -> std::optional<std::uint32_t> {
    if (l > 5) return 5;
    if (l > 1) return 1;
    return std::nullopt;
  };
  for (int i = 0; i < 4; ++i) {
    EXPECT_FALSE(f.due(1000));
    f.on_sent(false, 9, 1000, true);
  }
  ASSERT_TRUE(f.due(1000));
  EXPECT_EQ(f.turn(9, below), 5u);
  f.on_sent(true, 5, 1000, true);
  for (int i = 0; i < 4; ++i) f.on_sent(false, 9, 1000, true);
  EXPECT_EQ(f.turn(9, below), 1u) << "the next level down takes its turn";
  f.on_sent(true, 1, 1000, true);
  for (int i = 0; i < 4; ++i) f.on_sent(false, 9, 1000, true);
  EXPECT_EQ(f.turn(9, below), 5u) << "and round again";
  f.on_sent(false, 9, 1000, false);
  EXPECT_FALSE(f.due(1000)) << "no credit banked while nothing lower waits";
  PriorityFloor strict(0);
  for (int i = 0; i < 100; ++i) strict.on_sent(false, 9, 1000, true);
  EXPECT_FALSE(strict.due(1));
}

TEST(PrioritySend, AHighPriorityMessageOvertakesAQueuedBacklog) {
  // The report: a priority-9 message behind 50 KB of priority-0 data
  // arrived last. Now it goes next.
  Node n(slow(1, 0.0), cache::Store::open(":memory:"), kT0);
  for (int i = 0; i < 50; ++i) n.publish(request("g", bytes_of(1000, static_cast<std::uint8_t>(i))), kT0);
  const auto urgent = n.publish(request("g", bytes_of(1000, 99), 9), kT0 + 1);
  const auto sent = run(n, kT0 + 1, 10 * kSeconds);
  ASSERT_FALSE(sent.empty());
  const auto at = std::find_if(sent.begin(), sent.end(), [&](const Sent& s) { return s.seq == urgent.seq; });
  ASSERT_NE(at, sent.end());
  EXPECT_LE(at - sent.begin(), 1) << "at most the fragment already on its way goes before it";
  // The rest keep their publication order.
  std::vector<std::uint64_t> rest;
  for (const auto& s : sent)
    if (s.seq != urgent.seq) rest.push_back(s.seq);
  EXPECT_TRUE(std::is_sorted(rest.begin(), rest.end()));
}

TEST(PrioritySend, TheFloorKeepsALowLevelMovingUnderASaturatingHighOne) {
  for (const double floor : {0.0, 0.2}) {
    Node n(slow(1, floor), cache::Store::open(":memory:"), kT0);
    for (int i = 0; i < 40; ++i) n.publish(request("low", bytes_of(1000, static_cast<std::uint8_t>(i)), 1), kT0);
    for (int i = 0; i < 40; ++i) n.publish(request("high", bytes_of(1000, static_cast<std::uint8_t>(i)), 7), kT0);
    const auto sent = run(n, kT0, 3 * kSeconds);  // ~28 datagrams: fewer than the high level holds
    const auto low = std::count_if(sent.begin(), sent.end(), [](const Sent& s) { return s.priority == 1; });
    if (floor == 0.0) {
      EXPECT_EQ(low, 0) << "strict priority";
    } else {
      const double share = static_cast<double>(low) / static_cast<double>(sent.size());
      EXPECT_GT(share, 0.12) << low << " of " << sent.size();
      EXPECT_LT(share, 0.25) << low << " of " << sent.size();
    }
  }
}

TEST(PrioritySend, RepairsGoAtTheirMessagesPriority) {
  Node n(slow(1, 0.0), cache::Store::open(":memory:"), kT0);
  const auto low = n.publish(request("g", bytes_of(1000, 1), 0), kT0);
  const auto high = n.publish(request("h", bytes_of(1000, 2), 5), kT0);
  run(n, kT0, 1 * kSeconds);  // both first passes done
  // Requests for both; meanwhile a backlog of priority-3 publications.
  for (int i = 0; i < 20; ++i) n.publish(request("mid", bytes_of(1000, static_cast<std::uint8_t>(i)), 3), kT0 + kSeconds);
  for (const auto& id : {low, high}) {
    wire::MissingFragmentRequest r;
    r.set_requester(77);
    auto* w = r.add_wants();
    w->set_group(id.group);
    w->set_publisher(id.publisher);
    w->add_messages()->set_seq(id.seq);
    n.on_datagram(wire::encode(r), kT0 + kSeconds);
  }
  const auto sent = run(n, kT0 + kSeconds, 5 * kSeconds);
  auto index_of = [&](std::uint32_t priority, bool repair) {
    return std::find_if(sent.begin(), sent.end(),
                        [&](const Sent& s) { return s.priority == priority && s.repair == repair; }) -
           sent.begin();
  };
  const auto high_repair = index_of(5, true);
  const auto low_repair = index_of(0, true);
  ASSERT_EQ(sent.size(), 22u) << "20 publications and 2 repairs";
  // Answers wait their random serving delay (a few fragment times here):
  // once due, the priority-5 one overtakes the priority-3 backlog...
  EXPECT_LT(high_repair, 5) << "not behind the backlog";
  // ... and the priority-0 one waits for all of it.
  EXPECT_EQ(low_repair, 21);
}

TEST(FlowControl, WhatThePacerStillOwesForALargeBundleCountsAgainstTheGroupsBudget) {
  // Loopback's payload: small messages leave the queue into one large
  // bundle at once, and the pacer then owes seconds of link time for it.
  // Issue 29: the group budget counted only the queue, so it never filled.
  EngineConfig c = fast_config(1);
  c.link_capacity_bps = 40'000;  // 5 KB a second
  c.payload_size = 65'000;
  c.group_send_budget = 1 * kSeconds;  // 5 KB of link time
  c.bundle_delay = 20 * kMillis;
  Node n(c, cache::Store::open(":memory:"), kT0);
  // One a millisecond, the node sending what its pacer allows in between.
  const int taken = publish_until_group_full(n, "bulk", 40, [&](int i) {
    if (i > 0) run(n, kT0 + (i - 1) * kMillis, kMillis);
    return kT0 + i * kMillis;
  });
  const Micros t = kT0 + taken * kMillis;
  EXPECT_LE(taken, 8) << "5 KB of link time, not the 40 messages the link takes 8 s to carry";
  // Once the pacer's debt is paid off, there is room again.
  run(n, t, 12 * kSeconds);
  EXPECT_NO_THROW(n.publish(request("bulk", bytes_of(1000, 99)), t + 12 * kSeconds));
}

TEST(FlowControl, TheSendBudgetRefusesWhatTheLinkCannotCarrySoonAndFreesAsItDrains) {
  EngineConfig c = slow(1, 0.0);  // 80 kbit/s: 10 KB a second
  c.send_budget = 2 * kSeconds;   // 20 KB of link time
  c.group_send_budget = 1 * kSeconds;
  Node n(c, cache::Store::open(":memory:"), kT0);
  const int taken = publish_until_group_full(n, "a", 30, [](int) { return kT0; });
  EXPECT_EQ(taken, 10) << "10 KB: one second of the link, the group's budget";
  for (int i = 0; i < 10; ++i) n.publish(request("b", bytes_of(1000, static_cast<std::uint8_t>(i))), kT0);
  EXPECT_THROW(n.publish(request("c", bytes_of(1000, 1)), kT0), QueueFull) << "20 KB overall";
  EXPECT_EQ(n.stats().publish_queue_full, 2u);
  EXPECT_NO_THROW(n.cancel(CancelRequest{"a", {1}, "", 0}, kT0)) << "a cancel is never refused for room";
  // A replacement in a full group is taken when it ends what it adds.
  PublishRequest tagged = request("b", bytes_of(1000, 50));
  tagged.tag = "t";
  EXPECT_THROW(n.publish(tagged, kT0), QueueFull);
  Node rep(c, cache::Store::open(":memory:"), kT0);
  PublishRequest position = request("a", bytes_of(1000, 1));
  position.tag = "pos";
  rep.publish(position, kT0);
  for (int i = 0; i < 9; ++i) rep.publish(request("a", bytes_of(1000, static_cast<std::uint8_t>(i))), kT0);
  EXPECT_THROW(rep.publish(request("a", bytes_of(1000, 99)), kT0), QueueFull) << "the group's 10 KB are full";
  position.replace = true;
  EXPECT_NO_THROW(rep.publish(position, kT0)) << "it ends the queued position update it would add to";
  run(n, kT0, 1500 * kMillis);  // the link drains ~15 KB
  EXPECT_NO_THROW(n.publish(request("c", bytes_of(1000, 1)), kT0 + 1500 * kMillis));
  // A message larger than a budget goes when nothing of that budget waits.
  Node big(c, cache::Store::open(":memory:"), kT0);
  EXPECT_NO_THROW(big.publish(request("a", bytes_of(50'000, 1)), kT0));
  EXPECT_THROW(big.publish(request("a", bytes_of(10, 1)), kT0), QueueFull);
}

}  // namespace priority_send_test
