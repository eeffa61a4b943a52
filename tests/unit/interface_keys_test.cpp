// Per-interface link settings ([net.interface.NAME], daemon/interface_keys.h):
// read from TOML, --set and printed back, refused naming the key, and the
// settings each interface runs with, IPv4 or IPv6.
#include <gtest/gtest.h>

#include <string>

#include "daemon/config_toml.h"
#include "daemon/daemon_config.h"
#include "daemon/interface_keys.h"
#include "support/daemon_args_support.h"

namespace dissem::daemon::interface_keys_test {

using testing::error_of;
using testing::parse;

class InterfaceTables : public testing::ConfigDirTest {};

TEST_F(InterfaceTables, AnInterfaceTableOverridesNetsValuesForThatInterfaceOnly) {
  const auto path = write("i.toml",
                          "[net]\ninterfaces = [\"wlan0\", \"eth0.100\"]\ngroup = \"239.1.2.3\"\n"
                          "[net.interface.wlan0]\ngroup = \"ff02::4242\"\nport = 5000\n"
                          "[net.interface.\"eth0.100\"]\nttl = 3\nmode = \"broadcast\"\n");
  const auto c = parse({"--config", path}).config;
  const LinkSettings wlan = c.net.link("wlan0");
  EXPECT_EQ(wlan.group, "ff02::4242");
  EXPECT_EQ(wlan.port, 5000);
  EXPECT_EQ(wlan.ttl, 1u) << "[net]'s where the table says nothing";
  EXPECT_TRUE(wlan.ipv6());
  const LinkSettings vlan = c.net.link("eth0.100");
  EXPECT_EQ(vlan.group, "239.1.2.3");
  EXPECT_EQ(vlan.port, 42424);
  EXPECT_EQ(vlan.ttl, 3u);
  EXPECT_EQ(vlan.mode, NetMode::Broadcast);
  EXPECT_FALSE(vlan.ipv6());
  // Printed within [net], the dotted name quoted, and read back the same.
  const std::string printed = to_toml(c);
  EXPECT_NE(printed.find("interface.\"eth0.100\".ttl = 3\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("interface.wlan0.group = \"ff02::4242\"\n"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("[net.interface"), std::string::npos) << "no second [net] table";
  DaemonConfig again = default_config(testing::user_env());
  apply_toml(again, printed, "printed");
  EXPECT_EQ(again, c);
}

TEST(InterfaceKeys, SetOnTheCommandLineAndRefusedNamingTheKey) {
  const auto c = parse({"--interface", "hf0", "--set", "net.interface.hf0.group=ff12::1"}).config;
  EXPECT_TRUE(c.net.link("hf0").ipv6()) << "a transient group of link-local scope (flags 1) is link-local too";
  EXPECT_EQ(error_of({"--interface", "hf0", "--set", "net.interface.hf0.group=ff05::1"}),
            "net.interface.hf0.group: 'ff05::1' is not an IPv6 multicast group of link-local scope (ff02::/16)");
  EXPECT_EQ(error_of({"--set", "net.group=10.0.0.1"}), "net.group: '10.0.0.1' is not a multicast address (224.0.0.0/4)");
  EXPECT_EQ(error_of({"--set", "net.group=nonsense"}), "net.group: 'nonsense' is not an IPv4 or IPv6 address");
  EXPECT_EQ(error_of({"--interface", "hf0", "--set", "net.interface.hf0.port=0"}),
            "net.interface.hf0.port: 0 is out of range [1, 65535]");
  EXPECT_EQ(error_of({"--set", "net.interface.wlan0.port=5"}),
            "net.interface.wlan0: 'wlan0' is not one of net.interfaces");
  EXPECT_EQ(error_of({"--interface", "hf0", "--set", "net.interface.hf0.colour=red"}),
            "unknown key 'net.interface.hf0.colour'");
  EXPECT_EQ(error_of({"--interface", "hf0", "--set", "net.interface.hf0.mode=broadcast", "--set",
                      "net.interface.hf0.group=ff02::1"}),
            "net.interface.hf0.group: IPv6 has no broadcast: set mode = \"multicast\" for it");
  EXPECT_TRUE(parse({"--set", "net.group=ff02::4242"}).config.net.link("lo").ipv6()) << "[net] itself may be IPv6";
}

TEST(InterfaceKeys, NoTableMeansNetsValues) {
  const auto c = parse({}).config;
  const LinkSettings lo = c.net.link("lo");
  EXPECT_EQ(lo.group, c.net.group);
  EXPECT_EQ(lo.port, c.net.port);
  EXPECT_EQ(lo.mode, c.net.mode);
  EXPECT_FALSE(lo.ipv6());
}

}  // namespace dissem::daemon::interface_keys_test
