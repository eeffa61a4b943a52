// Repairs on the slowest HF link (75 bit/s), with loss: a receiver that
// missed tracks asks for them and gets them. The serving budget's bucket is
// never shallower than one answer datagram (repair/serve_budget.h); at 75
// bit/s, 4 s of the member share is 18 bytes, and without that floor no
// answer could ever be paid for.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace hf_repairs_test {
namespace {

constexpr std::uint64_t kHfBps = 75;
constexpr std::size_t kTracks = 6;

}  // namespace

TEST(HfRepairs, AReceiverMissingTracksAt75bpsGetsThemRepaired) {
  std::uint64_t repairs = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Simulation sim(seed);
    engine::EngineConfig c;
    c.link_capacity_bps = kHfBps;
    c.payload_size = 256;  // an HF frame
    const std::size_t pub = sim.add_node(c, kHfBps);
    const std::size_t sub = sim.add_node(c, kHfBps);
    sim.set_link(pub, sub, LinkParams{0.7, 50 * kMillis, 0, true});  // 30 % loss toward the receiver
    sim.set_link(sub, pub, LinkParams{1.0, 50 * kMillis, 0, true});
    // With history: a stream's first message is wanted even when the first heard is a later one.
    engine::SubscriptionOptions everything;
    everything.history = kTracks;
    sim.subscribe(sub, "tracks", everything);
    // Tracks of 40 bytes, one a minute from the first beacons on (each about 12 s on the air).
    for (std::size_t i = 0; i < kTracks; ++i) {
      sim.at(static_cast<Micros>(600 + 60 * i) * kSeconds, [pub, i](Simulation& s) {
        engine::PublishRequest r;
        r.group = "tracks";
        r.payload = std::vector<std::uint8_t>(40, static_cast<std::uint8_t>(i));
        s.publish(pub, r);
      });
    }
    const Micros limit = 4 * 3600 * kSeconds;
    sim.run_until([&](const Simulation& s) { return s.deliveries(sub).size() >= kTracks; }, limit);
    const auto& st = sim.node(pub).stats();
    std::printf("seed %llu: %zu of %zu tracks by %.0f min; the publisher queued %llu repairs, trimmed %llu requests\n",
                static_cast<unsigned long long>(seed), sim.deliveries(sub).size(), kTracks,
                static_cast<double>(sim.now()) / 60e6, static_cast<unsigned long long>(st.repairs_queued),
                static_cast<unsigned long long>(st.requests_trimmed));
    EXPECT_EQ(sim.deliveries(sub).size(), kTracks) << "seed " << seed;
    repairs += st.repairs_queued;
  }
  EXPECT_GT(repairs, 0u) << "30 % loss must have cost some first-pass copies";
}

}  // namespace hf_repairs_test
