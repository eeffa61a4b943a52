// config/toml_parse.h: the one way TOML documents are read, and where their errors are.
#include <gtest/gtest.h>

#include "config/toml_parse.h"

namespace dissem::config::toml_parse_test {
namespace {

TEST(TomlParse, ReadsADocument) {
  toml::table t;
  EXPECT_EQ(parse_toml("[net]\nport = 4000\n", "a.toml", t), std::nullopt);
  EXPECT_EQ(t["net"]["port"].value<std::int64_t>(), 4000);
  EXPECT_EQ(toml_where("a.toml", *t["net"]["port"].node()), " (a.toml:2)");
}

TEST(TomlParse, SyntaxErrorsGiveSourceLineAndColumn) {
  toml::table t;
  const auto problem = parse_toml("[net]\nport = = 1\n", "a.toml", t);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->rfind("a.toml:2:", 0), 0u) << *problem;
}

TEST(TomlParse, TheInputGuardSpeaksFirst) {
  toml::table t;
  const auto problem = parse_toml("x = 1\n# \xC2\xA1\n", "a.toml", t);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->rfind("a.toml:2: character U+00A1", 0), 0u) << *problem;
}

}  // namespace
}  // namespace dissem::config::toml_parse_test
