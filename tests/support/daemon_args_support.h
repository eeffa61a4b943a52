// Helpers for tests of dissemd's configuration: parsing a command line as
// dissemd would, the ConfigError it gives, and a fixture with a private
// directory for configuration and key files.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "daemon/daemon_args.h"
#include "daemon/daemon_config.h"

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "'" << (needle) << "' not in: " << (haystack)

namespace dissem::daemon::testing {

inline RuntimeEnvironment user_env() { return {false, "/run/user/1000", 1000}; }

inline DaemonArgs parse(std::initializer_list<std::string> args, const RuntimeEnvironment& env = user_env()) {
  std::vector<std::string> owned{"dissemd"};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<const char*> argv;
  for (const auto& a : owned) argv.push_back(a.c_str());
  return parse_daemon_args(static_cast<int>(argv.size()), argv.data(), env);
}

// The ConfigError message parsing `args` gives ("" if none).
inline std::string error_of(std::initializer_list<std::string> args) {
  try {
    parse(args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// A fresh directory under the temporary directory, removed afterwards.
class ConfigDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (std::filesystem::temp_directory_path() / "dissemd-config-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string file_error(const std::string& text) { return error_of({"--config", write("bad.toml", text)}); }

  std::filesystem::path dir_;
};

}  // namespace dissem::daemon::testing
