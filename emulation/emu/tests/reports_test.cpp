// The ready line is the contract with the runner: its exact shape is pinned here.
#include "reports.h"

#include <gtest/gtest.h>

namespace dissem::emu {
namespace {

TEST(Reports, ReadyLineListsEveryNode) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "2"});
  const AddressPlan plan("x", 2);
  const std::vector<NodeInfo> nodes{{1, "x-n1", "10.77.0.1", plan.mac_of(1)}, {2, "x-n2", "10.77.0.2", plan.mac_of(2)}};
  const std::string line = ready_line(options, nodes);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.rfind("{\"ready\": true, \"prefix\": \"x\", ", 0), 0u);
  std::string first_node =
      "\"nodes\": [{\"id\": 1, \"namespace\": \"x-n1\", \"interface\": \"emu0\", \"address\": \"10.77.0.1\", \"mac\": \"";
  first_node.append(format_mac(plan.mac_of(1))).append("\"}, {\"id\": 2,");
  EXPECT_NE(line.find(first_node), std::string::npos);
  EXPECT_NE(line.find("\"broadcast\": \"10.77.0.255\""), std::string::npos);
}

TEST(Reports, StatsCarrySeedConfigAndRun) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "2", "--seed", "42", "--gilbert", "0.1,0.2,0.5"});
  LinkModel model(options.model_config(), AddressPlan("x", 2));
  const std::string json = stats_json(options, model, RunSummary{1'500'000'000, 1'700'000'000'250'000'000, "SIGTERM", 3, 1, {{"location", 2}}, "fifo:10"});
  EXPECT_EQ(json.rfind("{\"emulator\": \"dissem-emu\", \"schema\": 1, \"seed\": 42,", 0), 0u);
  EXPECT_NE(json.find("\"gilbert\": {\"p_good_to_bad\": 0.1, \"p_bad_to_good\": 0.2, \"loss_in_bad\": 0.5}"),
            std::string::npos);
  EXPECT_NE(json.find("\"run\": {\"duration_s\": 1.500000, \"origin_unix_s\": 1700000000.250000, \"stopped_by\": \"SIGTERM\", \"eel_events\": 3, "
                      "\"eel_events_applied\": 1, \"eel_events_pending\": 0, \"ignored_eel_events\": {\"location\": 2}, "
                      "\"scheduling\": \"fifo:10\", \"half_duplex_turnarounds\": 0}"),
            std::string::npos);
  EXPECT_NE(json.find("\"links\": []"), std::string::npos);
  EXPECT_NE(json.find("\"half_duplex\": null"), std::string::npos);
  EXPECT_NE(json.find("\"gilbert_links\": []"), std::string::npos);
}

TEST(Reports, StatsCarryHalfDuplexAndPerLinkGilbert) {
  const auto options = parse_emu_options({"--prefix", "x", "--nodes", "2", "--half-duplex-bps", "75",
                                          "--turnaround-ms", "1500", "--gilbert-link", "2:1=0.1,0.2,0.5"});
  LinkModel model(options.model_config(), AddressPlan("x", 2));
  const std::string json = stats_json(options, model, RunSummary{0, 0, "SIGTERM", 0, 0, {}, "normal"});
  EXPECT_NE(json.find("\"half_duplex\": {\"bps\": 75, \"turnaround_s\": 1.5, \"max_hold_s\": 0}"), std::string::npos);
  EXPECT_NE(json.find("\"gilbert_links\": [{\"from\": 2, \"to\": 1, \"p_good_to_bad\": 0.1"), std::string::npos);
}

}  // namespace
}  // namespace dissem::emu
