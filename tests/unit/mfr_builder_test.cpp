// MFR construction: random subset with probability p, packing limit,
// backoff, the sweep over many gaps, and suppression by overheard requests.
#include <gtest/gtest.h>

#include "engine/requests/mfr_builder.h"
#include "wire/codec.h"

using namespace dissem;
using namespace dissem::engine;

namespace mfr_builder_test {
namespace {

MessageMeta meta(std::uint64_t seq, std::uint32_t total = 14000) {
  MessageMeta m;
  m.id = {"grp", 7, seq};
  m.total_length = total;
  return m;
}

RequestRoundParams params(double p, std::size_t max_bytes = 1400) {
  RequestRoundParams rp;
  rp.self = 1;
  rp.probability = p;
  rp.max_bytes = max_bytes;
  rp.backoff_base = 100 * kMillis;
  rp.max_backoff_exponent = 3;
  rp.tail_timeout = 50 * kMillis;
  return rp;
}

const auto kWanted = [](const std::string&) { return true; };

}  // namespace

TEST(MfrBuilder, ListsInteriorGapsButNotAFreshTail) {
  MessageTracker t(1000);
  t.on_fragment(meta(1), 0, 1400, 0);
  t.on_fragment(meta(1), 2800, 1400, 0);  // gap [1400, 2800); tail [4200, 14000)
  Random rng(1);
  auto round = build_request_round(t, kWanted, params(1.0), 1 * kMillis, rng);
  ASSERT_TRUE(round);
  const auto& m = round->request.wants(0).messages(0);
  ASSERT_EQ(m.ranges_size(), 2);
  EXPECT_EQ(m.ranges(0), 1400u);
  EXPECT_EQ(m.ranges(1), 2800u);
}

TEST(MfrBuilder, RequestsTheTailAfterSilence) {
  MessageTracker t(1000);
  t.on_fragment(meta(1), 0, 1400, 0);
  Random rng(1);
  auto round = build_request_round(t, kWanted, params(1.0), 60 * kMillis, rng);
  ASSERT_TRUE(round);
  const auto& m = round->request.wants(0).messages(0);
  ASSERT_EQ(m.ranges_size(), 2);
  EXPECT_EQ(m.ranges(0), 1400u);
  EXPECT_EQ(m.ranges(1), 14000u);
}

TEST(MfrBuilder, SubsetFollowsProbabilityP) {
  // 1000 whole-missing messages, p = 0.3: about 300 listed (no packing limit).
  MessageTracker t(10000);
  t.learn_newest({"grp", 7}, 1000, true, 999, true, 0);
  ASSERT_EQ(t.incomplete_count(), 1000u);
  Random rng(42);
  auto round = build_request_round(t, kWanted, params(0.3, 1 << 20), 0, rng);
  ASSERT_TRUE(round);
  EXPECT_EQ(round->candidates, 1000u);
  EXPECT_NEAR(static_cast<double>(round->items), 300.0, 45.0);
}

TEST(MfrBuilder, NeverEmptyWhenSomethingIsEligible) {
  MessageTracker t(10);
  t.learn_newest({"grp", 7}, 1, true, 0, true, 0);
  Random rng(3);
  int listed = 0;
  for (int i = 0; i < 20; ++i) {
    MessageTracker fresh(10);
    fresh.learn_newest({"grp", 7}, 1, true, 0, true, 0);
    listed += build_request_round(fresh, kWanted, params(0.01), 0, rng) ? 1 : 0;
  }
  EXPECT_EQ(listed, 20);
}

TEST(MfrBuilder, PacksWithinTheByteLimit) {
  MessageTracker t(10000);
  t.learn_newest({"grp", 7}, 3000, true, 2999, true, 0);
  Random rng(5);
  for (std::size_t limit : {128u, 400u, 1400u}) {
    MessageTracker fresh(10000);
    fresh.learn_newest({"grp", 7}, 3000, true, 2999, true, 0);
    auto round = build_request_round(fresh, kWanted, params(1.0, limit), 0, rng);
    ASSERT_TRUE(round);
    EXPECT_LE(wire::encode(round->request).size(), limit);
    EXPECT_GT(round->items, 0u);
  }
}

TEST(MfrBuilder, ListedItemsBackOffExponentially) {
  MessageTracker t(10);
  t.learn_newest({"grp", 7}, 1, true, 0, true, 0);
  Random rng(1);
  const auto p = params(1.0);
  Micros now = 0;
  std::vector<Micros> intervals;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(build_request_round(t, kWanted, p, now, rng));
    EXPECT_FALSE(build_request_round(t, kWanted, p, now + 1, rng)) << "backed off";
    const Micros next = t.find({"grp", 7, 1})->request.next_eligible;
    intervals.push_back(next - now);
    now = next;
  }
  EXPECT_EQ(intervals[0], 100 * kMillis);
  EXPECT_EQ(intervals[1], 200 * kMillis);
  EXPECT_EQ(intervals[2], 400 * kMillis);
  EXPECT_EQ(intervals[3], 800 * kMillis);
  EXPECT_EQ(intervals[4], 800 * kMillis) << "capped at max_backoff_exponent";
}

