// The application's direct view of the cache (get, list) and per-subscription
// filters on priority and tag.
#include <gtest/gtest.h>
#include <map>
#include <algorithm>

#include "engine/node.h"
#include "sim/simulation.h"
#include "support/air_reader.h"
#include "support/node_harness.h"
#include "support/temp_db.h"
#include "wire/codec.h"
#include "support/test_time.h"

using namespace dissem;
using namespace dissem::engine;
using namespace dissem::test;

namespace cache_queries_test {
namespace {


PublishRequest with(std::uint32_t priority, const std::string& tag, std::uint8_t salt) {
  PublishRequest r = request("g", bytes_of(2000, salt), priority);
  r.tag = tag;
  return r;
}

std::vector<std::uint64_t> seqs(const std::vector<CachedMessage>& list) {
  std::vector<std::uint64_t> out;
  for (const auto& m : list) out.push_back(m.meta.id.seq);
  return out;
}

}  // namespace

TEST(CacheQueries, GetReturnsAWholeMessageAndListFiltersByPublisherAndRange) {
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  for (std::uint8_t i = 1; i <= 5; ++i) pub.publish(with(i, i % 2 == 0 ? "even" : "odd", i), kT0);
  pub.publish(request("other", bytes_of(10, 1)), kT0);
  Node rx(fast_config(2), cache::Store::open(":memory:"), kT0);
  rx.subscribe("g", {}, kT0);
  wire::Decoded d;
  AirReader air;
  for (const auto& f : only_data(drain(pub, kT0))) {
    const bool lost = !air.decode(f, d) && d.data.seq() == 5 && d.data.offset() > 0;
    if (!lost) rx.on_datagram(f, kT0);  // the second fragment of message 5 is lost
  }

  const auto got = rx.get(MessageId{"g", 7, 2}, kT0);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->payload, bytes_of(2000, 2));
  EXPECT_EQ(got->meta.tag, "even");
  EXPECT_EQ(got->meta.priority, 2u);
  EXPECT_EQ(got->subscription, 0u);
  EXPECT_FALSE(rx.get(MessageId{"g", 7, 5}, kT0)) << "not whole here";
  EXPECT_FALSE(rx.get(MessageId{"g", 7, 9}, kT0)) << "never seen";

