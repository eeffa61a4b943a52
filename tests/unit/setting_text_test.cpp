// config/setting_text.h: strict parsing of setting values, refusals naming the key.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "config/setting_text.h"

namespace dissem::setting_text_test {
namespace {

// The refusal parsing `text` as a T in [lo, hi] under "k" gives ("" if accepted).
template <typename T>
std::string refusal(const std::string& text, T lo, T hi) {
  try {
    parse_number<T>("k", text, lo, hi);
  } catch (const SettingError& e) {
    EXPECT_EQ(e.key(), "k");
    EXPECT_EQ(std::string(e.what()), "k: " + e.reason());
    return e.what();
  }
  return "";
}

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

TEST(SettingText, WholeNumbersInRangeAreRead) {
  EXPECT_EQ(parse_number<std::uint32_t>("k", "0", 0, 10), 0u);
  EXPECT_EQ(parse_number<std::uint32_t>("k", "10", 0, 10), 10u);
  EXPECT_EQ(parse_number<std::uint32_t>("k", "007", 0, 10), 7u);
  EXPECT_EQ(parse_number<std::uint64_t>("k", "18446744073709551615", 0, kU64Max), kU64Max);
  EXPECT_EQ(parse_number<std::size_t>("k", "4096", 16, 1'000'000), 4096u);
  EXPECT_EQ(parse_number<std::uint32_t>("k", "-0", 0, 10), 0u) << "minus zero is zero";
}

TEST(SettingText, WholeNumbersOutsideTheBoundsAreOutOfRange) {
  EXPECT_EQ(refusal<std::uint32_t>("11", 0, 10), "k: 11 is out of range [0, 10]");
  EXPECT_EQ(refusal<std::uint32_t>("0", 1, 255), "k: 0 is out of range [1, 255]");
  EXPECT_EQ(refusal<std::uint64_t>("65536", 1, 65535), "k: 65536 is out of range [1, 65535]");
}

TEST(SettingText, NegativeNumbersForUnsignedTypesAreOutOfRange) {
  EXPECT_EQ(refusal<std::uint32_t>("-1", 0, 10), "k: -1 is out of range [0, 10]");
  EXPECT_EQ(refusal<std::uint64_t>("-18446744073709551616", 0, kU64Max),
            "k: -18446744073709551616 is out of range [0, 18446744073709551615]");
}

TEST(SettingText, WholeNumbersBeyondTheTypeAreOutOfRangeNotWrapped) {
  EXPECT_EQ(refusal<std::uint64_t>("18446744073709551616", 0, kU64Max),
            "k: 18446744073709551616 is out of range [0, 18446744073709551615]");
  EXPECT_EQ(refusal<std::uint32_t>("4294967296", 0, std::numeric_limits<std::uint32_t>::max()),
            "k: 4294967296 is out of range [0, 4294967295]");
  EXPECT_EQ(refusal<std::uint64_t>("99999999999999999999999", 0, 10), "k: 99999999999999999999999 is out of range [0, 10]");
}

TEST(SettingText, AnythingButDigitsIsNotAWholeNumber) {
  for (const std::string bad : {"", " 1", "1 ", "+1", "1x", "0x10", "1.0", "1e3", "abc", "-", "--1", "1,000", "nan"})
    EXPECT_EQ(refusal<std::uint32_t>(bad, 0, 2000), "k: '" + bad + "' is not a whole number") << bad;
  EXPECT_THROW(parse_number<std::uint32_t>("k", std::string("1\0", 2), 0, 10), SettingError) << "a NUL after the digits";
}

TEST(SettingText, RealNumbersInRangeAreRead) {
  EXPECT_DOUBLE_EQ(parse_number<double>("k", "0.5", 0, 1), 0.5);
  EXPECT_DOUBLE_EQ(parse_number<double>("k", "1", 0, 1), 1.0);
  EXPECT_DOUBLE_EQ(parse_number<double>("k", "-2.5", -3, 0), -2.5);
  EXPECT_DOUBLE_EQ(parse_number<double>("k", "1e3", 0, 1e4), 1000.0);
  EXPECT_DOUBLE_EQ(parse_number<double>("k", ".25", 0, 1), 0.25);
}

TEST(SettingText, RealNumbersOutsideTheBoundsAreOutOfRange) {
  EXPECT_EQ(refusal<double>("1.5", 0.0, 1.0), "k: 1.5 is out of range [0, 1]");
  EXPECT_EQ(refusal<double>("-0.1", 0.0, 1.0), "k: -0.1 is out of range [0, 1]");
  // The bounds print as a stream prints them (the messages were written so).
  EXPECT_EQ(refusal<double>("2e12", 0.0, 1e12), "k: 2e12 is out of range [0, 1e+12]");
}

TEST(SettingText, NaNAndInfinityAreNotFiniteNumbers) {
  for (const std::string bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "INF"})
    EXPECT_EQ(refusal<double>(bad, -1e300, 1e300), "k: '" + bad + "' is not a finite number") << bad;
}

TEST(SettingText, JunkAndOverflowAreNotValidRealNumbers) {
  for (const std::string bad : {"", " 1", "1 ", "+1", "1.5x", "0x1p3", "abc", "1e", "1e999", "--1", "1..2"})
    EXPECT_EQ(refusal<double>(bad, -1e300, 1e300), "k: '" + bad + "' is not a valid number") << bad;
}

TEST(SettingText, FlagsTakeFourSpellingsEachWay) {
  for (const std::string yes : {"true", "1", "yes", "on"}) EXPECT_TRUE(parse_flag("k", yes)) << yes;
  for (const std::string no : {"false", "0", "no", "off"}) EXPECT_FALSE(parse_flag("k", no)) << no;
  for (const std::string bad : {"", "True", "maybe", "2", "on "}) {
    try {
      parse_flag("net.offload", bad);
      ADD_FAILURE() << "'" << bad << "' was read as a flag";
    } catch (const SettingError& e) {
      EXPECT_EQ(std::string(e.what()), "net.offload: '" + bad + "' is not true or false");
    }
  }
}

TEST(SettingText, MillisecondsBecomeMicrosecondsAndPrintBack) {
  EXPECT_EQ(parse_millis("k", "12.5", 0, 100), 12'500);
  EXPECT_EQ(parse_millis("k", "0", 0, 100), 0);
  EXPECT_EQ(millis_text(12'500), "12.5");
  EXPECT_EQ(millis_text(parse_millis("k", "0.001", 0, 1)), "0.001");
  EXPECT_THROW(parse_millis("k", "100.5", 0, 100), SettingError);
  EXPECT_THROW(parse_millis("k", "5ms", 0, 100), SettingError);
}

TEST(SettingText, TextIsTakenAsItIsButANulByte) {
  EXPECT_EQ(parse_text("k", "a b=c"), "a b=c");
  EXPECT_EQ(parse_text("k", ""), "");
  try {
    parse_text("plugin.path", std::string("a\0b", 3));
    ADD_FAILURE() << "a NUL byte was accepted";
  } catch (const SettingError& e) {
    EXPECT_EQ(std::string(e.what()), "plugin.path: contains a NUL byte");
  }
}

TEST(SettingText, ExactTextReadsBackAsTheSameValue) {
  for (const double v : {0.1, 0.123456789, 1e12, 2.0 / 3.0, 86'400'000.0})
    EXPECT_EQ(parse_number<double>("k", exact_text(v), 0, 1e13), v) << exact_text(v);
  EXPECT_EQ(exact_text(std::uint64_t{18446744073709551615ull}), "18446744073709551615");
  EXPECT_EQ(exact_text(1.0), "1");
}

TEST(SettingText, ReadWholeNumberTakesDigitsThatFit64BitsOnly) {
  EXPECT_EQ(read_whole_number("0"), 0u);
  EXPECT_EQ(read_whole_number("18446744073709551615"), kU64Max);
  for (const std::string bad : {"", "-1", "+1", "1 ", "18446744073709551616", "1.0", "x"})
    EXPECT_FALSE(read_whole_number(bad).has_value()) << bad;
}

TEST(SettingText, ReadWholeNumberInBase16TakesHexDigitsOnly) {
  EXPECT_EQ(read_whole_number("a1", 16), 0xa1u);
  EXPECT_EQ(read_whole_number("FFFFFFFF", 16), 0xffffffffu);
  for (const std::string bad : {"", "0x1", " 1", "1 ", "-1", "+1", "g", "10000000000000000"})
    EXPECT_FALSE(read_whole_number(bad, 16).has_value()) << bad;
}

TEST(SettingText, ReadFiniteNumberTakesAWholeDecimalOrExponentFormOnly) {
  EXPECT_EQ(read_finite_number("0"), 0.0);
  EXPECT_EQ(read_finite_number("-2.5"), -2.5);
  EXPECT_EQ(read_finite_number("1e3"), 1000.0);
  for (const std::string bad : {"", "+1", " 1", "1 ", "1.0x", "nan", "inf", "-inf", "1e999", "0x10", "x"})
    EXPECT_FALSE(read_finite_number(bad).has_value()) << bad;
}

TEST(SettingText, ErrorsNameTheKeyOrSayItIsUnknown) {
  const SettingError refused("net.port", "70000 is out of range [1, 65535]");
  EXPECT_EQ(std::string(refused.what()), "net.port: 70000 is out of range [1, 65535]");
  EXPECT_EQ(refused.key(), "net.port");
  EXPECT_EQ(refused.reason(), "70000 is out of range [1, 65535]");
  const SettingError unknown = SettingError::unknown("net.prot");
  EXPECT_EQ(std::string(unknown.what()), "unknown key 'net.prot'");
  EXPECT_EQ(unknown.key(), "net.prot");
  EXPECT_EQ(unknown.reason(), "");
  EXPECT_THROW(refuse("k", "why"), SettingError);
}

}  // namespace
}  // namespace dissem::setting_text_test
