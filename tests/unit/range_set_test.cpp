#include <gtest/gtest.h>

#include "engine/range_set.h"

using dissem::engine::ByteRanges;
using dissem::engine::SeqRanges;

TEST(RangeSet, AppendsInOrderAndCountsNewBytes) {
  ByteRanges r;
  EXPECT_EQ(r.add(0, 1400), 1400u);
  EXPECT_EQ(r.add(1400, 2800), 1400u);
  EXPECT_EQ(r.ranges().size(), 1u);
  EXPECT_EQ(r.covered(), 2800u);
  EXPECT_EQ(r.add(0, 1400), 0u) << "duplicate adds nothing";
}

TEST(RangeSet, MergesOutOfOrderAndOverlapping) {
  ByteRanges r;
  r.add(100, 200);
  r.add(300, 400);
  r.add(0, 50);
  EXPECT_EQ(r.ranges().size(), 3u);
  EXPECT_EQ(r.add(150, 350), 100u);  // bridges 200..300 only
  ASSERT_EQ(r.ranges().size(), 2u);
  EXPECT_EQ(r.ranges()[1], (ByteRanges::Range{100, 400}));
  EXPECT_EQ(r.add(40, 120), 50u);
  ASSERT_EQ(r.ranges().size(), 1u);
  EXPECT_EQ(r.covered(), 400u);
}

TEST(RangeSet, GapsAreTheComplementWithinBounds) {
  ByteRanges r;
  r.add(10, 20);
  r.add(30, 40);
  const auto g = r.gaps(0, 50);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0], (ByteRanges::Range{0, 10}));
  EXPECT_EQ(g[1], (ByteRanges::Range{20, 30}));
  EXPECT_EQ(g[2], (ByteRanges::Range{40, 50}));
  EXPECT_TRUE(r.gaps(10, 20).empty());
  EXPECT_EQ(r.gaps(15, 35), (std::vector<ByteRanges::Range>{{20, 30}}));
}

TEST(RangeSet, ContainsWholeRangesOnly) {
  SeqRanges r;
  r.add(1, 5);
  r.add(7, 9);
  EXPECT_TRUE(r.contains(1));
  EXPECT_TRUE(r.contains(4));
  EXPECT_FALSE(r.contains(5));
  EXPECT_TRUE(r.contains(1, 5));
  EXPECT_FALSE(r.contains(3, 8));
  EXPECT_TRUE(r.contains(7, 9));
}

TEST(RangeSet, RandomisedAgainstABitmap) {
  // Property check: the set and a plain bitmap agree after random inserts.
  std::uint64_t s = 12345;
  auto next = [&] { return s = s * 6364136223846793005ULL + 1442695040888963407ULL, static_cast<std::uint32_t>(s >> 33); };
  for (int round = 0; round < 50; ++round) {
    ByteRanges r;
    std::vector<bool> bits(1000, false);
    for (int i = 0; i < 40; ++i) {
      const std::uint32_t b = next() % 1000, len = next() % 60 + 1;
      const std::uint32_t e = std::min<std::uint32_t>(1000, b + len);
      std::uint32_t fresh = 0;
      for (auto x = b; x < e; ++x) fresh += bits[x] ? 0 : 1, bits[x] = true;
      ASSERT_EQ(r.add(b, e), fresh);
    }
    std::uint32_t count = 0;
    for (std::uint32_t x = 0; x < 1000; ++x) {
      ASSERT_EQ(r.contains(x), bits[x]) << x;
      count += bits[x];
    }
    ASSERT_EQ(r.covered(), count);
    std::uint32_t gap_total = 0;
    for (auto [b, e] : r.gaps(0, 1000)) gap_total += e - b;
    ASSERT_EQ(gap_total, 1000 - count);
  }
}

TEST(RangeSet, RemovingOneValueSplitsTrimsOrDropsItsRange) {
  SeqRanges r;
  r.add(1, 10);
  r.add(20, 21);
  EXPECT_TRUE(r.remove(5));  // split
  EXPECT_EQ(r.ranges(), (std::vector<SeqRanges::Range>{{1, 5}, {6, 10}, {20, 21}}));
  EXPECT_TRUE(r.remove(1));  // trim the front
  EXPECT_TRUE(r.remove(9));  // trim the back
  EXPECT_TRUE(r.remove(20));  // drop a range of one
  EXPECT_EQ(r.ranges(), (std::vector<SeqRanges::Range>{{2, 5}, {6, 9}}));
  EXPECT_EQ(r.covered(), 6u);
  EXPECT_FALSE(r.remove(5)) << "not held";
  EXPECT_FALSE(r.remove(0));
  EXPECT_FALSE(r.remove(100));
  EXPECT_EQ(r.covered(), 6u);
  EXPECT_TRUE(r.contains(2) && !r.contains(5) && r.contains(6));
}

TEST(RangeSet, NextAbsentSkipsTheRangeHoldingAValue) {
  SeqRanges s;
  s.add(10, 20);
  s.add(30, 31);
  EXPECT_EQ(s.next_absent(5), 5u);
  EXPECT_EQ(s.next_absent(10), 20u);
  EXPECT_EQ(s.next_absent(19), 20u);
  EXPECT_EQ(s.next_absent(20), 20u);
  EXPECT_EQ(s.next_absent(30), 31u);
  EXPECT_EQ(s.next_absent(UINT64_MAX), UINT64_MAX);
  EXPECT_EQ(SeqRanges{}.next_absent(7), 7u);
}
