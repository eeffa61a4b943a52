// dissem-rogue's summary: the target's group was heard off the air, so it may
// hold any bytes; the line must stay JSON that reads back.
#include <gtest/gtest.h>

#include <string>

#include "rogue_summary.h"

namespace dissem::rogue::rogue_summary_test {
namespace {

TEST(RogueSummary, CountsTargetAndAttacksInOrder) {
  const RogueTally tally{12, 3400, 5, Target{"pos", 0xabcd, 9}, {{"corrupt", 4}, {"request-flood", 8}}};
  EXPECT_EQ(json_text(rogue_summary(tally)),
            R"({"datagrams":12,"bytes":3400,"heard":5,"target":{"group":"pos","publisher":43981,"newest":9},)"
            R"("sent":{"corrupt":4,"request-flood":8}})");
}

TEST(RogueSummary, WithoutATargetItIsNull) {
  const Json j = rogue_summary(RogueTally{});
  EXPECT_TRUE(j["target"].is_null());
  EXPECT_EQ(json_text(j["sent"]), "{}");
}

TEST(RogueSummary, AHostileGroupNameStaysValidJson) {
  const std::string hostile = std::string("a\"}\\\n\x01\x7f\xc3\xa9", 9) + std::string(1, '\0') + "\xff";
  const std::string text = json_text(rogue_summary(RogueTally{1, 1, 1, Target{hostile, 1, 1}, {}}));
  const Json back = Json::parse(text);
  // Everything but the byte that is not UTF-8 reads back as it was.
  EXPECT_EQ(back["target"]["group"], std::string("a\"}\\\n\x01\x7f\xc3\xa9", 9) + std::string(1, '\0') + "\xef\xbf\xbd");
  EXPECT_NE(text.find(R"("group":"a\"}\\\n\u0001)"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(\u0000)"), std::string::npos) << text;
}

}  // namespace
}  // namespace dissem::rogue::rogue_summary_test
