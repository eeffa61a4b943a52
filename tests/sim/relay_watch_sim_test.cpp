// The relay watchdog of subscriber-tree forwarding (engine/relay_watch.h) in
// virtual time: a sinkhole, a neighbour that lies on the shortest path to
// the subscriber and advertises it but never rebroadcasts (it still caches
// and answers requests), against the same network with an honest node in
// its place.
//
//   P --- X --- S        P publishes, S subscribes; X is the sinkhole.
//   |           |
//   A --------- B        the longer way round: 3 hops instead of 2.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <vector>

#include "controllers/forwarding/subscriber_tree.h"
#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace relay_watch_sim_test {
namespace {

constexpr std::size_t kP = 0, kX = 1, kA = 2, kB = 3, kS = 4;
constexpr Micros kWatchFrom = 20 * kSeconds;  // latency measured for messages after this
constexpr Micros kEnd = 40 * kSeconds;
const std::string kGroup = "tracks";

// Subscriber-tree forwarding that never rebroadcasts: its beacons advertise
// what an honest node's would, so its neighbours name it.
class Sinkhole final : public controllers::ForwardingController {
 public:
  std::string_view name() const override { return "sinkhole"; }
  controllers::ForwardDecision on_new_fragment(const controllers::ReceivedFragment&, const controllers::NodeView&,
                                               Micros, Random&) override {
    return {};
  }
  bool relays(const std::string& group, const controllers::NodeView& node) const override {
    return inner_.relays(group, node);
  }
  std::uint32_t interest_radius() const override { return inner_.interest_radius(); }
  bool names_relays() const override { return true; }

 private:
  controllers::SubscriberTreeForwarding inner_{controllers::InterestForwardingParams{}};
};

struct Outcome {
  std::size_t published = 0;
  std::size_t delivered = 0;
  double late_mean_ms = 0;   // messages published after kWatchFrom
  std::uint64_t avoided = 0;  // relays_avoided, all nodes
  std::uint64_t relayed_round = 0;  // rebroadcasts by A and B
  std::uint64_t requests_late = 0;  // S's requests after kWatchFrom
};

Outcome run(bool sinkhole, double reliability) {
  Simulation sim(5);
  engine::EngineConfig c;
  c.link_capacity_bps = 1'000'000;
  for (int i = 0; i < 5; ++i) sim.add_node(c, 1'000'000);
  for (std::size_t i = 0; i < 5; ++i) {
    if (i == kX && sinkhole)
      sim.node(i).set_forwarding_controller(std::make_unique<Sinkhole>());
    else
      sim.node(i).set_forwarding_controller(
          std::make_unique<controllers::SubscriberTreeForwarding>(controllers::InterestForwardingParams{}));
  }
  sim.set_all_links(LinkParams{0, 0, 0, false});  // only the edges drawn above
  const LinkParams link{reliability, 2 * kMillis, 0, true};
  for (const auto& [a, b] : std::vector<std::pair<std::size_t, std::size_t>>{{kP, kX}, {kX, kS}, {kP, kA}, {kA, kB}, {kB, kS}}) {
    sim.set_link(a, b, link);
    sim.set_link(b, a, link);
  }
  engine::SubscriptionOptions everything;
  everything.history = 1000;  // from the first message, however the stream is first heard of
  sim.subscribe(kS, kGroup, everything);
  std::map<std::uint64_t, Micros> produced;
  // After 5 s of beacons (interest crosses a hop per beacon), 10 messages a second.
  for (Micros t = 5 * kSeconds; t < kEnd; t += 100 * kMillis) {
    sim.at(t, [&produced](Simulation& s) {
      engine::PublishRequest r;
      r.group = kGroup;
      r.payload.assign(1000, static_cast<std::uint8_t>(s.now() / kMillis));
      produced[s.publish(kP, r).seq] = s.now();
    });
  }
  std::uint64_t requests_at_watch = 0;
  sim.at(kWatchFrom, [&](Simulation& s) { requests_at_watch = s.node(kS).stats().mfrs_sent; });
  sim.run_until(kEnd + 10 * kSeconds);

  Outcome o;
  o.published = produced.size();
  std::vector<double> late;
  for (const auto& d : sim.deliveries(kS)) {
    ++o.delivered;
    const Micros at = produced.at(d.delivery.meta.id.seq);
    if (at >= kWatchFrom) late.push_back(static_cast<double>(d.received_at - at) / 1000.0);
  }
  if (!late.empty()) o.late_mean_ms = std::accumulate(late.begin(), late.end(), 0.0) / static_cast<double>(late.size());
  for (std::size_t i = 0; i < 5; ++i) o.avoided += sim.node(i).stats().relays_avoided;
  o.relayed_round = sim.node(kA).stats().sent[static_cast<std::size_t>(engine::TrafficKind::Forward)].datagrams +
                    sim.node(kB).stats().sent[static_cast<std::size_t>(engine::TrafficKind::Forward)].datagrams;
  o.requests_late = sim.node(kS).stats().mfrs_sent - requests_at_watch;
  std::printf("%s, %.0f %% links: %zu/%zu delivered, late mean %.1f ms, relays avoided %llu, rebroadcasts by A and B "
              "%llu, S's requests after %lld s: %llu\n",
              sinkhole ? "sinkhole" : "honest", reliability * 100, o.delivered, o.published, o.late_mean_ms,
              static_cast<unsigned long long>(o.avoided), static_cast<unsigned long long>(o.relayed_round),
              static_cast<long long>(kWatchFrom / kSeconds), static_cast<unsigned long long>(o.requests_late));
  return o;
}

}  // namespace

TEST(RelayWatch, ASinkholeIsAvoidedAndTheFirstPassGoesRoundIt) {
  const Outcome honest = run(false, 1.0);
  const Outcome hole = run(true, 1.0);
  EXPECT_EQ(honest.avoided, 0u);
  EXPECT_EQ(honest.relayed_round, 0u) << "the honest shortest path carries everything";
  EXPECT_EQ(honest.delivered, honest.published);
  EXPECT_EQ(hole.delivered, hole.published);
  EXPECT_GE(hole.avoided, 1u) << "the publisher stopped naming the silent relay";
  EXPECT_GT(hole.relayed_round, 100u) << "the first pass went the long way round";
  // Once avoided, the subscriber gets the first pass, not answers to its requests.
  EXPECT_LT(hole.late_mean_ms, 2 * honest.late_mean_ms + 20);
  EXPECT_LE(hole.requests_late, 5u);
}

TEST(RelayWatch, HonestRelaysOnLossyLinksAreNeverAvoided) {
  for (const double reliability : {0.8, 0.6}) {
    const Outcome o = run(false, reliability);
    EXPECT_EQ(o.avoided, 0u) << reliability;
    EXPECT_EQ(o.delivered, o.published) << reliability;
  }
}

}  // namespace relay_watch_sim_test
