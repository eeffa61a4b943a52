#include "emu_options.h"

#include <map>

#include <gtest/gtest.h>

namespace dissem::emu {
namespace {

std::string options_error_of(const std::vector<std::string>& args) {
  try {
    parse_emu_options(args);
  } catch (const OptionsError& e) {
    return e.what();
  }
  return "no error";
}

// The error of three nodes with prefix `prefix` and `extra` options.
std::string error_with(const std::string& prefix, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"--prefix", prefix, "--nodes", "3"};
  args.insert(args.end(), extra.begin(), extra.end());
  return options_error_of(args);
}

TEST(EmuOptions, ContractOptionsParse) {
  const auto o = parse_emu_options({"--prefix", "exp-1", "--nodes", "4", "--subnet", "10.9.0.0/16", "--eel",
                                    "s.eel", "--seed", "99", "--queue-packets", "20", "--radio-bps", "1000000",
                                    "--radio-bps-node", "2=500000", "--gilbert", "0.01,0.2,0.5",
                                    "--default-disconnected", "--pcap-dir", "/tmp/p", "--stats-json",
                                    "/tmp/s.json", "--duration", "2.5", "--overhead-bytes", "24",
                                    "--rt-priority", "30"});
  EXPECT_EQ(o.prefix, "exp-1");
  EXPECT_EQ(o.nodes, 4u);
  EXPECT_EQ(o.subnet.to_string(), "10.9.0.0/16");
  EXPECT_EQ(o.eel_path, "s.eel");
  EXPECT_EQ(o.seed, 99u);
  EXPECT_EQ(o.queue_packets, 20u);
  EXPECT_EQ(o.radio_bps, (std::vector<std::uint64_t>{1'000'000, 500'000, 1'000'000, 1'000'000}));
  ASSERT_TRUE(o.gilbert);
  EXPECT_DOUBLE_EQ(o.gilbert->loss_in_bad, 0.5);
  EXPECT_TRUE(o.default_disconnected);
  EXPECT_EQ(o.pcap_dir, "/tmp/p");
  EXPECT_EQ(o.stats_json, "/tmp/s.json");
  EXPECT_EQ(o.duration_s, 2.5);
  EXPECT_EQ(o.overhead_bytes, 24u);
  EXPECT_EQ(o.rt_priority, 30);
  const ModelConfig c = o.model_config();
  EXPECT_FALSE(c.default_connected);
  EXPECT_EQ(c.seed, 99u);
}

TEST(EmuOptions, Defaults) {
  const auto o = parse_emu_options({"--prefix", "a", "--nodes", "2"});
  EXPECT_EQ(o.subnet.to_string(), "10.77.0.0/24");
  EXPECT_EQ(o.queue_packets, 50u);
  EXPECT_EQ(o.radio_bps, (std::vector<std::uint64_t>{0, 0}));
  EXPECT_FALSE(o.duration_s);
  EXPECT_FALSE(o.gilbert);
  EXPECT_FALSE(o.default_disconnected);
  EXPECT_EQ(o.rt_priority, 10);
}

TEST(EmuOptions, Cleanup) {
  const auto o = parse_emu_options({"--cleanup", "exp-1"});
  EXPECT_EQ(o.cleanup, "exp-1");
}

TEST(EmuOptions, BadOptionsNameTheOption) {
  EXPECT_NE(options_error_of({"--nodes", "2"}).find("--prefix"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a"}).find("--nodes"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "Bad_Name", "--nodes", "2"}).find("--prefix"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "waytoolongname", "--nodes", "2"}).find("--prefix"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "0"}).find("--nodes"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "255"}).find("--nodes"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "x"}).find("--nodes"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "7", "--subnet", "10.0.0.0/29"}).find("--nodes"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--subnet", "10.0.0.1/24"}).find("--subnet"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--radio-bps", "fast"}).find("--radio-bps"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--radio-bps-node", "3=100"}).find("--radio-bps-node"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--radio-bps-node", "1"}).find("--radio-bps-node"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--shared-channel-bps", "1000", "--radio-bps", "10"})
                .find("--shared-channel-bps"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--gilbert", "0.1,2,0"}).find("--gilbert"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--duration", "0"}).find("--duration"), std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--queue-packets", "-1"}).find("--queue-packets"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--rt-priority", "100"}).find("--rt-priority"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--rt-priority", "-1"}).find("--rt-priority"),
            std::string::npos);
  EXPECT_NE(options_error_of({"--prefix", "a", "--nodes", "2", "--bogus"}).find("--bogus"), std::string::npos);
  EXPECT_NE(options_error_of({"--cleanup", "a", "--prefix", "a"}).find("--cleanup"), std::string::npos);
}

