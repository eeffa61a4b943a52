// What an experiment's publisher and receiver record (src/tools/load
// publication_log, reception_log): stamps from the plan, per-stream counts,
// final updates per source, latency figures and the plan's end.
#include <gtest/gtest.h>

#include <string>

#include "core/json.h"
#include "tools/load/publication_log.h"
#include "tools/load/reception_log.h"
#include "tools/load/stamped_payload.h"
#include "tools/load/workload.h"

namespace dissem::load::load_logs_test {
namespace {

constexpr std::uint64_t kStart = 1'700'000'000'000'000ull;

std::vector<std::uint8_t> message(const Workload& w, std::uint32_t stream, std::uint32_t index) {
  const Planned m{w.streams[stream].at_s(index), stream, index, w.streams[stream].bytes};
  return make_payload(m.bytes, stamp_of(m, kStart));
}

TEST(PublicationLog, StampsWithThePlannedTimeAndCountsPerStream) {
  const Workload w = parse_workload("a count=4 bytes=100 rate_hz=2\nb count=1 bytes=300\n");
  const auto s = schedule(w);
  const Stamp st = stamp_of(s[2], kStart);  // a#1 at 0.5 s
  EXPECT_EQ(st.stream, 0u);
  EXPECT_EQ(st.index, 1u);
  EXPECT_EQ(st.published_unix_us, kStart + 500'000);
  PublicationLog log(w);
  for (const auto& m : s) log.add(m, m.at_s + (m.stream == 1 ? 0.25 : 0.0));
  EXPECT_EQ(log.published(), 5u);
  EXPECT_EQ(log.bytes(), 700u);
  const Json j = log.json_members();
  EXPECT_EQ(json_text(j), R"({"messages_published":5,"bytes_published":700,"publish_s":[0.0,0.25,0.5,1.0,1.5],)"
                          R"("late_max_s":0.25,"streams":{"a":{"published":4,"bytes":400},"b":{"published":1,"bytes":300}}})");
}

TEST(ReceptionLog, CountsStreamsFinalUpdatesDuplicatesAndLatency) {
  // Two sources alternating at 2 Hz (each 1 Hz), and a second stream.
  const Workload w = parse_workload("pos count=6 bytes=64 rate_hz=2 sources=2\nimg count=2 bytes=200 rate_hz=0.5\n");
  ReceptionLog log(w, 0);
  EXPECT_EQ(log.expected(), 8u);
  EXPECT_FALSE(log.plan_end_unix_us().has_value());
  // pos#1 (0.5 s) arrives 0.2 s after it was produced; the plan's end (2.5 s) follows.
  EXPECT_EQ(log.add("p1", message(w, 0, 1), kStart + 700'000, 1.0), ReceptionLog::Outcome::Accepted);
  ASSERT_TRUE(log.plan_end_unix_us().has_value());
  EXPECT_EQ(*log.plan_end_unix_us(), kStart + 2'500'000);
  EXPECT_EQ(log.add("p1", message(w, 0, 1), kStart + 900'000, 1.2), ReceptionLog::Outcome::Duplicate);
  EXPECT_EQ(log.add("p2", message(w, 0, 1), kStart + 900'000, 1.2), ReceptionLog::Outcome::Accepted);
  // Replacement: only the last message of source 1 (index 5) and of stream img.
  EXPECT_EQ(log.add("p1", message(w, 0, 5), kStart + 2'900'000, 3.2), ReceptionLog::Outcome::Accepted);
  EXPECT_EQ(log.add("p1", message(w, 1, 1), kStart + 2'100'000, 3.3), ReceptionLog::Outcome::Accepted);
  auto bad = message(w, 1, 0);
  bad.back() ^= 1;
  EXPECT_EQ(log.add("p1", bad, kStart, 3.4), ReceptionLog::Outcome::ContentError);
  EXPECT_EQ(log.received(), 4u);
  EXPECT_FALSE(log.complete());
  const Json j = log.json_members();
  EXPECT_EQ(json_text(j).rfind(R"({"messages_completed":4,"bytes_completed":392,"expected":8,"content_errors":1,)"
                               R"("duplicates":1,"first_rx_s":1.0,"last_completion_s":3.3,"streams":{"pos":)", 0), 0u)
      << json_text(j);
  // pos: latencies 0.2, 0.4, 0.4 (two publishers' copies of #1, then #5), in microseconds.
  EXPECT_EQ(json_text(j["streams"]["pos"]),
            R"({"id":0,"expected":6,"received":3,"bytes":192,"sources":2,"final_updates_received":1,)"
            R"("latency_mean_s":0.333333,"latency_p50_s":0.4,"latency_p95_s":0.4,"latency_max_s":0.4})");
  EXPECT_EQ(json_text(j["streams"]["img"]).rfind(
                R"({"id":1,"expected":2,"received":1,"bytes":200,"sources":1,"final_updates_received":1,)", 0), 0u);
  ASSERT_EQ(j["messages"].size(), 4u);
  EXPECT_EQ(json_text(j["messages"][0]), R"({"publisher":"p1","stream":"pos","index":1,"bytes":64,"latency_s":0.2,)"
                                         R"("completed_unix":1700000000.7})");
}

TEST(ReceptionLog, WithoutAPlanStreamsAreNumberedAndExpectCompletes) {
  ReceptionLog log(Workload{}, 2);
  EXPECT_EQ(log.add("x", make_payload(50, {0, kStart, 0}), kStart + 1000, 0.1), ReceptionLog::Outcome::Accepted);
  EXPECT_FALSE(log.plan_end_unix_us().has_value());
  EXPECT_EQ(log.add("x", make_payload(50, {1, kStart, 0}), kStart + 3000, 0.2), ReceptionLog::Outcome::Accepted);
  EXPECT_TRUE(log.complete());
  const Json j = log.json_members();
  EXPECT_EQ(json_text(j["streams"]["stream-0"]).rfind(R"({"id":0,"expected":null,"received":2,"bytes":100,)", 0), 0u);
  EXPECT_EQ(j["streams"]["stream-0"]["latency_mean_s"], 0.002);
  EXPECT_EQ(j["first_rx_s"], 0.1);
}

TEST(ReceptionLog, BeforeAnyMessageFirstRxIsMinusOneAndFiguresAreNull) {
  const Workload w = parse_workload("a count=1 bytes=100\n");
  const Json j = ReceptionLog(w, 0).json_members();
  EXPECT_TRUE(j["first_rx_s"].is_number_integer());
  EXPECT_EQ(j["first_rx_s"], -1);
  EXPECT_EQ(json_text(j["streams"]["a"]),
            R"({"id":0,"expected":1,"received":0,"bytes":0,"sources":1,"final_updates_received":0,)"
            R"("latency_mean_s":null,"latency_p50_s":null,"latency_p95_s":null,"latency_max_s":null})");
}

TEST(ReceptionLog, PublisherNamesAreEscapedAsJsonStrings) {
  // Whatever text names a publisher (a quote, a backslash, control
  // characters, UTF-8), the record reads back as that text.
  ReceptionLog log(Workload{}, 1);
  const std::string odd = "p\"1\\\t\x01\xe2\x82\xac";
  EXPECT_EQ(log.add(odd, make_payload(50, {0, kStart, 0}), kStart + 1000, 0.1), ReceptionLog::Outcome::Accepted);
  const std::string text = json_text(log.json_members());
  EXPECT_NE(text.find(R"("publisher":"p\"1\\\t\u0001€")"), std::string::npos) << text;
  EXPECT_EQ(Json::parse(text)["messages"][0]["publisher"], odd);
}

TEST(ReceptionLog, QuantilesUseTheNearestRank) {
  EXPECT_FALSE(quantile({}, 0.5).has_value());
  EXPECT_DOUBLE_EQ(*quantile({4, 1, 3, 2}, 0.5), 2);
  EXPECT_DOUBLE_EQ(*quantile({4, 1, 3, 2}, 0.95), 4);
  EXPECT_DOUBLE_EQ(*quantile({4, 1, 3, 2}, 0), 1);
}

}  // namespace
}  // namespace dissem::load::load_logs_test
