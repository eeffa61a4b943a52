#include "counters.h"

#include <gtest/gtest.h>

namespace dissem::emu {
namespace {

TEST(Counters, TotalsAndJsonLeaveOutIdleLinks) {
  Counters c(3);
  c.node(1).frames_sent = 10;
  c.node(2).frames_sent = 5;
  c.link(1, 2).offered = 10;
  c.link(1, 2).lost = 2;
  c.link(1, 2).duplicated = 1;
  c.link(1, 2).delivered = 8;
  c.link(1, 3).offered = 10;
  c.link(1, 3).delivered = 7;
  EXPECT_EQ(c.node_totals().frames_sent, 15u);
  EXPECT_EQ(c.link_totals().offered, 20u);
  EXPECT_EQ(c.link(1, 2).in_flight(), 1u);
  EXPECT_EQ(c.link(1, 3).in_flight(), 3u);
  const Json json = c.json_members();
  // Members in the order the stats file gives them; counters are integers.
  EXPECT_EQ(json_text(json).rfind(R"({"totals":{"nodes":{"frames_sent":15,)", 0), 0u) << json_text(json);
  ASSERT_EQ(json["nodes"].size(), 3u);
  EXPECT_EQ(json_text(json["nodes"][1]).rfind(R"({"id":2,"frames_sent":5,"bytes_sent":0,)", 0), 0u);
  ASSERT_EQ(json["links"].size(), 2u) << "the idle links are left out";
  EXPECT_EQ(json_text(json["links"][0]).rfind(R"({"from":1,"to":2,"offered":10,"delivered":8,)", 0), 0u);
  EXPECT_EQ(json["links"][0]["in_flight"], 1);
  EXPECT_EQ(json["links"][1]["from"], 1);
  EXPECT_EQ(json["links"][1]["to"], 3);
  EXPECT_EQ(json["totals"]["links"]["offered"], 20);
  EXPECT_TRUE(json["totals"]["links"]["offered"].is_number_integer());
}

}  // namespace
}  // namespace dissem::emu
