// Disconnection tolerance (issue 14), in virtual time: a link that goes
// away for half a minute and comes back. Data with a lifetime that ended
// during the outage is never requested or delivered; data without one
// waits and arrives; and the requests after the link returns stay within
// the control share, not a burst of everything missed during the outage.
#include <gtest/gtest.h>

#include <cstdio>

#include "engine/link_timers.h"
#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace disconnection_test {
namespace {

constexpr std::uint64_t kCapacity = 64'000;
constexpr Micros kDown = 30 * kSeconds;
constexpr Micros kUp = 60 * kSeconds;
constexpr std::uint32_t kLifetimeMs = 5'000;

engine::EngineConfig config() {
  engine::EngineConfig c;
  c.link_capacity_bps = kCapacity;
  return c;
}

void set_both(Simulation& s, bool enabled) {
  s.set_link(0, 1, LinkParams{0.95, 20 * kMillis, 5 * kMillis, enabled});
  s.set_link(1, 0, LinkParams{0.95, 20 * kMillis, 5 * kMillis, enabled});
}

std::uint64_t request_bytes(const Simulation& s, std::size_t node) {
  return s.node(node).stats().sent[static_cast<std::size_t>(engine::TrafficKind::Request)].bytes;
}

}  // namespace

TEST(Disconnection, AfterAnOutageExpiredDataIsGoneLastingDataArrivesAndRequestsStayWithinTheirShare) {
  Simulation sim(17);
  sim.add_node(config(), kCapacity);
  sim.add_node(config(), kCapacity);
  set_both(sim, true);
  sim.subscribe(1, "live");
  sim.subscribe(1, "log");
  // One 400-byte update and one 400-byte log entry a second from t = 5 s to 100 s;
  // the updates live 5 s.
  for (Micros t = 5 * kSeconds; t < 100 * kSeconds; t += kSeconds) {
    sim.at(t, [](Simulation& s) {
      engine::PublishRequest live;
      live.group = "live";
      live.payload.assign(400, 1);
      live.lifetime_ms = kLifetimeMs;
      s.publish(0, live);
      engine::PublishRequest log;
      log.group = "log";
      log.payload.assign(400, 2);
      s.publish(0, log);
    });
  }
  sim.at(kDown, [](Simulation& s) { set_both(s, false); });
  sim.at(kUp, [](Simulation& s) { set_both(s, true); });
  std::uint64_t requests_at_up = 0;
  sim.at(kUp, [&](Simulation& s) { requests_at_up = request_bytes(s, 1); });
  std::uint64_t requests_after = 0;
  sim.at(kUp + 10 * kSeconds, [&](Simulation& s) { requests_after = request_bytes(s, 1) - requests_at_up; });
  sim.run_until(160 * kSeconds);

  std::size_t live = 0;
  std::size_t log = 0;
  for (const auto& r : sim.deliveries(1)) {
    const auto& m = r.delivery.meta;
    if (m.id.group == "log") {
      ++log;
      continue;
    }
    ++live;
    // Never after its expiry, and never one whose life ended while the link was down.
    EXPECT_LT(kSimEpoch + r.received_at, static_cast<Micros>(m.expiry_ms) * kMillis)
        << "update " << m.id.seq << " delivered after its expiry";
    const Micros published = static_cast<Micros>(m.expiry_ms) * kMillis - kLifetimeMs * kMillis - kSimEpoch;
    EXPECT_FALSE(published >= kDown && published + kLifetimeMs * kMillis < kUp)
        << "update " << m.id.seq << " was sent and expired during the outage, yet was delivered";
  }
  std::printf("delivered: %zu of 95 updates, %zu of 95 log entries; request bytes in the 10 s after the outage: %llu\n",
              live, log, static_cast<unsigned long long>(requests_after));
  EXPECT_EQ(log, 95u) << "data without a lifetime waits out the outage and arrives";
  EXPECT_GE(live, 95u - 30u - 5u) << "the updates of the outage are lost (those of its last 5 s may be repaired in time), the rest arrive";
  // Half the control share for requests over those 10 s, plus one request
  // (a round may go before its spacing is known).
  engine::EngineConfig c = engine::with_link_timers(config());
  const double share = c.control_share / 2.0 * static_cast<double>(kCapacity) / 8.0 * 10.0 + c.payload_size;
  EXPECT_LE(static_cast<double>(requests_after), share) << "no burst of stale requests";
  EXPECT_EQ(sim.node(1).incomplete_wanted(), 0u) << "nothing left waiting";
}

}  // namespace disconnection_test
