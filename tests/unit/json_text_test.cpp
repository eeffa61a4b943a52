// The project's one way of writing JSON (core/json.h): compact text in the
// order members were added, strings escaped, bytes that are not UTF-8
// replaced rather than fatal, and numbers kept at the precision a result
// always had.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/json.h"

namespace dissem::json_text_test {
namespace {

TEST(JsonText, KeepsMembersInTheOrderTheyWereAdded) {
  Json j;
  j["zebra"] = 1;
  j["apple"] = true;
  j["mango"] = "m";
  EXPECT_EQ(json_text(j), R"({"zebra":1,"apple":true,"mango":"m"})");
  EXPECT_EQ(json_text(j, 1), "{\n \"zebra\": 1,\n \"apple\": true,\n \"mango\": \"m\"\n}");
}

TEST(JsonText, EscapesQuotesBackslashesAndEveryControlCharacter) {
  std::string all_controls;
  for (char c = 1; c < 0x20; ++c) all_controls += c;
  const Json j = {{"g", std::string("a\"b\\c/") + all_controls}};
  const std::string text = json_text(j);
  EXPECT_EQ(text.rfind(R"({"g":"a\"b\\c/\u0001\u0002)", 0), 0u) << text;
  EXPECT_NE(text.find(R"(\b\t\n\u000b\f\r\u000e)"), std::string::npos) << text;
  for (char c : text) EXPECT_GE(static_cast<unsigned char>(c), 0x20u) << text;
  EXPECT_EQ(Json::parse(text)["g"], j["g"]);
}

TEST(JsonText, WritesUtf8AsItIsAndReplacesBytesThatAreNotUtf8) {
  const Json good = {{"group", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\xa1"}};
  EXPECT_EQ(json_text(good), "{\"group\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\xa1\"}");
  const Json bad = {{"group", std::string("x\xff\xfey")}};
  const std::string text = json_text(bad);
  EXPECT_EQ(text, "{\"group\":\"x\xef\xbf\xbd\xef\xbf\xbdy\"}");  // U+FFFD each
  EXPECT_EQ(Json::parse(text)["group"], "x\xef\xbf\xbd\xef\xbf\xbdy");
}

TEST(JsonText, IntegersStayIntegersAndNonFiniteNumbersAreNull) {
  const Json j = {{"u", std::uint64_t{18446744073709551615ull}},
                  {"i", std::int64_t{-5}},
                  {"d", 1.0},
                  {"nan", std::nan("")},
                  {"inf", std::numeric_limits<double>::infinity()},
                  {"none", json_or_null(std::optional<int>())},
                  {"some", json_or_null(std::optional<int>(7))}};
  EXPECT_EQ(json_text(j), R"({"u":18446744073709551615,"i":-5,"d":1.0,"nan":null,"inf":null,"none":null,"some":7})");
}

TEST(JsonNumbers, RoundToDecimalsReadsBackAsTheFixedText) {
  EXPECT_EQ(round_to_decimals(0.1234565001, 6), 0.123457);
  EXPECT_EQ(round_to_decimals(1700000000.2500004, 6), 1700000000.25);
  EXPECT_EQ(round_to_decimals(2.0 / 3.0, 2), 0.67);
  EXPECT_EQ(round_to_decimals(12.5, 0), 12.0);  // "%.0f" rounds half to even
  EXPECT_EQ(round_to_decimals(13.5, 0), 14.0);
  EXPECT_EQ(round_to_decimals(1e300, 6), 1e300);
  EXPECT_EQ(json_text(Json(round_to_decimals(0.30000000000000004, 6))), "0.3");
  EXPECT_TRUE(std::isnan(round_to_decimals(std::nan(""), 6)));
}

TEST(JsonNumbers, RoundToSignificantReadsBackAsTheGeneralText) {
  EXPECT_EQ(round_to_significant(1.23456789, 6), 1.23457);
  EXPECT_EQ(round_to_significant(123456789.0, 6), 123457000.0);
  EXPECT_EQ(round_to_significant(0.000123456789, 6), 0.000123457);
  EXPECT_EQ(round_to_significant(-1.0, 6), -1.0);
  EXPECT_EQ(json_text(Json(round_to_significant(1.0 / 3.0, 6))), "0.333333");
}

}  // namespace
}  // namespace dissem::json_text_test
