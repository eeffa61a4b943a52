// The ready line is the contract with the runner: its exact shape is pinned here.
#include "emulator_output.h"

#include <gtest/gtest.h>

namespace dissem::emu {
namespace {

TEST(Reports, ReadyLineListsEveryNode) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "2"});
  const AddressPlan plan("x", 2);
  const std::vector<NodeInfo> nodes{{1, "x-n1", "10.77.0.1", plan.mac_of(1)}, {2, "x-n2", "10.77.0.2", plan.mac_of(2)}};
  const std::string line = ready_line(options, nodes);
  const std::string expected =
      R"({"ready":true,"prefix":"x","subnet":"10.77.0.0/24","broadcast":"10.77.0.255","nodes":[)"
      R"({"id":1,"namespace":"x-n1","interface":"emu0","address":"10.77.0.1","mac":")" +
      format_mac(plan.mac_of(1)) +
      R"("},{"id":2,"namespace":"x-n2","interface":"emu0","address":"10.77.0.2","mac":")" +
      format_mac(plan.mac_of(2)) + R"("}]})";
  EXPECT_EQ(line, expected);
}

TEST(Reports, StatsCarrySeedConfigAndRun) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "2", "--seed", "42", "--gilbert", "0.1,0.2,0.5"});
  LinkModel model(options.model_config(), AddressPlan("x", 2));
  const std::string text = stats_json(options, model, RunSummary{1'500'000'000, 1'700'000'000'250'000'000, "SIGTERM", 3, 1, {{"location", 2}}, "fifo:10"});
  ASSERT_EQ(text.back(), '\n');
  EXPECT_EQ(text.rfind(R"({"emulator":"dissem-emu","schema":1,"seed":42,"config":{"prefix":"x","nodes":2,)", 0), 0u)
      << text;
  const auto json = Json::parse(text);
  EXPECT_EQ(json["config"]["gilbert"], Json::parse(R"({"p_good_to_bad":0.1,"p_bad_to_good":0.2,"loss_in_bad":0.5})"));
  EXPECT_EQ(json["config"]["half_duplex"], nullptr);
  EXPECT_EQ(json["config"]["gilbert_links"], Json::array());
  EXPECT_EQ(json["config"]["default_connected"], true);
  EXPECT_EQ(json["config"]["eel"], nullptr);
  EXPECT_EQ(json["config"]["ipv6"], false);
  const auto& run = json["run"];
  EXPECT_EQ(json_text(run),
            R"({"duration_s":1.5,"origin_unix_s":1700000000.25,"stopped_by":"SIGTERM","eel_events":3,)"
            R"("eel_events_applied":1,"eel_events_pending":0,"ignored_eel_events":{"location":2},)"
            R"("scheduling":"fifo:10","half_duplex_turnarounds":0})");
  EXPECT_EQ(json["links"], Json::array());
  EXPECT_EQ(json["nodes"].size(), 2u);
}

TEST(Reports, StatsCarryHalfDuplexAndPerLinkGilbert) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "2", "--half-duplex-bps", "75",
                                          "--turnaround-ms", "1500", "--gilbert-link", "2:1=0.1,0.2,0.5"});
  LinkModel model(options.model_config(), AddressPlan("x", 2));
  const auto json = Json::parse(stats_json(options, model, RunSummary{0, 0, "SIGTERM", 0, 0, {}, "normal"}));
  EXPECT_EQ(json["config"]["half_duplex"], Json::parse(R"({"bps":75,"turnaround_s":1.5,"max_hold_s":0.0})"));
  EXPECT_TRUE(json["config"]["half_duplex"]["bps"].is_number_integer());
  EXPECT_EQ(json["config"]["gilbert_links"],
            Json::parse(R"([{"from":2,"to":1,"p_good_to_bad":0.1,"p_bad_to_good":0.2,"loss_in_bad":0.5}])"));
}

TEST(Reports, NamesWithQuotesAndControlCharactersStayValidJson) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "1"});
  LinkModel model(options.model_config(), AddressPlan("x", 1));
  const std::string odd = "a\"b\\c\n\x01\xc3\xa9";  // quote, backslash, newline, SOH, é in UTF-8
  const std::string text = stats_json(options, model, RunSummary{0, 0, odd, 0, 0, {{odd, 1}}, "normal"});
  EXPECT_NE(text.find(R"("stopped_by":"a\"b\\c\n\u0001é")"), std::string::npos) << text;
  const auto json = Json::parse(text);
  EXPECT_EQ(json["run"]["stopped_by"], odd);
  EXPECT_EQ(json["run"]["ignored_eel_events"][odd], 1);
}

}  // namespace
}  // namespace dissem::emu
