// The experiment workload's stamped payloads and message plans (src/tools/load).
#include <gtest/gtest.h>

#include <stdexcept>

#include "tools/load/message_plan.h"
#include "tools/load/stamped_payload.h"

namespace dissem::load {
namespace {

TEST(StampedPayload, RoundTripsItsStamp) {
  const auto p = make_payload(1000, {7, 1'700'000'000'123'456ull});
  ASSERT_EQ(p.size(), 1000u);
  const auto s = check_payload(p);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->index, 7u);
  EXPECT_EQ(s->published_unix_us, 1'700'000'000'123'456ull);
}

TEST(StampedPayload, RejectsAnyAlteredByteAndForeignData) {
  auto p = make_payload(5000, {3, 42});
  p[4000] ^= 1;
  EXPECT_FALSE(check_payload(p).has_value());
  // Another message's bytes at the right place still differ (the pattern
  // depends on the index).
  auto a = make_payload(64, {1, 0});
  const auto b = make_payload(64, {2, 0});
  std::copy(b.begin() + 16, b.end(), a.begin() + 16);
  EXPECT_FALSE(check_payload(a).has_value());
  EXPECT_FALSE(check_payload(std::vector<std::uint8_t>(100, 0)).has_value());
  EXPECT_FALSE(check_payload(std::vector<std::uint8_t>(3, 0)).has_value());
  EXPECT_THROW(make_payload(15, {}), std::invalid_argument);
}

TEST(MessagePlan, ParsesCountsAndLists) {
  EXPECT_EQ(parse_message_sizes("1x819200"), std::vector<std::size_t>{819200});
  EXPECT_EQ(parse_message_sizes("2x1024,7168"), (std::vector<std::size_t>{1024, 1024, 7168}));
  EXPECT_EQ(parse_message_sizes("100"), std::vector<std::size_t>{100});
}

TEST(MessagePlan, BadItemsAreNamed) {
  for (const char* bad : {"", "x100", "3x", "abc", "1,,2", "0x100", "5x8", "2x1024,"}) {
    try {
      parse_message_sizes(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("message sizes"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dissem::load
