// dissem-norm-gateway's configuration (tools/norm_gateway/gateway_config.h):
// every key settable from TOML and --set, every bad value refused with the
// key's name, and the printed configuration reads back the same.
#include <gtest/gtest.h>

#include <string>

#include "tools/norm_gateway/gateway_config.h"

using namespace dissem::norm_gateway;

namespace norm_gateway_config_test {
namespace {

std::string error_of(const std::string& toml) {
  GatewayConfig c;
  try {
    apply_toml(c, toml, "gw.toml");
    validate(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(NormGatewayConfig, ReadsEveryTable) {
  GatewayConfig c;
  apply_toml(c, R"(
[gateway]
name = "gw-east"
status_file = "/run/gw.json"
log_level = "debug"
[dissem]
socket = "/tmp/d.sock"
group = "news"
domain = "field"
priority = 3
lifetime_ms = 60000
reconnect_max_s = 2
[norm]
address = "239.1.2.3"
port = 7000
interface = "eth1"
node_id = 17
domain = "hq"
tx_rate_bps = 256000
grtt_s = 0.25
segment_bytes = 1200
block = 32
parity = 8
auto_parity = 2
tx_buffer_bytes = 1048576
rx_buffer_bytes = 2097152
tx_cache_objects = 64
ttl = 4
loopback = true
sync = "all"
[bridge]
direction = "norm-to-dissem"
holdoff_ms = 300
duplicate_window_s = 30
max_message_bytes = 1000000
memory = 1000
)",
             "gw.toml");
  validate(c);
  EXPECT_EQ(c.name, "gw-east");
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.group, "news");
  EXPECT_EQ(c.dissem_domain, "field");
  EXPECT_EQ(c.lifetime_ms, 60000u);
  EXPECT_DOUBLE_EQ(c.reconnect_max_s, 2.0);
  EXPECT_EQ(c.address, "239.1.2.3");
  EXPECT_EQ(c.port, 7000);
  EXPECT_EQ(c.node_id, 17u);
  EXPECT_DOUBLE_EQ(c.tx_rate_bps, 256000.0);
  EXPECT_EQ(c.block, 32u);
  EXPECT_TRUE(c.loopback);
  EXPECT_TRUE(c.sync_all);
  EXPECT_EQ(c.direction, Direction::NormToDissem);
  EXPECT_EQ(c.holdoff_ms, 300u);
  EXPECT_EQ(c.memory, 1000u);
  // Printed and read back: the same configuration, printed the same.
  GatewayConfig again;
  apply_toml(again, to_toml(c), "printed");
  EXPECT_EQ(to_toml(again), to_toml(c));
  EXPECT_EQ(again.interface, "eth1");
  EXPECT_EQ(again.direction, Direction::NormToDissem);
}

TEST(NormGatewayConfig, BadValuesNameTheKeyAndLine) {
  EXPECT_EQ(error_of("[norm]\nport = 70000\n"), "norm.port: 70000 is out of range [1, 65535] (gw.toml:2)");
  EXPECT_EQ(error_of("[norm]\nportt = 1\n"), "unknown key 'norm.portt' (gw.toml:2)");
  EXPECT_EQ(error_of("[nrom]\nport = 1\n"), "unknown table [nrom] (gw.toml:1)");
  EXPECT_NE(error_of("[norm]\naddress = \"10.0.0.1\"\n").find("norm.address: '10.0.0.1' is not a multicast"),
            std::string::npos);
  EXPECT_NE(error_of("[norm]\nloopback = 1\n").find("norm.loopback: expected true or false"), std::string::npos);
  EXPECT_NE(error_of("[bridge]\ndirection = \"up\"\n").find("bridge.direction: 'up' is not both"), std::string::npos);
  EXPECT_NE(error_of("[dissem]\ndomain = \"a b\"\n").find("dissem.domain:"), std::string::npos);
  EXPECT_NE(error_of("[norm]\ngrtt_s = \"fast\"\n").find("norm.grtt_s: expected a number"), std::string::npos);
  EXPECT_NE(error_of("[norm]\nport = [\n").find("gw.toml:"), std::string::npos);
  // Across keys, once everything is read.
  EXPECT_EQ(error_of(""), "dissem.group: required (the dissem group to bridge)");
  EXPECT_NE(error_of("[dissem]\ngroup = \"g\"\n[norm]\nblock = 200\nparity = 100\n").find("norm.parity:"),
            std::string::npos);
  EXPECT_NE(error_of("[dissem]\ngroup = \"g\"\ndomain = \"x\"\n[norm]\ndomain = \"x\"\n").find("norm.domain:"),
            std::string::npos);
}

TEST(NormGatewayConfig, SetAssignmentsUseTheSameChecks) {
  GatewayConfig c;
  apply_assignment(c, "dissem.group=news");
  apply_assignment(c, "norm.port=6010");
  apply_assignment(c, "norm.loopback=true");
  apply_assignment(c, "norm.grtt_s=0.05");
  apply_assignment(c, "bridge.direction=dissem-to-norm");
  apply_assignment(c, "norm.interface=\"lo\"");
  EXPECT_EQ(c.group, "news");
  EXPECT_EQ(c.port, 6010);
  EXPECT_TRUE(c.loopback);
  EXPECT_DOUBLE_EQ(c.grtt_s, 0.05);
  EXPECT_EQ(c.direction, Direction::DissemToNorm);
  EXPECT_EQ(c.interface, "lo");
  auto refused = [&](const std::string& a) {
    try {
      apply_assignment(c, a);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused("norm.port=0"), "norm.port: 0 is out of range [1, 65535]");
  EXPECT_EQ(refused("norm.nope=1"), "unknown key 'norm.nope'");
  EXPECT_NE(refused("noequals"), "");
  EXPECT_NE(refused("norm.ttl=many"), "");
  EXPECT_EQ(c.port, 6010);  // a refused value changes nothing
}

TEST(NormGatewayConfig, PrintsEveryKey) {
  const std::string text = to_toml(GatewayConfig{});
  for (const std::string& key : key_names()) {
    const std::string name = key.substr(key.find('.') + 1);
    EXPECT_NE(text.find("\n" + name + " = "), std::string::npos) << key;
  }
}

TEST(NormGatewayConfig, TheExampleFileIsTheDefaults) {
  GatewayConfig example;
  apply_toml_file(example, std::string(DISSEM_SOURCE_DIR) + "/docs/norm-gateway.example.toml");
  EXPECT_EQ(to_toml(example), to_toml(GatewayConfig{}));
}

}  // namespace norm_gateway_config_test
