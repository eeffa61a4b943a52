// dissemd's [security] keys: where the key files are (never the keys), how
// bad items are refused naming the key, that --print-config shows paths only,
// and that the EngineConfig the node starts with holds the keys and leaves
// room in each datagram for them.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "daemon/config_toml.h"
#include "daemon/daemon_args.h"
#include "daemon/daemon_config.h"
#include "support/daemon_args_support.h"
#include "daemon/key_files.h"

namespace dissem::daemon::daemon_security_config_test {
namespace {

namespace fs = std::filesystem;

using testing::error_of;
using testing::parse;
using testing::user_env;

class SecurityConfigFiles : public testing::ConfigDirTest {};


}  // namespace

TEST_F(SecurityConfigFiles, SecurityKeysNameKeyFiles) {
  const auto path = write("s.toml", "[security]\nnetwork_key_file = \"/etc/dissem/net.key\"\n"
                                    "group_keys = [\"news=/etc/dissem/news\", \"two words=k/two=x\"]\n");
  const auto c = parse({"--config", path}).config;
  EXPECT_EQ(c.security.network_key_file, "/etc/dissem/net.key");
  EXPECT_EQ(c.security.group_keys,
            (std::vector<GroupKeyFiles>{{"news", "/etc/dissem/news"}, {"two words", "k/two=x"}}));
  const auto printed = to_toml(c);
  EXPECT_CONTAINS(printed, "\n[security]\nnetwork_key_file = \"/etc/dissem/net.key\"\n"
                           "group_keys = [\"news=/etc/dissem/news\", \"two words=k/two=x\"]\n");
  EXPECT_EQ(parse({"--config", write("printed.toml", printed)}).config, c);

  // The default: an open network, printed so that it reads back.
  const auto open = parse({}).config;
  EXPECT_TRUE(open.security.empty());
  EXPECT_CONTAINS(to_toml(open), "\n[security]\nnetwork_key_file = \"\"\ngroup_keys = []\n");
  EXPECT_EQ(parse({"--config", write("open.toml", to_toml(open))}).config, open);

  const auto set = parse({"--config", path, "--set", "security.group_keys=g=/k/g,h=/k/h", "--set",
                          "security.network_key_file="})
                       .config;
  EXPECT_EQ(set.security.group_keys, (std::vector<GroupKeyFiles>{{"g", "/k/g"}, {"h", "/k/h"}}));
  EXPECT_EQ(set.security.network_key_file, "");
}

TEST_F(SecurityConfigFiles, BadGroupKeysNameTheKey) {
  EXPECT_EQ(error_of({"--set", "security.group_keys=news"}),
            "security.group_keys: 'news' is not of the form GROUP=PREFIX");
  EXPECT_EQ(error_of({"--set", "security.group_keys==/k/x"}), "security.group_keys: '=/k/x' names no group before '='");
  EXPECT_EQ(error_of({"--set", "security.group_keys=news="}),
            "security.group_keys: 'news=' names no key file prefix after '='");
  EXPECT_EQ(error_of({"--set", "security.group_keys=a=/k/a,a=/k/b"}), "security.group_keys: group 'a' is listed twice");
  EXPECT_EQ(error_of({"--set", "security.group_keys=a=/k/a,"}),
            "security.group_keys: '' is not of the form GROUP=PREFIX");
  EXPECT_CONTAINS(error_of({"--set", "security.group_keys= a=/k/a"}), "security.group_keys: group ' a' starts or ends");
  const auto from_file = file_error("[security]\ngroup_keys = [\"news\"]\n");
  EXPECT_CONTAINS(from_file, "security.group_keys: 'news' is not of the form GROUP=PREFIX (");
  EXPECT_CONTAINS(from_file, "bad.toml:2)");
  EXPECT_CONTAINS(file_error("[security]\ngroup_keys = \"news=/k\"\n"), "security.group_keys: expected an array");
  EXPECT_CONTAINS(file_error("[security]\ngroup_keys = [\"\"]\n"), "security.group_keys: an item is empty");
  EXPECT_CONTAINS(file_error("[security]\nnetwork_key = \"x\"\n"), "unknown key 'security.network_key'");
  EXPECT_CONTAINS(file_error("[security]\nnetwork_key_file = 1\n"), "security.network_key_file: expected a string");
}

// Key material is never text in a configuration: --print-config shows where
// the keys are, not the keys, even when the files are there.
TEST_F(SecurityConfigFiles, PrintConfigShowsKeyFilePathsNeverKeys) {
  const auto net = (dir_ / "net.key").string(), prefix = (dir_ / "news").string();
  create_key_file(net, KeyKind::Network, "", 1, generate_network_key());
  SigningPair pair;
  generate_signing_pair(pair);
  create_key_file(prefix + ".verify", KeyKind::Verify, "news", 1, pair.verify);
  create_key_file(prefix + ".sign", KeyKind::Sign, "news", 1, pair.sign);
  const auto args = parse({"--print-config", "--set", "security.network_key_file=" + net, "--set",
                           "security.group_keys=news=" + prefix});
  ASSERT_EQ(args.action, StartAction::PrintConfig);
  const auto text = to_toml(args.config);
  EXPECT_CONTAINS(text, "network_key_file = \"" + net + "\"\n");
  EXPECT_CONTAINS(text, "group_keys = [\"news=" + prefix + "\"]\n");
  std::size_t run = 0, longest = 0;
  for (const char ch : text) {
    run = std::isxdigit(static_cast<unsigned char>(ch)) ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  EXPECT_LT(longest, 64u) << text;
}

TEST_F(SecurityConfigFiles, EngineConfigForLoadsKeysAndKeepsRoomForThem) {
  const auto net = (dir_ / "net.key").string(), prefix = (dir_ / "news").string();
  create_key_file(net, KeyKind::Network, "", 4, generate_network_key());
  SigningPair pair;
  generate_signing_pair(pair);
  create_key_file(prefix + ".verify", KeyKind::Verify, "news", 1, pair.verify);
  create_key_file(prefix + ".sign", KeyKind::Sign, "news", 1, pair.sign);
  DaemonConfig c = default_config(user_env());
  c.security.network_key_file = net;
  c.security.group_keys = {{"news", prefix}};
  const auto e = engine_config_for(c, 42, 1, 1500);
  EXPECT_EQ(e.security.network.count(4), 1u);
  ASSERT_NE(e.security.group("news"), nullptr);
  EXPECT_EQ(e.security.group("news")->sign.at(1), pair.sign);
  EXPECT_EQ(e.payload_size, 1288u);
  EXPECT_EQ(engine_config_for(default_config(user_env()), 42, 1, 1500).payload_size, 1400u) << "open network";

  // A bad file stops start-up naming the key and the file.
  ::chmod(net.c_str(), 0644);
  try {
    engine_config_for(c, 42, 1, 1500);
    FAIL() << "a world-readable network key was loaded";
  } catch (const ConfigError& err) {
    EXPECT_CONTAINS(err.what(), "security.network_key_file: " + net + ": mode 0644");
  }
  c.security.network_key_file.clear();
  c.security.group_keys = {{"news", (dir_ / "absent").string()}};
  try {
    engine_config_for(c, 42, 1, 1500);
    FAIL() << "a group without its verify file was loaded";
  } catch (const ConfigError& err) {
    EXPECT_CONTAINS(err.what(), "security.group_keys: " + (dir_ / "absent.verify").string() + ": cannot open");
  }
}

}  // namespace dissem::daemon::daemon_security_config_test

namespace dissem::daemon::daemon_security_config_test {

TEST(SecuritySendFrom, EpochSwitchTimesReadPrintAndReachTheEngine) {
  using testing::error_of;
  using testing::parse;
  const auto c = parse({"--set", "security.send_from=2=1767225600,3=1798761600"}).config;
  EXPECT_EQ(c.security.send_from, (std::map<std::uint32_t, std::uint64_t>{{2, 1767225600}, {3, 1798761600}}));
  EXPECT_NE(to_toml(c).find("send_from = [\"2=1767225600\", \"3=1798761600\"]"), std::string::npos) << to_toml(c);
  EXPECT_EQ(load_security(c.security).send_from, c.security.send_from);
  EXPECT_EQ(engine_config_for(c, 1, 1).security.send_from, c.security.send_from) << "the node switches at these times";
  EXPECT_EQ(error_of({"--set", "security.send_from=2"}),
            "security.send_from: '2' is not of the form EPOCH=UNIX_SECONDS (epoch 1 or more)");
  EXPECT_EQ(error_of({"--set", "security.send_from=0=5"}),
            "security.send_from: '0=5' is not of the form EPOCH=UNIX_SECONDS (epoch 1 or more)");
  EXPECT_EQ(error_of({"--set", "security.send_from=2=x"}),
            "security.send_from: '2=x' is not of the form EPOCH=UNIX_SECONDS (epoch 1 or more)");
  EXPECT_EQ(error_of({"--set", "security.send_from=2=5,2=6"}), "security.send_from: epoch 2 is listed twice");
}

}  // namespace dissem::daemon::daemon_security_config_test
