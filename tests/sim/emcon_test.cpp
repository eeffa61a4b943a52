// Radio silence (EMCON) in virtual time (issue 32, section 5): silent
// receivers send nothing at all, decode what the publisher's proactive
// redundancy lets them, and fetch the rest by ordinary requests once
// silence ends. A silent subscription keeps one group off the air.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <vector>

#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace emcon_test {
namespace {

constexpr std::uint64_t kCapacity = 1'048'576;
constexpr std::size_t kMessages = 20;
constexpr std::size_t kMessageBytes = 1'048'576 / kMessages;

struct Emcon {
  double silent_receivers_loss = 0.1;  // the publisher's engine.silent_receivers_loss
  double reliability = 0.9;
  Micros silence_ends = -1;  // never, if negative
  Micros limit = 60 * kSeconds;
};

struct Outcome {
  std::vector<std::size_t> delivered;           // per silent receiver, by the limit
  std::vector<std::size_t> delivered_in_silence;
  std::vector<std::uint64_t> sent_in_silence;  // datagrams each silent receiver handed its radio
  std::uint64_t air_bytes_in_silence = 0;      // UDP payload every node put on the air
};

Outcome run(const Emcon& p, std::uint64_t seed) {
  Simulation sim(seed);
  engine::EngineConfig pub;
  pub.link_capacity_bps = kCapacity;
  pub.silent_receivers_loss = p.silent_receivers_loss;
  engine::EngineConfig quiet = pub;
  quiet.silent_receivers_loss = 0;
  quiet.silent = true;
  const std::size_t a = sim.add_node(pub, kCapacity);
  const std::vector<std::size_t> receivers{sim.add_node(quiet, kCapacity), sim.add_node(quiet, kCapacity)};
  sim.set_all_links(LinkParams{p.reliability, 2 * kMillis, 0, true});
  for (std::size_t r : receivers) sim.subscribe(r, "orders");
  for (std::size_t i = 0; i < kMessages; ++i) {
    sim.at(100 * kMillis + static_cast<Micros>(i) * 400 * kMillis, [a, i](Simulation& s) {
      engine::PublishRequest req;
      req.group = "orders";
      req.payload = std::vector<std::uint8_t>(kMessageBytes, static_cast<std::uint8_t>(i));
      s.publish(a, req);
    });
  }
  Outcome out;
  const Micros silence_until = p.silence_ends >= 0 ? p.silence_ends : p.limit;
  sim.run_until(silence_until);
  for (std::size_t r : receivers) {
    out.delivered_in_silence.push_back(sim.deliveries(r).size());
    out.sent_in_silence.push_back(sim.medium().nodes[r].offered.datagrams);
  }
  out.air_bytes_in_silence = sim.medium().total.on_air_bytes() + sim.medium().total.header_bytes;
  if (p.silence_ends >= 0) {
    for (std::size_t r : receivers) sim.with_node(r, [](engine::Node& n, Micros now) { n.set_silent(false, now); });
    sim.run_until(p.limit);
  }
  for (std::size_t r : receivers) out.delivered.push_back(sim.deliveries(r).size());
  return out;
}

std::size_t total(const std::vector<std::size_t>& v) {
  std::size_t n = 0;
  for (auto x : v) n += x;
  return n;
}

}  // namespace

TEST(Emcon, SilentReceiversSendNothingAndDecodeFromTheProactiveRedundancy) {
  // 1 MB in 20 messages to two silent receivers at 10 % loss: the issue's
  // emulator case, here in virtual time.
  std::size_t delivered = 0, possible = 0;
  double worst_air = 0;
  for (std::uint64_t seed : {1, 2, 3}) {
    const Outcome o = run(Emcon{}, seed);
    for (auto sent : o.sent_in_silence) EXPECT_EQ(sent, 0u) << "a silent node handed its radio a datagram";
    delivered += total(o.delivered_in_silence);
    possible += 2 * kMessages;
    const double air = static_cast<double>(o.air_bytes_in_silence) / (kMessages * kMessageBytes);
    worst_air = std::max(worst_air, air);
    std::printf("EMCON, 2 silent receivers, 90 %% links, seed %llu: delivered %zu + %zu of %zu, air %.3fx payload\n",
                static_cast<unsigned long long>(seed), o.delivered_in_silence[0], o.delivered_in_silence[1], kMessages,
                air);
  }
  std::printf("EMCON over 3 seeds: %.2f %% delivered during silence, worst air %.3fx payload\n",
              100.0 * static_cast<double>(delivered) / static_cast<double>(possible), worst_air);
  EXPECT_GE(delivered, possible - 1) << "the silent receivers' floor must carry nearly every message";
}

