// Late joiners on slow links (issue 29): a node that comes into range after
// a stream's messages went out, and subscribes with history, gets them from
// the publisher's cache, at 64 kbit/s and at 2,400 bit/s, after publication
// and during it. The payload size is loopback's (65,000 bytes), as real
// daemons on one machine use: timers once scaled by that full-size frame
// (8 s at 64 kbit/s, 217 s at 2,400 bit/s) made the publisher count its own
// first pass, seconds before the joiner existed, as an answer to the
// joiner's request, and made answers and re-requests wait for minutes.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace late_join_slow_link_test {
namespace {

constexpr std::uint32_t kLoopbackPayload = 65'000;

struct LateJoin {
  std::uint64_t capacity_bps = 64'000;
  std::size_t messages = 3;
  Micros publish_every = 10 * kMillis;  // from 0.1 s
  std::uint32_t history = 3;
  Micros joins_at = 1 * kSeconds;       // the link to the publisher comes up
  Micros subscribes_at = 5 * kSeconds;
  Micros limit = 60 * kSeconds;
};

struct Outcome {
  std::size_t delivered = 0;
  Micros last_at = -1;  // virtual time of the last delivery
  std::uint64_t suppressed = 0;  // the publisher's answers suppressed by its NTM
};

Outcome run(const LateJoin& p, std::uint64_t seed) {
  Simulation sim(seed);
  engine::EngineConfig c;
  c.link_capacity_bps = p.capacity_bps;
  c.payload_size = kLoopbackPayload;
  const std::size_t a = sim.add_node(c, p.capacity_bps);
  const std::size_t b = sim.add_node(c, p.capacity_bps);
  const LinkParams down{1.0, 1 * kMillis, 0, false};
  const LinkParams up{1.0, 1 * kMillis, 0, true};
  sim.set_link(a, b, down);
  sim.set_link(b, a, down);
  sim.at(p.joins_at, [&](Simulation& s) {
    s.set_link(a, b, up);
    s.set_link(b, a, up);
  });
  for (std::size_t i = 0; i < p.messages; ++i) {
    sim.at(100 * kMillis + static_cast<Micros>(i) * p.publish_every, [&, i](Simulation& s) {
      engine::PublishRequest r;
      r.group = "late";
      r.payload = std::vector<std::uint8_t>(8, static_cast<std::uint8_t>(i));
      s.publish(a, r);
    });
  }
  sim.at(p.subscribes_at, [&](Simulation& s) {
    engine::SubscriptionOptions o;
    o.history = p.history;
    s.subscribe(b, "late", o);
  });
  sim.run_until([&](const Simulation& s) { return s.deliveries(b).size() >= p.messages; }, p.limit);
  Outcome out;
  out.delivered = sim.deliveries(b).size();
  if (out.delivered > 0) out.last_at = sim.deliveries(b).back().received_at;
  out.suppressed = sim.node(a).stats().repairs_suppressed_ntm;
  return out;
}

void expect_all(const LateJoin& p, const char* label) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Outcome o = run(p, seed);
    std::printf("%s seed %llu: %zu of %zu delivered, the last at %.1f s; publisher's NTM suppressed %llu\n", label,
                static_cast<unsigned long long>(seed), o.delivered, p.messages, static_cast<double>(o.last_at) / 1e6,
                static_cast<unsigned long long>(o.suppressed));
    EXPECT_EQ(o.delivered, p.messages) << label << " seed " << seed << ": history within "
                                        << p.limit / kSeconds << " s";
  }
}

}  // namespace

TEST(LateJoinSlowLink, HistoryAfterPublicationAt64kbps) {
  LateJoin p;
  p.limit = p.subscribes_at + 20 * kSeconds;
  expect_all(p, "64 kbit/s, after");
}

TEST(LateJoinSlowLink, HistoryAfterPublicationAt2400bps) {
  LateJoin p;
  p.capacity_bps = 2'400;
  p.limit = p.subscribes_at + 60 * kSeconds;
  expect_all(p, "2400 bit/s, after");
}

TEST(LateJoinSlowLink, HistoryAndLiveMessagesDuringPublicationAt64kbps) {
  // Eight messages 2 s apart: the joiner subscribes after the third and
  // asks for all that came before; the rest reach it first-hand.
  LateJoin p;
  p.messages = 8;
  p.publish_every = 2 * kSeconds;
  p.history = 8;
  p.limit = 100 * kMillis + 7 * p.publish_every + 20 * kSeconds;
  expect_all(p, "64 kbit/s, during");
}

TEST(LateJoinSlowLink, HistoryAndLiveMessagesDuringPublicationAt2400bps) {
  LateJoin p;
  p.capacity_bps = 2'400;
  p.messages = 6;
  p.publish_every = 4 * kSeconds;
  p.history = 6;
  p.limit = 100 * kMillis + 5 * p.publish_every + 60 * kSeconds;
  expect_all(p, "2400 bit/s, during");
}

}  // namespace late_join_slow_link_test