TEST(EmuOptions, PerLinkGilbertAndHalfDuplexParse) {
  const auto o = parse_emu_options({"--prefix", "hf", "--nodes", "3", "--gilbert-link", "1:2=0.1,0.2,0.5",
                                    "--gilbert-link", "3:1=0,1,1", "--half-duplex-bps", "75", "--turnaround-ms",
                                    "1500", "--max-hold-ms", "20000"});
  ASSERT_EQ(o.link_gilbert.size(), 2u);
  EXPECT_EQ(o.link_gilbert[0].sender, 1u);
  EXPECT_EQ(o.link_gilbert[0].receiver, 2u);
  EXPECT_DOUBLE_EQ(o.link_gilbert[0].params.p_bad_to_good, 0.2);
  EXPECT_EQ(o.link_gilbert[1].sender, 3u);
  EXPECT_EQ(o.half_duplex.bps, 75u);
  EXPECT_EQ(o.half_duplex.turnaround, 1'500'000'000);
  EXPECT_EQ(o.half_duplex.max_hold, 20'000'000'000);
  const ModelConfig c = o.model_config();
  EXPECT_EQ(c.half_duplex.bps, 75u);
  EXPECT_EQ(c.link_gilbert.size(), 2u);
}

TEST(EmuOptions, BadPerLinkGilbertAndHalfDuplexNameTheOption) {
  const auto err = [](const std::vector<std::string>& extra) { return error_with("a", extra); };
  EXPECT_NE(err({"--gilbert-link", "1:4=0,0,0"}).find("--gilbert-link: node '4'"), std::string::npos);
  EXPECT_NE(err({"--gilbert-link", "2:2=0,0,0"}).find("to itself"), std::string::npos);
  EXPECT_NE(err({"--gilbert-link", "1-2=0,0,0"}).find("S:R=PGB,PBG,LOSSBAD"), std::string::npos);
  EXPECT_NE(err({"--gilbert-link", "1:2=0,0,2"}).find("loss_in_bad"), std::string::npos);
  EXPECT_NE(err({"--gilbert-link", "1:2=0,0,0", "--gilbert-link", "1:2=0,0,1"}).find("twice"), std::string::npos);
  EXPECT_NE(err({"--turnaround-ms", "10"}).find("--turnaround-ms: only applies"), std::string::npos);
  EXPECT_NE(err({"--half-duplex-bps", "75", "--turnaround-ms", "-1"}).find("--turnaround-ms"), std::string::npos);
  EXPECT_NE(err({"--half-duplex-bps", "75", "--shared-channel-bps", "75"}).find("--half-duplex-bps"),
            std::string::npos);
  EXPECT_NE(err({"--half-duplex-bps", "75", "--radio-bps", "75"}).find("--half-duplex-bps"), std::string::npos);
}

TEST(EmuOptions, ASecondNetworkJoinsAnotherEmulationsNamespaces) {
  const auto o = parse_emu_options({"--prefix", "b", "--nodes", "3", "--interface", "emu1", "--join", "1=a-n4",
                                    "--join", "3=host.x_1"});
  EXPECT_EQ(o.interface_name, "emu1");
  EXPECT_EQ(o.joins, (std::map<std::size_t, std::string>{{1, "a-n4"}, {3, "host.x_1"}}));
  EXPECT_EQ(parse_emu_options({"--prefix", "a", "--nodes", "2"}).interface_name, "emu0");
  EXPECT_TRUE(parse_emu_options({"--prefix", "a", "--nodes", "2"}).joins.empty());
}

TEST(EmuOptions, BadJoinsAndInterfacesNameTheOption) {
  const auto error = [](const std::vector<std::string>& extra) { return error_with("b", extra); };
  EXPECT_NE(error({"--join", "a-n4"}).find("--join: 'a-n4' is not I=NAMESPACE"), std::string::npos);
  EXPECT_NE(error({"--join", "4=a-n4"}).find("--join: node '4'"), std::string::npos);
  EXPECT_NE(error({"--join", "1=a/b"}).find("--join: 'a/b' is not a namespace name"), std::string::npos);
  EXPECT_NE(error({"--join", "1=.."}).find("is not a namespace name"), std::string::npos);
  EXPECT_NE(error({"--join", "1=x", "--join", "1=y"}).find("--join: node 1 is given twice"), std::string::npos);
  EXPECT_NE(error({"--interface", "a-much-too-long-name"}).find("--interface: 'a-much-too-long-name'"),
            std::string::npos);
  EXPECT_NE(error({"--interface", "e:1"}).find("--interface"), std::string::npos);
}

TEST(EmuOptions, HelpIsNotAnError) {
  try {
    parse_emu_options({"--help"});
    FAIL() << "no help";
  } catch (const HelpRequested& h) {
    EXPECT_NE(h.text.find("--shared-channel-bps"), std::string::npos);
  }
}

}  // namespace
}  // namespace dissem::emu