TEST(Emcon, WithoutTheSilentFloorTheSameReceiversMissMostMessages) {
  // The publisher hears no report from silent receivers: without
  // engine.silent_receivers_loss it sends no proactive redundancy at all.
  Emcon p;
  p.silent_receivers_loss = 0;
  const Outcome o = run(p, 1);
  for (auto sent : o.sent_in_silence) EXPECT_EQ(sent, 0u);
  std::printf("EMCON without the floor: delivered %zu + %zu of %zu\n", o.delivered_in_silence[0],
              o.delivered_in_silence[1], kMessages);
  EXPECT_LT(total(o.delivered_in_silence), kMessages) << "at 10 % loss a 51-fragment message rarely arrives whole";
}

TEST(Emcon, WhenSilenceEndsOrdinaryRequestsFetchTheRest) {
  Emcon p;
  p.silent_receivers_loss = 0;  // nothing decodes in silence: requests must do it all
  p.silence_ends = 20 * kSeconds;
  p.limit = 60 * kSeconds;
  const Outcome o = run(p, 2);
  for (auto sent : o.sent_in_silence) EXPECT_EQ(sent, 0u);
  for (std::size_t i = 0; i < o.delivered.size(); ++i) {
    EXPECT_LT(o.delivered_in_silence[i], kMessages);
    EXPECT_EQ(o.delivered[i], kMessages) << "receiver " << i << " after silence ended";
  }
}

TEST(Emcon, ASilentSubscriptionNeverAsksAndItsNodeStillServes) {
  Simulation sim(4);
  engine::EngineConfig c;
  c.link_capacity_bps = kCapacity;
  const std::size_t a = sim.add_node(c, kCapacity);
  const std::size_t aloud = sim.add_node(c, kCapacity);
  const std::size_t quiet = sim.add_node(c, kCapacity);
  sim.set_all_links(LinkParams{0.8, 2 * kMillis, 0, true});
  sim.subscribe(aloud, "orders");
  engine::SubscriptionOptions silent;
  silent.silent = true;
  sim.subscribe(quiet, "orders", silent);
  for (std::size_t i = 0; i < 5; ++i) {
    sim.at(100 * kMillis + static_cast<Micros>(i) * 200 * kMillis, [a, i](Simulation& s) {
      engine::PublishRequest req;
      req.group = "orders";
      req.payload = std::vector<std::uint8_t>(20'000, static_cast<std::uint8_t>(i));
      s.publish(a, req);
    });
  }
  sim.run_until(30 * kSeconds);
  EXPECT_EQ(sim.node(quiet).stats().mfrs_sent, 0u) << "a silent subscription made its node ask";
  EXPECT_GT(sim.node(aloud).stats().mfrs_sent, 0u);
  EXPECT_GT(sim.node(quiet).stats().sent[static_cast<std::size_t>(engine::TrafficKind::Beacon)].datagrams, 0u)
      << "the node itself is not silent";
  EXPECT_EQ(sim.deliveries(aloud).size(), 5u);
}

TEST(Emcon, ASilentPublisherHoldsItsPublicationsUntilSilenceEnds) {
  Simulation sim(5);
  engine::EngineConfig c;
  c.link_capacity_bps = kCapacity;
  engine::EngineConfig silent = c;
  silent.silent = true;
  const std::size_t a = sim.add_node(silent, kCapacity);
  const std::size_t b = sim.add_node(c, kCapacity);
  sim.set_all_links(LinkParams{1.0, 2 * kMillis, 0, true});
  sim.subscribe(b, "orders");
  sim.at(100 * kMillis, [a](Simulation& s) {
    engine::PublishRequest req;
    req.group = "orders";
    req.payload = std::vector<std::uint8_t>(5'000, 7);
    s.publish(a, req);
  });
  sim.run_until(10 * kSeconds);
  EXPECT_EQ(sim.medium().nodes[a].offered.datagrams, 0u);
  EXPECT_TRUE(sim.deliveries(b).empty());
  EXPECT_TRUE(sim.node(a).silent());
  sim.with_node(a, [](engine::Node& n, Micros now) { n.set_silent(false, now); });
  sim.run_until(15 * kSeconds);
  EXPECT_EQ(sim.deliveries(b).size(), 1u);
  EXPECT_GT(sim.medium().nodes[a].offered.datagrams, 0u);
}

}  // namespace emcon_test
