// dissem-sim --json (sim/result_format.h): the members in their documented order,
// counts as integers, figures to six significant digits, names escaped.
#include <gtest/gtest.h>

#include <string>

#include "core/json.h"
#include "sim/result_format.h"

namespace dissem::sim::result_format_json_test {
namespace {

BaselineResult small_baseline() {
  BaselineResult r;
  r.params.receivers = 1;
  r.params.capacity_kbps = 9.6;
  r.params.reliability_pct = 70;
  r.capacity_bps = 9600;
  r.messages = 1;
  r.lower_bound_s = 1.0 / 3.0;
  r.mean_delivery_s = 12.3456789;
  r.receivers.push_back({1, 1, 819'200, true, 12'345'678, 0});
  r.run.finished_at = 20 * kSeconds;
  r.run.all_complete = true;
  r.run.trace_hash = 0xd3db3f1f88a8aa0aull;
  r.run.medium.nodes.resize(2);
  r.run.medium.total.header_bytes = 28;
  r.run.node_stats.resize(2);
  r.run.node_stats[1].mfrs_sent = 3;
  return r;
}

TEST(ReportJson, BaselineKeepsItsShapeAndPrecision) {
  const std::string text = baseline_json(small_baseline());
  ASSERT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
  EXPECT_EQ(text.rfind(R"({"experiment":"baseline","params":{"receivers":1,"capacity_kbps":9.6,"capacity_bps":9600,)"
                       R"("reliability_pct":70.0,"bytes":819200,"message_size":0,"messages":1,"seed":1,)"
                       R"("shared_channel":false},"lower_bound_s":0.333333,"mean_delivery_s":12.3457,)", 0), 0u)
      << text;
  const Json j = Json::parse(text);
  EXPECT_EQ(json_text(j["receivers"]), R"([{"name":"r1","messages":1,"bytes":819200,"complete":true,)"
                                       R"("delivery_s":12.3457,"duplicate_deliveries":0}])");
  EXPECT_EQ(j["trace_hash"], "d3db3f1f88a8aa0a");
  EXPECT_EQ(j["finished_s"], 20.0);
  EXPECT_EQ(j["total_bytes_with_headers"], 28);
  EXPECT_TRUE(j["total_bytes_with_headers"].is_number_integer());
  EXPECT_EQ(j["medium"]["nodes"][0]["name"], "sender");
  EXPECT_EQ(j["medium"]["total"]["header_bytes"], 28);
  EXPECT_EQ(j["engine"][1]["name"], "r1");
  EXPECT_EQ(j["engine"][1]["mfrs_sent"], 3);
  EXPECT_EQ(json_text(j["sim"]), R"({"events":0,"timer_events":0,"timer_stalls":0,"radio_full":0})");
}

TEST(ReportJson, ScenarioNodeNamesAreEscapedAndMissingTimesAreMinusOne) {
  ScenarioResult r;
  r.source = "odd \"file\"\n.toml";
  ScenarioNodeOutcome n;
  n.name = "n\\1\t\xc3\xa9";
  r.nodes.push_back(n);
  r.metrics.complete_at = -1;
  r.metrics.last_change_at = -1;
  r.run.medium.nodes.resize(1);
  r.run.node_stats.resize(1);
  const std::string text = scenario_json(r);
  EXPECT_NE(text.find(R"("source":"odd \"file\"\n.toml")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"({"name":"n\\1\té",)"), std::string::npos) << text;
  const Json j = Json::parse(text);
  EXPECT_EQ(j["nodes"][0]["name"], n.name);
  EXPECT_EQ(j["medium"]["nodes"][0]["name"], n.name);
  EXPECT_EQ(j["nodes"][0]["complete_s"], -1.0);
  EXPECT_EQ(j["metrics"]["complete_s"], -1.0);
  EXPECT_EQ(j["metrics"]["full_delivery_after_last_change_s"], -1.0);
}

}  // namespace
}  // namespace dissem::sim::result_format_json_test