  const auto all = rx.list(ListRequest{"g", 0, 0, 0, 1000});
  EXPECT_EQ(seqs(all), (std::vector<std::uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_FALSE(all.back().complete) << "partial messages are listed, as partial";
  EXPECT_LT(all.back().stored_bytes, 2000u);
  EXPECT_TRUE(all.front().complete);
  EXPECT_EQ(all.front().meta.tag, "odd");
  EXPECT_EQ(seqs(rx.list(ListRequest{"g", 7, 2, 4, 1000})), (std::vector<std::uint64_t>{2, 3, 4}));
  EXPECT_EQ(seqs(rx.list(ListRequest{"g", 0, 0, 0, 2})), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_TRUE(rx.list(ListRequest{"g", 8, 0, 0, 1000}).empty()) << "another publisher";
  EXPECT_EQ(pub.list(ListRequest{"other", 0, 0, 0, 1000}).size(), 1u);

  // Every group, and only what is still being received (what `dissem top` shows).
  const auto everything = pub.list(ListRequest{"", 0, 0, 0, 1000});
  ASSERT_EQ(everything.size(), 6u);
  EXPECT_EQ(everything.front().meta.id.group, "g") << "ordered by group first";
  EXPECT_EQ(everything.back().meta.id.group, "other");
  ListRequest in_flight{"", 0, 0, 0, 1000};
  in_flight.incomplete_only = true;
  const auto partial = rx.list(in_flight);
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(partial[0].meta.id.seq, 5u);
  EXPECT_TRUE(pub.list(in_flight).empty());
}

TEST(CacheQueries, SubscriptionsFilterOnPriorityAndTagInEveryMode) {
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  for (std::uint8_t i = 1; i <= 6; ++i) pub.publish(with(i, i % 3 == 0 ? "alert" : "track", i), kT0);
  const auto data = drain(pub, kT0);
  Node rx(fast_config(2), cache::Store::open(":memory:"), kT0);
  SubscriptionOptions urgent;
  urgent.min_priority = 4;
  const auto s_urgent = rx.subscribe("g", urgent, kT0);
  SubscriptionOptions alerts;
  alerts.tags = {"alert"};
  alerts.ordered = true;
  alerts.history = 10;  // from the stream's first message (the highest priority arrives first)
  const auto s_alerts = rx.subscribe("g", alerts, kT0);
  const auto s_all = rx.subscribe("g", {}, kT0);
  for (const auto& d : data) rx.on_datagram(d, kT0);
  std::map<SubscriptionId, std::vector<std::uint64_t>> got;
  while (auto d = rx.poll_delivery()) got[d->subscription].push_back(d->meta.id.seq);
  std::sort(got[s_urgent].begin(), got[s_urgent].end());
  std::sort(got[s_all].begin(), got[s_all].end());
  EXPECT_EQ(got[s_urgent], (std::vector<std::uint64_t>{4, 5, 6}));
  EXPECT_EQ(got[s_alerts], (std::vector<std::uint64_t>{3, 6})) << "ordered, moving past the others";
  EXPECT_EQ(got[s_all], (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(rx.store().message_count(), 6u) << "everything still cached";
}

TEST(DurableSubscription, ResumesAfterARestartWithWhatWasNotAcknowledged) {
  dissem::test::TempDb db;
  Node pub(fast_config(7), cache::Store::open(":memory:"), kT0);
  auto next_data = [&](std::uint8_t salt) {
    pub.publish(request("g", bytes_of(500, salt)), kT0);
    return drain(pub, kT0);
  };
  SubscriptionOptions named;
  named.name = "n";
  auto take = [](Node& n) {
    std::vector<std::uint64_t> out;
    while (auto d = n.poll_delivery()) out.push_back(d->meta.id.seq);
    return out;
  };
  SubscriptionId id = 0;
  {
    Node rx(fast_config(2), cache::Store::open(db.path()), kT0);
    id = rx.subscribe("g", named, kT0);
    for (std::uint8_t i = 1; i <= 3; ++i)
      for (const auto& d : next_data(i)) rx.on_datagram(d, kT0);
    EXPECT_EQ(take(rx), (std::vector<std::uint64_t>{1, 2, 3}));
    rx.acknowledge(id, MessageId{"g", 7, 1}, kT0);
    rx.acknowledge(id, MessageId{"g", 7, 2}, kT0);
    EXPECT_THROW(rx.acknowledge(id + 100, MessageId{"g", 7, 3}, kT0), std::invalid_argument);
    SubscriptionOptions other = named;
    EXPECT_THROW(rx.subscribe("h", other, kT0), std::invalid_argument) << "the name is taken by group g";
  }  // gone without a goodbye (the acknowledgements were committed)
  Node rx(fast_config(2), cache::Store::open(db.path()), kT0 + kSeconds);
  for (std::uint8_t i = 4; i <= 5; ++i)
    for (const auto& d : next_data(i)) rx.on_datagram(d, kT0 + kSeconds);
  EXPECT_TRUE(take(rx).empty()) << "detached: delivered nowhere, but fetched and cached";
  EXPECT_EQ(rx.store().message_count(), 5u);
  id = rx.subscribe("g", named, kT0 + 2 * kSeconds);
  EXPECT_EQ(take(rx), (std::vector<std::uint64_t>{3, 4, 5})) << "3 was delivered but never acknowledged";
  for (std::uint64_t q = 3; q <= 5; ++q) rx.acknowledge(id, MessageId{"g", 7, q}, kT0);
  rx.unsubscribe(id, kT0);
  for (const auto& d : next_data(6)) rx.on_datagram(d, kT0 + 3 * kSeconds);
  EXPECT_EQ(rx.subscribe("g", named, kT0 + 3 * kSeconds), id) << "the same subscription, resumed";
  EXPECT_EQ(take(rx), (std::vector<std::uint64_t>{6}));
  EXPECT_TRUE(rx.delete_subscription("n", kT0));
  EXPECT_FALSE(rx.delete_subscription("n", kT0));
  SubscriptionOptions anonymous;
  rx.subscribe("g", anonymous, kT0 + 4 * kSeconds);
  EXPECT_TRUE(take(rx).empty()) << "anonymous subscriptions keep today's behaviour";
}

}  // namespace cache_queries_test
