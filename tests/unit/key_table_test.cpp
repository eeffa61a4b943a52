// config/key_table.h: a table of settings set by name from text and printed back.
#include <gtest/gtest.h>

#include <string>

#include "config/key_table.h"

namespace dissem::key_table_test {
namespace {

struct Settings {
  std::uint32_t count = 3;
  double share = 0.5;
  Micros delay = 20 * kMillis;
  bool on = true;
  std::string path = "/a";
};

using Table = KeyTable<Settings, int>;

const Table& table() {
  static const Table t({
      {"count", number_field(&Settings::count, 1, 10), 1},
      {"share", number_field(&Settings::share, 0.0, 1.0)},
      {"delay_ms", millis_field(&Settings::delay, 0, 1000)},
      {"on", flag_field(&Settings::on)},
      {"path", text_field(&Settings::path), 2},
  });
  return t;
}

std::string refusal(const std::string& key, const std::string& text) {
  Settings s;
  try {
    table().set(s, key, text);
  } catch (const SettingError& e) {
    return e.what();
  }
  return "";
}

TEST(KeyTable, SetsEachKeyFromItsText) {
  Settings s;
  table().set(s, "count", "7");
  table().set(s, "share", "0.25");
  table().set(s, "delay_ms", "2.5");
  table().set(s, "on", "off");
  table().set(s, "path", "/b c");
  EXPECT_EQ(s.count, 7u);
  EXPECT_DOUBLE_EQ(s.share, 0.25);
  EXPECT_EQ(s.delay, 2'500);
  EXPECT_FALSE(s.on);
  EXPECT_EQ(s.path, "/b c");
}

TEST(KeyTable, DescribesEveryKeyInTableOrderSoThatItReadsBack) {
  Settings s;
  s.count = 9;
  s.share = 0.123456789;
  s.delay = 1'234;
  const auto described = table().describe(s);
  ASSERT_EQ(described.size(), 5u);
  EXPECT_EQ(described[0], (std::pair<std::string, std::string>{"count", "9"}));
  EXPECT_EQ(described[1], (std::pair<std::string, std::string>{"share", "0.123456789"}));
  EXPECT_EQ(described[2], (std::pair<std::string, std::string>{"delay_ms", "1.234"}));
  EXPECT_EQ(described[3], (std::pair<std::string, std::string>{"on", "true"}));
  EXPECT_EQ(described[4], (std::pair<std::string, std::string>{"path", "/a"}));
  Settings back;
  back.count = 1;
  back.on = false;
  for (const auto& [key, text] : described) table().set(back, key, text);
  EXPECT_EQ(table().describe(back), described);
}

TEST(KeyTable, RefusalsNameTheKey) {
  EXPECT_EQ(refusal("count", "11"), "count: 11 is out of range [1, 10]");
  EXPECT_EQ(refusal("count", "3x"), "count: '3x' is not a whole number");
  EXPECT_EQ(refusal("share", "nan"), "share: 'nan' is not a finite number");
  EXPECT_EQ(refusal("delay_ms", "-1"), "delay_ms: -1 is out of range [0, 1000]");
  EXPECT_EQ(refusal("on", "maybe"), "on: 'maybe' is not true or false");
  EXPECT_EQ(refusal("colour", "red"), "unknown key 'colour'");
  EXPECT_EQ(refusal("Count", "1"), "unknown key 'Count'") << "names are exact";
}

TEST(KeyTable, ARefusedValueLeavesTheSettingAsItWas) {
  Settings s;
  EXPECT_THROW(table().set(s, "count", "0"), SettingError);
  EXPECT_THROW(table().set(s, "path", std::string("x\0y", 3)), SettingError);
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.path, "/a");
}

TEST(KeyTable, FindsEntriesWithWhatElseTheTableRecords) {
  ASSERT_NE(table().find("count"), nullptr);
  EXPECT_EQ(table().find("count")->info, 1);
  EXPECT_EQ(table().find("share")->info, 0);
  EXPECT_EQ(table().find("path")->info, 2);
  EXPECT_EQ(table().find("nope"), nullptr);
  EXPECT_EQ(table().entries().size(), 5u);
}

}  // namespace
}  // namespace dissem::key_table_test
