#include <gtest/gtest.h>

#include "engine/fragmenter.h"

using dissem::engine::fragment_layout;

TEST(Fragmenter, CoversTheMessageExactlyOnce) {
  const auto f = fragment_layout(819200, 1400);
  ASSERT_EQ(f.size(), 586u);  // 585 full fragments and one of 200 bytes
  std::uint32_t expect = 0;
  for (auto [off, len] : f) {
    EXPECT_EQ(off, expect);
    EXPECT_LE(len, 1400u);
    expect += len;
  }
  EXPECT_EQ(expect, 819200u);
  EXPECT_EQ(f.back().second, 200u);
}

TEST(Fragmenter, SmallAndExactMultiples) {
  EXPECT_EQ(fragment_layout(1, 1400).size(), 1u);
  EXPECT_EQ(fragment_layout(2800, 1400).size(), 2u);
  EXPECT_EQ(fragment_layout(2801, 1400).size(), 3u);
  EXPECT_TRUE(fragment_layout(0, 1400).empty());
}

TEST(Fragmenter, HeaderRoundTripsMetadata) {
  dissem::MessageMeta meta;
  meta.id = {"grp", 42, 9};
  meta.total_length = 3000;
  meta.priority = 5;
  meta.expiry_ms = 123456789;
  meta.history_window = 3;
  meta.tag = "pos";
  std::vector<std::uint8_t> bytes(100, 1);
  dissem::wire::DataFragment d;
  dissem::engine::fill_fragment(d, meta, 1400, bytes, true, 2);
  const auto back = dissem::engine::meta_of(d, dissem::Micros{123'000'000} * dissem::kMillis);
  EXPECT_EQ(back.id, meta.id);
  EXPECT_EQ(back.total_length, 3000u);
  EXPECT_EQ(back.priority, 5u);
  EXPECT_EQ(back.expiry_ms, 123456789u);
  EXPECT_EQ(back.history_window, 3u);
  EXPECT_EQ(back.tag, "pos");
  EXPECT_TRUE(d.repair());
  EXPECT_EQ(d.hops(), 2u);
}