TEST(MfrBuilder, NewDataResetsBackoff) {
  MessageTracker t(10);
  t.on_fragment(meta(1), 0, 1400, 0);
  t.on_fragment(meta(1), 4200, 1400, 0);
  Random rng(1);
  ASSERT_TRUE(build_request_round(t, kWanted, params(1.0), 0, rng));
  EXPECT_GT(t.find({"grp", 7, 1})->request.next_eligible, 0);
  t.on_fragment(meta(1), 1400, 1400, 1);
  EXPECT_EQ(t.find({"grp", 7, 1})->request.next_eligible, 0);
}

TEST(MfrBuilder, SweepsManyGapsOverSuccessiveRounds) {
  MessageTracker t(10);
  const std::uint32_t total = 1400 * 400;
  for (std::uint32_t i = 0; i < 400; i += 2) t.on_fragment(meta(1, total), i * 1400, 1400, 0);
  ByteRanges asked;
  Random rng(1);
  for (int round = 0; round < 20; ++round) {
    auto r = build_request_round(t, kWanted, params(1.0, 200), 0, rng);
    if (!r) break;
    const auto& m = r->request.wants(0).messages(0);
    for (int i = 0; i < m.ranges_size(); i += 2) asked.add(m.ranges(i), m.ranges(i + 1));
  }
  for (std::uint32_t i = 1; i < 399; i += 2) EXPECT_TRUE(asked.contains(i * 1400, (i + 1) * 1400)) << i;
}

TEST(MfrBuilder, OverheardRequestDefersOurs) {
  MessageTracker t(10);
  t.on_fragment(meta(1), 0, 1400, 0);
  t.on_fragment(meta(1), 2800, 1400, 0);  // we miss [1400, 2800)
  wire::MissingFragmentRequest other;
  auto* w = other.add_wants();
  w->set_group("grp");
  w->set_publisher(7);
  auto* m = w->add_messages();
  m->set_seq(1);
  m->add_ranges(1000);
  m->add_ranges(3000);
  defer_overheard_requests(t, other, 10 * kMillis, 500 * kMillis, 50 * kMillis);
  EXPECT_EQ(t.find({"grp", 7, 1})->request.next_eligible, 510 * kMillis);

  // A request covering only part of what we miss does not defer us.
  MessageTracker t2(10);
  t2.on_fragment(meta(1), 0, 1400, 0);
  t2.on_fragment(meta(1), 4200, 1400, 0);  // we miss [1400, 4200)
  defer_overheard_requests(t2, other, 10 * kMillis, 500 * kMillis, 50 * kMillis);
  EXPECT_EQ(t2.find({"grp", 7, 1})->request.next_eligible, 0);
}

TEST(MessageTracker, GapsInSequenceNumbersBecomeMissingMessages) {
  MessageTracker t(100);
  t.learn_newest({"g", 1}, 5, true, 0, false, 0);  // first contact at seq 5: baseline 5
  t.on_fragment([] { MessageMeta m; m.id = {"g", 1, 5}; m.total_length = 10; return m; }(), 0, 10, 0);
  EXPECT_EQ(t.incomplete_count(), 0u) << "no history asked: nothing before 5";
  t.learn_newest({"g", 1}, 9, true, 0, false, 0);  // seq 9 arrives: 6, 7, 8 missing
  EXPECT_EQ(t.incomplete_count(), 3u);
  t.learn_newest({"g", 1}, 12, true, 0, true, 0);  // a beacon says 12 exists
  EXPECT_EQ(t.incomplete_count(), 6u);             // 6,7,8,10,11,12 (9 tracked by its fragment later)
  t.extend_history({"g", 1}, 2, 0);
  EXPECT_EQ(t.incomplete_count(), 8u);
  EXPECT_EQ(t.stream({"g", 1})->baseline, 3u);
}

TEST(MessageTracker, HostileSequenceJumpIsBounded) {
  MessageTracker t(1'000'000);
  t.learn_newest({"g", 1}, 1, true, 0, true, 0);
  t.learn_newest({"g", 1}, 1ull << 60, true, 0, true, 0);
  EXPECT_LE(t.incomplete_count(), 1025u);
}

}  // namespace mfr_builder_test
