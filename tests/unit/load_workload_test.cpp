// An experiment's workload (src/tools/load/workload): streams parsed from a
// plan, their interleaved schedule and their tags.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "tools/load/workload.h"

namespace dissem::load::load_workload_test {
namespace {

TEST(Workload, ParsesStreamsWithDefaultsFlagsAndComments) {
  const Workload w = parse_workload(
      "# seed 000, experiment 3\n"
      "position count=1000 bytes=1024 rate_hz=20 sources=20 replace\n"
      "\n"
      "image, count=6, bytes=5120, rate_hz=0.1, priority=1, lifetime_ms=30000, replace=no  # reliable\n");
  ASSERT_EQ(w.streams.size(), 2u);
  const StreamSpec& p = w.streams[0];
  EXPECT_EQ(p.name, "position");
  EXPECT_EQ(p.count, 1000u);
  EXPECT_EQ(p.bytes, 1024u);
  EXPECT_DOUBLE_EQ(p.rate_hz, 20);
  EXPECT_EQ(p.sources, 20u);
  EXPECT_TRUE(p.replace);
  EXPECT_EQ(p.priority, 0u);
  EXPECT_EQ(p.lifetime_ms, 0u);
  const StreamSpec& i = w.streams[1];
  EXPECT_EQ(i.priority, 1u);
  EXPECT_EQ(i.lifetime_ms, 30000u);
  EXPECT_FALSE(i.replace);
  EXPECT_EQ(w.total_messages(), 1006u);
  EXPECT_EQ(w.total_bytes(), 1000u * 1024 + 6u * 5120);
  EXPECT_DOUBLE_EQ(w.duration_s(), 50.0);  // the sixth image, 10 s apart
}

TEST(Workload, BadStreamsAreRefusedNamingStreamAndItem) {
  const std::pair<const char*, const char*> cases[] = {
      {"p count=10 bytes=1024", "rate_hz"},
      {"p bytes=1024 rate_hz=1", "count"},
      {"p count=1 bytes=19", "bytes"},
      {"p count=2 bytes=100 rate_hz=1 sources=3", "sources"},
      {"p count=2 bytes=100 rate_hz=-1", "rate_hz"},
      {"p count=2 bytes=100 rate_hz=1 colour=red", "unknown item 'colour'"},
      {"p count=2 bytes=100 rate_hz=1 replace=maybe", "replace"},
      {"p count=2 bytes=100 rate_hz=1 fast", "'fast'"},
      {"bad/name count=1 bytes=100", "name"},
      {"p count=2x bytes=100 rate_hz=1", "count"},
  };
  for (const auto& [text, fragment] : cases) {
    try {
      parse_workload(text);
      ADD_FAILURE() << "accepted " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << text << ": " << e.what();
    }
  }
  EXPECT_THROW(parse_workload("# nothing\n"), std::invalid_argument);
  EXPECT_THROW(parse_workload("a count=1 bytes=100\na count=1 bytes=100\n"), std::invalid_argument);
  EXPECT_THROW(parse_workload("a count=1000000 bytes=100 rate_hz=1\nb count=1 bytes=100\n"), std::invalid_argument);
}

TEST(Workload, ScheduleInterleavesStreamsByProductionTime) {
  const Workload w = parse_workload("a count=3 bytes=100 rate_hz=2\nb count=2 bytes=200 rate_hz=1 start_s=0.25\n");
  const auto s = schedule(w);
  ASSERT_EQ(s.size(), 5u);
  const double at[] = {0, 0.25, 0.5, 1.0, 1.25};
  const std::uint32_t stream[] = {0, 1, 0, 0, 1};
  const std::uint32_t index[] = {0, 0, 1, 2, 1};
  for (std::size_t k = 0; k < s.size(); ++k) {
    EXPECT_DOUBLE_EQ(s[k].at_s, at[k]) << k;
    EXPECT_EQ(s[k].stream, stream[k]) << k;
    EXPECT_EQ(s[k].index, index[k]) << k;
    EXPECT_EQ(s[k].bytes, stream[k] == 0 ? 100u : 200u) << k;
  }
  // Equal times keep stream order.
  const auto tied = schedule(parse_workload("a count=2 bytes=100 rate_hz=1\nb count=2 bytes=100 rate_hz=1\n"));
  EXPECT_EQ(tied[0].stream, 0u);
  EXPECT_EQ(tied[1].stream, 1u);
  EXPECT_EQ(offset_us(1.25), 1'250'000);
}

TEST(Workload, TagsArePerStreamOrPerSource) {
  const StreamSpec p = parse_stream("position,count=40,bytes=1024,rate_hz=20,sources=20");
  EXPECT_EQ(p.source_of(23), 3u);
  EXPECT_EQ(tag_of(p, 23, TagScheme::Stream), "position");
  EXPECT_EQ(tag_of(p, 23, TagScheme::Source), "position/3");
  const StreamSpec one = parse_stream("sensor count=4 bytes=1024 rate_hz=20");
  EXPECT_EQ(tag_of(one, 2, TagScheme::Source), "sensor");
  EXPECT_EQ(tag_of(p, 23, TagScheme::None), "") << "untagged";
  EXPECT_EQ(parse_tag_scheme("source"), TagScheme::Source);
  EXPECT_EQ(parse_tag_scheme("none"), TagScheme::None);
  EXPECT_THROW(parse_tag_scheme("flow"), std::invalid_argument);
}

TEST(Workload, PlanFileAndStreamOptionsCombine) {
  const std::string path = ::testing::TempDir() + "load_workload_test.plan";
  {
    std::ofstream f(path);
    f << "a count=2 bytes=100 rate_hz=1\n";
  }
  const Workload w = workload_from_options(path, {"b,count=1,bytes=100"});
  ASSERT_EQ(w.streams.size(), 2u);
  EXPECT_EQ(w.streams[1].name, "b");
  EXPECT_TRUE(workload_from_options("", {}).streams.empty());
  EXPECT_THROW(workload_from_options(path, {"a,count=1,bytes=100"}), std::invalid_argument);  // name twice
  try {
    load_workload_file(path + ".missing");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(".missing"), std::string::npos);
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace dissem::load::load_workload_test
