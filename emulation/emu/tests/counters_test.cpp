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
  const std::string json = c.json_members();
  EXPECT_NE(json.find("{\"from\": 1, \"to\": 2, \"offered\": 10, \"delivered\": 8"), std::string::npos);
  EXPECT_NE(json.find("\"from\": 1, \"to\": 3"), std::string::npos);
  EXPECT_EQ(json.find("\"from\": 2,"), std::string::npos);
  EXPECT_NE(json.find("\"totals\": {\"nodes\": {\"frames_sent\": 15"), std::string::npos);
}

}  // namespace
}  // namespace dissem::emu
