// The MAC plan, destination classes and the --subnet arithmetic.
#include <gtest/gtest.h>

#include "ethernet.h"
#include "ipv4_subnet.h"

namespace dissem::emu {
namespace {

TEST(Ethernet, ClassifiesDestinations) {
  const std::uint8_t bcast[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  const std::uint8_t mcast[] = {0x01, 0x00, 0x5e, 0x7f, 0x00, 0x01};
  const std::uint8_t ucast[] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
  EXPECT_EQ(classify_destination(bcast), FrameClass::broadcast);
  EXPECT_EQ(classify_destination(mcast), FrameClass::multicast);
  EXPECT_EQ(classify_destination(ucast), FrameClass::unicast);
}

TEST(Ethernet, AddressPlanIsDeterministicPerPrefix) {
  const AddressPlan a("exp1", 10), again("exp1", 10), other("exp2", 10);
  EXPECT_EQ(a.mac_of(3), again.mac_of(3));
  EXPECT_NE(a.mac_of(3), other.mac_of(3));
  EXPECT_EQ(a.mac_of(3)[0], 0x02);
  EXPECT_EQ(a.mac_of(3)[5], 3);
  EXPECT_EQ(a.owner_of(a.mac_of(7)), 7u);
  EXPECT_EQ(a.owner_of(other.mac_of(7)), std::nullopt);
  EXPECT_EQ(a.owner_of(a.mac_of(11)), std::nullopt);  // beyond the node count
  EXPECT_EQ(format_mac({0x02, 0xab, 0x00, 0x01, 0xff, 0x0a}), "02:ab:00:01:ff:0a");
}

TEST(Ipv4Subnet, ParsesAndNumbersHosts) {
  const auto s = parse_ipv4_subnet("10.77.0.0/24");
  EXPECT_EQ(format_ipv4(s.host(1)), "10.77.0.1");
  EXPECT_EQ(format_ipv4(s.broadcast()), "10.77.0.255");
  EXPECT_EQ(s.max_host_id(), 254u);
  const auto wide = parse_ipv4_subnet("172.20.0.0/16");
  EXPECT_EQ(format_ipv4(wide.host(254)), "172.20.0.254");
  EXPECT_EQ(format_ipv4(wide.broadcast()), "172.20.255.255");
  EXPECT_EQ(wide.to_string(), "172.20.0.0/16");
  EXPECT_EQ(parse_ipv4_subnet("10.0.0.0/30").max_host_id(), 2u);
}

TEST(Ipv4Subnet, RejectsBadInput) {
  for (const char* bad : {"10.77.0.0", "10.77.0/24", "10.77.0.0.1/24", "10.77.0.256/24", "10.77.0.0/31",
                          "10.77.0.0/7", "10.77.0.5/24", "10.77.0.0/x", "a.b.c.d/24", ""})
    EXPECT_THROW(parse_ipv4_subnet(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace dissem::emu
