// The experiment workload's stamped payloads and message plans (src/tools/load).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tools/load/message_plan.h"
#include "tools/load/stamped_payload.h"

namespace dissem::load::load_payload_test {
namespace {

TEST(StampedPayload, RoundTripsItsStamp) {
  const auto p = make_payload(1000, {7, 1'700'000'000'123'456ull});
  ASSERT_EQ(p.size(), 1000u);
  const auto s = check_payload(p);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->index, 7u);
  EXPECT_EQ(s->published_unix_us, 1'700'000'000'123'456ull);
  EXPECT_EQ(s->stream, 0u);
  const auto q = check_payload(make_payload(kStampBytes, {9, 5, 3}));
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->stream, 3u);
  EXPECT_EQ(q->index, 9u);
}

TEST(StampedPayload, RejectsAnyAlteredByteAndForeignData) {
  auto p = make_payload(5000, {3, 42});
  p[4000] ^= 1;
  EXPECT_FALSE(check_payload(p).has_value());
  // Another message's bytes at the right place still differ (the pattern
  // depends on the index).
  auto a = make_payload(64, {1, 0});
  const auto b = make_payload(64, {2, 0});
  std::copy(b.begin() + kStampBytes, b.end(), a.begin() + kStampBytes);
  EXPECT_FALSE(check_payload(a).has_value());
  // The same index in another stream is another message.
  auto c = make_payload(64, {1, 0, 0});
  const auto d = make_payload(64, {1, 0, 1});
  std::copy(d.begin() + kStampBytes, d.end(), c.begin() + kStampBytes);
  EXPECT_FALSE(check_payload(c).has_value());
  EXPECT_FALSE(check_payload(std::vector<std::uint8_t>(100, 0)).has_value());
  EXPECT_FALSE(check_payload(std::vector<std::uint8_t>(3, 0)).has_value());
  EXPECT_THROW(make_payload(kStampBytes - 1, {}), std::invalid_argument);
}

TEST(MessagePlan, ParsesCountsAndLists) {
  EXPECT_EQ(parse_message_sizes("1x819200"), std::vector<std::size_t>{819200});
  EXPECT_EQ(parse_message_sizes("2x1024,7168"), (std::vector<std::size_t>{1024, 1024, 7168}));
  EXPECT_EQ(parse_message_sizes("100"), std::vector<std::size_t>{100});
}

TEST(MessagePlan, BadItemsAreNamed) {
  for (const char* bad : {"", "x100", "3x", "abc", "1,,2", "0x100", "5x8", "5x19", "2x1024,"}) {
    try {
      parse_message_sizes(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("message sizes"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dissem::load::load_payload_test
