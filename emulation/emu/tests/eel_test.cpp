#include "eel.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dissem::emu {
namespace {

EelScenario parse(const std::string& text, std::size_t nodes = 5) {
  std::istringstream in(text);
  return parse_eel(in, "test.eel", nodes);
}

std::string error_of(const std::string& text, std::size_t nodes = 5) {
  try {
    parse(text, nodes);
  } catch (const EelError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Eel, LineDescribesLinkFromLeadingNemToEntryNem) {
  const auto s = parse("0.0 nem:1 commeffect nem:2,0.040,0.005,20,1.5,256000,128000\n");
  ASSERT_EQ(s.events.size(), 1u);
  const auto& e = s.events[0];
  // EMANE's eelloadercommeffect: frames sent by NEM 1 as received at NEM 2.
  EXPECT_EQ(e.sender, 1u);
  EXPECT_EQ(e.receiver, 2u);
  EXPECT_EQ(e.at, 0);
  EXPECT_EQ(e.effects.latency, 40'000'000);
  EXPECT_EQ(e.effects.jitter, 5'000'000);
  EXPECT_DOUBLE_EQ(e.effects.loss_pct, 20);
  EXPECT_DOUBLE_EQ(e.effects.duplicate_pct, 1.5);
  EXPECT_EQ(e.effects.unicast_bps, 256000u);
  EXPECT_EQ(e.effects.broadcast_bps, 128000u);
  EXPECT_EQ(e.line, 1u);
}

TEST(Eel, MultiEntryLinesCommentsAndBlankLines) {
  const auto s = parse(
      "# a partition at 10 s\n"
      "\n"
      "   0.0 nem:3 commeffect nem:1,0,0,0,0,0,0 nem:2,0.01,0,5,0,0,0   # two links\n"
      "10 nem:3 CommEffect nem:1,0,0,100,0,0,0\n");
  ASSERT_EQ(s.events.size(), 3u);
  EXPECT_EQ(s.events[0].sender, 3u);
  EXPECT_EQ(s.events[0].receiver, 1u);
  EXPECT_EQ(s.events[1].receiver, 2u);
  EXPECT_EQ(s.events[1].effects.latency, 10'000'000);
  EXPECT_EQ(s.events[1].line, 3u);
  EXPECT_EQ(s.events[2].at, 10 * kNsPerSecond);
  EXPECT_TRUE(s.events[2].effects.passes_nothing());
}

TEST(Eel, SortsByTimeKeepingFileOrderForTies) {
  const auto s = parse(
      "5 nem:1 commeffect nem:2,0,0,1,0,0,0\n"
      "1 nem:1 commeffect nem:2,0,0,2,0,0,0\n"
      "5 nem:1 commeffect nem:2,0,0,3,0,0,0\n"
      "1 nem:1 commeffect nem:2,0,0,4,0,0,0\n");
  ASSERT_EQ(s.events.size(), 4u);
  EXPECT_DOUBLE_EQ(s.events[0].effects.loss_pct, 2);
  EXPECT_DOUBLE_EQ(s.events[1].effects.loss_pct, 4);
  EXPECT_DOUBLE_EQ(s.events[2].effects.loss_pct, 1);
  EXPECT_DOUBLE_EQ(s.events[3].effects.loss_pct, 3);
}

TEST(Eel, OtherEventTypesAreCountedAndIgnored) {
  const auto s = parse(
      "0.0 nem:1 location gps 40.031075,-74.523518,3.000000\n"
      "0.0 nem:2 location gps 40.031165,-74.523412,3.000000\n"
      "0.0 nem:1 pathloss nem:2,90 nem:3,90\n"
      "0.0 nem:1 antennaprofile 1,0.0,0.0\n"
      "0.0 nem:1 commeffect nem:2,0,0,0,0,0,0\n");
  EXPECT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.ignored.at("location"), 2u);
  EXPECT_EQ(s.ignored.at("pathloss"), 1u);
  EXPECT_EQ(s.ignored.at("antennaprofile"), 1u);
}

TEST(Eel, ErrorsNameFileLineAndField) {
  EXPECT_EQ(error_of("\n\n0 nem:1 commeffect nem:2,0,0,120,0,0,0\n"),
            "test.eel:3: field 'loss': 120 is not a percentage in 0..100");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,0,0,0,-1,0,0\n"),
            "test.eel:1: field 'duplicate': -1 is not a percentage in 0..100");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,abc,0,0,0,0,0\n"),
            "test.eel:1: field 'latency': 'abc' is not a number of seconds");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,0,-0.5,0,0,0,0\n"), "test.eel:1: field 'jitter': -0.5 is negative");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,0,0,0,0,1.5,0\n"),
            "test.eel:1: field 'unicast_bps': '1.5' is not a non-negative whole number of bits per second");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,0,0,0,0,0,-3\n"),
            "test.eel:1: field 'broadcast_bps': '-3' is not a non-negative whole number of bits per second");
  EXPECT_EQ(error_of("0 nem:9 commeffect nem:2,0,0,0,0,0,0\n"),
            "test.eel:1: field 'sending nem': nem id 9 is not in 1..5");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,0,0,0,0,0,0 nem:0,0,0,0,0,0,0\n"),
            "test.eel:1: field 'receiving nem': nem id 0 is not in 1..5");
  EXPECT_EQ(error_of("x nem:1 commeffect nem:2,0,0,0,0,0,0\n"),
            "test.eel:1: field 'time': 'x' is not a number of seconds");
  EXPECT_EQ(error_of("-1 nem:1 commeffect nem:2,0,0,0,0,0,0\n"), "test.eel:1: field 'time': -1 is negative");
  EXPECT_EQ(error_of("0 node1 commeffect nem:2,0,0,0,0,0,0\n"),
            "test.eel:1: field 'sending nem': 'node1' is not of the form nem:<id>");
}

TEST(Eel, StructuralErrors) {
  EXPECT_EQ(error_of("0 nem:1\n"), "test.eel:1: expected '<time> nem:<id> <event type> ...'");
  EXPECT_EQ(error_of("0 nem:1 commeffect\n"), "test.eel:1: commeffect event has no nem:<id>,... entries");
  EXPECT_EQ(error_of("0 nem:1 commeffect nem:2,0,0,0\n"),
            "test.eel:1: commeffect entry 'nem:2,0,0,0' has 4 fields; expected 7: "
            "nem:<id>,latency,jitter,loss,duplicate,unicast_bps,broadcast_bps");
  EXPECT_EQ(error_of("0 nem:2 commeffect nem:2,0,0,0,0,0,0\n"),
            "test.eel:1: entry 'nem:2,0,0,0,0,0,0' sets an effect of nem 2 on itself");
}

TEST(Eel, MissingFileIsNamed) {
  try {
    load_eel_file("/nonexistent/scenario.eel", 3);
    FAIL() << "no error";
  } catch (const EelError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/scenario.eel: cannot open EEL file");
  }
}

}  // namespace
}  // namespace dissem::emu
