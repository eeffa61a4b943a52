// The broadcast medium alone (no engine): loss, pacing, queueing, links,
// latency, the shared channel and trace determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/event_queue.h"
#include "sim/medium.h"

namespace dissem::sim::medium_test {
namespace {

using engine::TrafficKind;

struct Reception {
  std::size_t to;
  std::size_t from;
  std::size_t size;
  Micros at;
};

// A medium with a recorder on its receive side.
struct Bench {
  explicit Bench(std::uint64_t seed = 1, MediumConfig config = {}) : medium(queue, seed, config) {
    medium.set_receive_handler([this](std::size_t to, std::size_t from, std::span<const std::uint8_t> bytes) {
      rx.push_back({to, from, bytes.size(), queue.now()});
    });
  }
  void run() {
    while (queue.run_next()) {
    }
  }
  std::size_t received_by(std::size_t to) const {
    return static_cast<std::size_t>(std::count_if(rx.begin(), rx.end(), [to](const Reception& r) { return r.to == to; }));
  }

  EventQueue queue;
  Medium medium;
  std::vector<Reception> rx;
};

std::vector<std::uint8_t> packet(std::size_t size, std::uint8_t fill = 0xab) {
  return std::vector<std::uint8_t>(size, fill);
}

TEST(EventQueue, OrdersByTimeThenInsertion) {
  EventQueue q;
  std::vector<int> order;
  q.schedule(20, [&] { order.push_back(3); });
  q.schedule(10, [&] { order.push_back(1); });
  q.schedule(10, [&] { order.push_back(2); });
  q.schedule(20, [&] { order.push_back(4); });
  while (q.run_next()) {
  }
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(q.now(), 20);
  EXPECT_THROW(q.schedule(5, [] {}), std::logic_error);
}

TEST(Medium, ConfiguredLossMatchesOverManyPackets) {
  MediumConfig cfg;
  cfg.queue_packets = 25'000;  // offer everything at once
  Bench b(42, cfg);
  b.medium.add_node(1'000'000);
  b.medium.add_node(1'000'000);
  b.medium.set_all_links({.reliability = 0.70});
  constexpr int kPackets = 20'000;
  for (int i = 0; i < kPackets; ++i) ASSERT_TRUE(b.medium.offer(0, packet(100), TrafficKind::Data));
  b.run();
  const double loss = 1.0 - static_cast<double>(b.received_by(1)) / kPackets;
  EXPECT_NEAR(loss, 0.30, 0.02);
  EXPECT_EQ(b.medium.stats().nodes[1].lost.datagrams + b.medium.stats().nodes[1].received.datagrams,
            static_cast<std::uint64_t>(kPackets));
  EXPECT_EQ(b.medium.stats().nodes[1].received.datagrams, b.received_by(1));
}

TEST(Medium, PacesAtTransmitCapacityCountingOverhead) {
  Bench b;
  constexpr std::uint64_t kRate = 256'000;
  b.medium.add_node(kRate);
  b.medium.add_node(kRate);
  constexpr std::size_t kPackets = 40;
  constexpr std::size_t kBytes = 1000;
  for (std::size_t i = 0; i < kPackets; ++i) ASSERT_TRUE(b.medium.offer(0, packet(kBytes), TrafficKind::Data));
  b.run();
  ASSERT_EQ(b.rx.size(), kPackets);
  // (1000 + 28) bytes * 8 / 256 kbit/s = 32.125 ms per datagram.
  const double per_packet_s = static_cast<double>((kBytes + 28) * 8) / kRate;
  const double expected_s = per_packet_s * kPackets;
  EXPECT_NEAR(static_cast<double>(b.rx.back().at) / kSeconds, expected_s, 1e-5);
  for (std::size_t i = 0; i < kPackets; ++i)
    EXPECT_NEAR(static_cast<double>(b.rx[i].at) / kSeconds, per_packet_s * static_cast<double>(i + 1), 1e-5);
  const NodeTraffic& s = b.medium.stats().nodes[0];
  EXPECT_EQ(s.on_air_bytes(), kPackets * kBytes);
  EXPECT_EQ(s.header_bytes, kPackets * 28);
}

TEST(Medium, DuplicatesArriveTwiceWithTheirOwnDelay) {
  Bench b(9);
  b.medium.add_node(1'000'000);
  b.medium.add_node(1'000'000);
  b.medium.set_all_links({.latency = 10 * kMillis, .jitter = 5 * kMillis, .duplicate = 1.0});
  ASSERT_TRUE(b.medium.offer(0, packet(100), TrafficKind::Data));
  b.run();
  ASSERT_EQ(b.rx.size(), 2u);
  EXPECT_EQ(b.medium.stats().nodes[1].received.datagrams, 2u);
  for (const auto& r : b.rx) {
    EXPECT_GE(r.at, b.medium.transmit_time(0, 100) + 10 * kMillis);
    EXPECT_LE(r.at, b.medium.transmit_time(0, 100) + 15 * kMillis);
  }
  EXPECT_THROW(b.medium.set_all_links({.duplicate = 1.5}), std::invalid_argument);
}

TEST(Medium, BurstLossKeepsOneChainPerLink) {
  MediumConfig cfg;
  cfg.queue_packets = 25'000;
  Bench b(4, cfg);
  for (int i = 0; i < 3; ++i) b.medium.add_node(10'000'000);
  // Bad half the time and then losing everything: long-run loss 0.5.
  b.medium.set_all_links({.burst = link::GilbertParams{0.1, 0.1, 1.0}});
  constexpr int kPackets = 20'000;
  for (int i = 0; i < kPackets; ++i) ASSERT_TRUE(b.medium.offer(0, packet(50), TrafficKind::Data));
  b.run();
  // Mean bad run 10 packets: the standard error of the loss over 20,000 is about 0.011.
  for (std::size_t to : {1u, 2u})
    EXPECT_NEAR(static_cast<double>(b.received_by(to)) / kPackets, 0.5, 0.05) << "receiver " << to;
  // Packet i ends its transmission at (i + 1) * tt. Independent chains lose a
  // packet at both receivers a quarter of the time; one chain for both would
  // half of the time.
  std::vector<int> heard(kPackets);
  const Micros tt = b.medium.transmit_time(0, 50);
  for (const auto& r : b.rx) ++heard[static_cast<std::size_t>(r.at / tt - 1)];
  const auto both_lost = std::count(heard.begin(), heard.end(), 0);
  EXPECT_NEAR(static_cast<double>(both_lost) / kPackets, 0.25, 0.05);
  EXPECT_THROW(b.medium.set_all_links({.burst = link::GilbertParams{0.1, 2, 1}}), std::invalid_argument);
}

TEST(Medium, DropTailAtQueueLimit) {
  Bench b;  // default limit: 50 waiting datagrams
  b.medium.add_node(100'000);
  b.medium.add_node(100'000);
  int accepted = 0;
  for (int i = 0; i < 60; ++i) accepted += b.medium.offer(0, packet(500), TrafficKind::Data) ? 1 : 0;
  // The first goes on the air at once; 50 wait; the remaining 9 are dropped.
  EXPECT_EQ(accepted, 51);
  EXPECT_FALSE(b.medium.has_room(0));
  EXPECT_EQ(b.medium.waiting(0), 50u);
  EXPECT_EQ(b.medium.stats().nodes[0].queue_dropped.datagrams, 9u);
  EXPECT_EQ(b.medium.stats().nodes[0].offered.datagrams, 60u);
  b.run();
  EXPECT_EQ(b.received_by(1), 51u);
  EXPECT_TRUE(b.medium.has_room(0));
}

TEST(Medium, RoomHandlerFiresWhenAWaitingDatagramGoesOnTheAir) {
  Bench b;
  b.medium.add_node(100'000);
  b.medium.add_node(100'000);
  std::vector<Micros> room_at;
  b.medium.set_room_handler([&](std::size_t from) {
    EXPECT_EQ(from, 0u);
    room_at.push_back(b.queue.now());
  });
  for (int i = 0; i < 3; ++i) b.medium.offer(0, packet(100), TrafficKind::Data);
  EXPECT_TRUE(room_at.empty());  // never from inside offer()
  b.run();
  const Micros tt = b.medium.transmit_time(0, 100);
  EXPECT_EQ(room_at, (std::vector<Micros>{tt, 2 * tt}));
}

TEST(Medium, DisabledDirectionDeliversNothing) {
  Bench b;
  b.medium.add_node(1'000'000);
  b.medium.add_node(1'000'000);
  b.medium.set_link(0, 1, {.enabled = false});
  for (int i = 0; i < 10; ++i) {
    b.medium.offer(0, packet(200), TrafficKind::Data);
    b.medium.offer(1, packet(200), TrafficKind::Request);
  }
  b.run();
  EXPECT_EQ(b.received_by(1), 0u);
  EXPECT_EQ(b.received_by(0), 10u);
  EXPECT_EQ(b.medium.stats().nodes[1].lost.datagrams, 0u);  // not lost: never reachable
  EXPECT_EQ(b.medium.stats().nodes[0].on_air_bytes(TrafficKind::Data), 2000u);
  EXPECT_EQ(b.medium.stats().nodes[1].on_air_bytes(TrafficKind::Request), 2000u);
}

TEST(Medium, LatencyAndJitterStayWithinBounds) {
  MediumConfig cfg;
  cfg.queue_packets = 5000;
  Bench b(7, cfg);
  b.medium.add_node(10'000'000);
  b.medium.add_node(10'000'000);
  constexpr Micros kLatency = 10 * kMillis;
  constexpr Micros kJitter = 5 * kMillis;
  b.medium.set_all_links({.latency = kLatency, .jitter = kJitter});
  const Micros tt = b.medium.transmit_time(0, 100);
  // Jitter may reorder datagrams, so each carries its send index: datagram k
  // leaves the transmitter at (k + 1) * tt.
  std::vector<Micros> delays;
  b.medium.set_receive_handler([&](std::size_t, std::size_t, std::span<const std::uint8_t> bytes) {
    const Micros end = static_cast<Micros>(bytes[0] + 256 * bytes[1] + 1) * tt;
    delays.push_back(b.queue.now() - end);
  });
  constexpr int kPackets = 2000;
  for (int i = 0; i < kPackets; ++i) {
    auto p = packet(100);
    p[0] = static_cast<std::uint8_t>(i & 0xff);
    p[1] = static_cast<std::uint8_t>(i >> 8);
    b.medium.offer(0, std::move(p), TrafficKind::Data);
  }
  b.run();
  ASSERT_EQ(delays.size(), static_cast<std::size_t>(kPackets));
  const auto [min_it, max_it] = std::minmax_element(delays.begin(), delays.end());
  EXPECT_GE(*min_it, kLatency);
  EXPECT_LE(*max_it, kLatency + kJitter);
  // The whole jitter range is used.
  EXPECT_LT(*min_it, kLatency + kJitter / 10);
  EXPECT_GT(*max_it, kLatency + kJitter * 9 / 10);
}

// Two senders each offer 10 datagrams at t=0; a third node listens.
Micros drain_time_two_senders(bool shared, std::vector<Micros>* arrivals) {
  MediumConfig cfg;
  cfg.shared_channel = shared;
  Bench b(3, cfg);
  for (int i = 0; i < 3; ++i) b.medium.add_node(256'000);
  for (int i = 0; i < 10; ++i) {
    b.medium.offer(0, packet(1000), TrafficKind::Data);
    b.medium.offer(1, packet(1000), TrafficKind::Repair);
  }
  b.run();
  for (const auto& r : b.rx)
    if (r.to == 2) arrivals->push_back(r.at);
  return b.queue.now();
}

TEST(Medium, SharedChannelSerializesSenders) {
  const Micros tt = (1028 * 8 * kSeconds + 255'999) / 256'000;
  std::vector<Micros> separate;
  std::vector<Micros> shared;
  EXPECT_EQ(drain_time_two_senders(false, &separate), 10 * tt);
  EXPECT_EQ(drain_time_two_senders(true, &shared), 20 * tt);
  ASSERT_EQ(shared.size(), 20u);
  // One transmission at a time: the listener hears one datagram per slot.
  for (std::size_t i = 0; i < shared.size(); ++i) EXPECT_EQ(shared[i], static_cast<Micros>(i + 1) * tt);
}

std::uint64_t lossy_trace(std::uint64_t seed) {
  Bench b(seed);
  for (int i = 0; i < 4; ++i) b.medium.add_node(512'000);
  b.medium.set_all_links({.reliability = 0.7, .latency = 2 * kMillis, .jitter = 1 * kMillis});
  for (int i = 0; i < 40; ++i) {
    b.medium.offer(static_cast<std::size_t>(i % 4), packet(300, static_cast<std::uint8_t>(i)), TrafficKind::Data);
  }
  b.run();
  return b.medium.trace_hash();
}

TEST(Medium, TraceHashIsReproducibleAndSeedDependent) {
  EXPECT_EQ(lossy_trace(11), lossy_trace(11));
  EXPECT_NE(lossy_trace(11), lossy_trace(12));
}

}  // namespace
}  // namespace dissem::sim::medium_test

namespace dissem::sim::medium_test {
namespace {

TEST(Medium, LinksApartFromTheDefaultAreKeptPerSender) {
  Bench b(5);
  for (int i = 0; i < 4; ++i) b.medium.add_node(512'000);
  b.medium.set_all_links({.reliability = 1.0, .enabled = false});
  b.medium.set_link(0, 2, {.latency = 3 * kMillis});
  b.medium.set_link(0, 1, {.latency = 5 * kMillis});
  b.medium.set_link(0, 3, {.enabled = false});
  EXPECT_EQ(b.medium.link(0, 1).latency, 5 * kMillis);
  EXPECT_FALSE(b.medium.link(1, 0).enabled) << "a pair never set takes the default";
  EXPECT_FALSE(b.medium.link(0, 3).enabled);
  b.medium.offer(0, packet(100), TrafficKind::Data);
  b.run();
  ASSERT_EQ(b.rx.size(), 2u) << "only the sender's enabled links carry it";
  // set_all_links() replaces every pair, including those set apart.
  b.medium.set_all_links({.reliability = 1.0});
  EXPECT_TRUE(b.medium.link(0, 3).enabled);
  EXPECT_EQ(b.medium.link(0, 1).latency, 0);
  b.medium.offer(0, packet(100), TrafficKind::Data);
  b.run();
  EXPECT_EQ(b.rx.size(), 5u);
}

}  // namespace
}  // namespace dissem::sim::medium_test
