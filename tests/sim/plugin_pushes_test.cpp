// Replication decided by a controller plugin, in a network: the example
// plugin (controllers/plugin/example) pushes only urgent messages to a peer
// that appears, where the built-in anti-entropy pushes everything it lacks.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/experiments.h"
#include "sim/simulation.h"

using namespace dissem;
using namespace dissem::sim;

namespace plugin_pushes_test {
namespace {

struct Outcome {
  std::vector<std::uint32_t> delivered;  // priorities delivered at n1, sorted
  std::uint64_t pushes = 0;              // fragments n0 queued to push
  std::uint64_t summaries = 0;           // summaries n0 and n1 sent
};

// n0 publishes four one-fragment messages (priorities 0, 2, 1, 3) while n1
// cannot hear it; then the link comes up. n1 subscribes unreliably: it asks
// for nothing, so it delivers exactly what n0 pushes on contact.
Outcome meet(const std::string& replication) {
  Simulation sim(7);
  LinkParams off;
  off.enabled = false;
  sim.set_all_links(off);
  for (int i = 0; i < 2; ++i) {
    auto c = experiment_node_config(1'000'000, NodeRole::Relay);
    c.controllers.plugin_path = DISSEM_EXAMPLE_PLUGIN;
    c.controllers.plugin_params = "min_priority=2";
    c.controllers.replication = replication;
    sim.add_node(c, 1'000'000);
  }
  engine::SubscriptionOptions unreliable;
  unreliable.reliable = false;
  sim.subscribe(1, "alerts", unreliable);
  sim.at(1 * kSeconds, [](Simulation& s) {
    for (std::uint32_t priority : {0u, 2u, 1u, 3u}) {
      engine::PublishRequest r;
      r.group = "alerts";
      r.priority = priority;
      r.payload = std::vector<std::uint8_t>(500, static_cast<std::uint8_t>(priority));
      s.publish(0, r);
    }
  });
  sim.at(3 * kSeconds, [](Simulation& s) {
    s.set_link(0, 1, LinkParams{});
    s.set_link(1, 0, LinkParams{});
  });
  sim.run_until(20 * kSeconds);
  Outcome o;
  for (const auto& d : sim.deliveries(1)) o.delivered.push_back(d.delivery.meta.priority);
  std::sort(o.delivered.begin(), o.delivered.end());
  o.pushes = sim.node(0).stats().pushes_queued;
  o.summaries = sim.node(0).stats().summaries_sent + sim.node(1).stats().summaries_sent;
  return o;
}

}  // namespace

TEST(PluginPushes, TheExamplePluginPushesOnlyUrgentMessagesOnContact) {
  const Outcome plugin = meet("plugin");
  EXPECT_EQ(plugin.delivered, (std::vector<std::uint32_t>{2, 3}));
  EXPECT_EQ(plugin.pushes, 2u);
  EXPECT_GE(plugin.summaries, 2u);  // one each way on contact, at least

  // The same meeting with the built-in controller: everything n1 lacks is pushed.
  const Outcome built_in = meet("anti-entropy");
  EXPECT_EQ(built_in.delivered, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(built_in.pushes, 4u);

  // Without replication nothing reaches n1 at all.
  const Outcome none = meet("none");
  EXPECT_TRUE(none.delivered.empty());
  EXPECT_EQ(none.pushes, 0u);
}

}  // namespace plugin_pushes_test
