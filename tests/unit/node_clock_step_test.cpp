// A node whose host's system clock steps an hour (engine/wall_clock.h,
// Node::on_system_clock): what it holds does not expire in a mass, what
// expired does not come back, and its timers keep their pace.
#include <gtest/gtest.h>

#include "engine/node.h"
#include "support/node_harness.h"
#include "support/test_time.h"

namespace dissem::engine::node_clock_step_test {
namespace {

using dissem::test::kT0;
constexpr Micros kHour = 3600 * kSeconds;

PublishRequest with_lifetime(const std::string& group, std::uint8_t salt, std::uint32_t lifetime_ms) {
  PublishRequest r = test::request(group, test::bytes_of(100, salt));
  r.lifetime_ms = lifetime_ms;
  return r;
}

std::vector<Event> events_of(Node& n) {
  std::vector<Event> out;
  while (auto e = n.poll_event()) out.push_back(std::move(*e));
  return out;
}

std::size_t steps_in(const std::vector<Event>& events) {
  return static_cast<std::size_t>(
      std::count_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::Kind::ClockStepped; }));
}

// Runs the node's timers every 100 ms from `from` to `to`, its system clock
// reading `step` ahead of `now`.
void run(Node& n, Micros from, Micros to, Micros step) {
  for (Micros t = from; t <= to; t += 100 * kMillis) {
    n.on_system_clock(t + step, t);
    if (t >= n.next_deadline()) n.on_timer(t);
    while (n.poll_datagram(t)) {
    }
  }
}

TEST(NodeClockStep, AnHourAheadExpiresNothingThatHadMinutesLeft) {
  Node n(test::fast_config(1), cache::Store::open(":memory:"), kT0);
  n.on_system_clock(kT0, kT0);
  std::vector<MessageId> ids;
  for (std::uint8_t i = 0; i < 5; ++i) ids.push_back(n.publish(with_lifetime("g", i, 10 * 60 * 1000), kT0));
  run(n, kT0 + kSeconds, kT0 + 5 * 60 * kSeconds, kHour);
  const auto events = events_of(n);
  EXPECT_EQ(steps_in(events), 1u) << "one event for the step";
  EXPECT_EQ(n.stats().messages_expired, 0u);
  for (const auto& id : ids) EXPECT_TRUE(n.get(id, kT0 + 5 * 60 * kSeconds)) << "held, five minutes before expiry";
  EXPECT_EQ(n.stats().clock_steps, 1u);
  EXPECT_GT(n.stats().clock_divergence, kHour - 5 * kSeconds) << "an hour, less 1 % of five minutes";
  // A new publication's lifetime counts from the node's wall time.
  EXPECT_NO_THROW(n.publish(with_lifetime("g", 9, 60 * 1000), kT0 + 5 * 60 * kSeconds));
  // They expire when their time comes, give or take the 1 % slewed.
  run(n, kT0 + 5 * 60 * kSeconds, kT0 + 11 * 60 * kSeconds, kHour);
  EXPECT_EQ(n.stats().messages_expired, 6u);
}

TEST(NodeClockStep, AnHourBackBringsNothingExpiredBackAndStallsNoTimer) {
  Node n(test::fast_config(1), cache::Store::open(":memory:"), kT0);
  n.on_system_clock(kT0, kT0);
  const MessageId id = n.publish(with_lifetime("g", 1, 2000), kT0);
  run(n, kT0, kT0 + 3 * kSeconds, 0);
  ASSERT_EQ(n.stats().messages_expired, 1u);
  const Micros at = kT0 + 3 * kSeconds + 100 * kMillis;
  n.on_system_clock(at - kHour, at);
  EXPECT_EQ(steps_in(events_of(n)), 1u);
  EXPECT_LT(n.next_deadline(), at + 10 * kSeconds) << "timers keep their pace";
  EXPECT_FALSE(n.get(id, at));
  // The message's data heard again (a neighbour that held it, say): still
  // expired by the node's wall time, so not taken.
  Node pub(test::fast_config(9), cache::Store::open(":memory:"), kT0);
  pub.publish(with_lifetime("h", 2, 2000), kT0);
  const auto late = test::only_data(test::drain(pub, kT0));
  n.subscribe("h", {}, at);
  run(n, at, at + kSeconds, -kHour);
  for (const auto& d : late) n.on_datagram(d, at + kSeconds);
  EXPECT_EQ(n.store().message_count(), 0u);
  EXPECT_FALSE(n.poll_delivery());
}

}  // namespace
}  // namespace dissem::engine::node_clock_step_test
