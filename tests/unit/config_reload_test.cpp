// What a reload of dissemd takes (daemon/config_reload.h): the revocation
// keys read, printed and refused naming the key; which changed keys a
// running daemon applies and which wait for a restart; and the configuration
// it runs with afterwards.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/config_reload.h"
#include "daemon/config_toml.h"
#include "daemon/daemon_config.h"
#include "support/daemon_args_support.h"

namespace dissem::daemon::config_reload_test {

using testing::error_of;
using testing::parse;

TEST(RevocationKeys, EpochsAndPublishersReadPrintAndReachTheEngine) {
  const auto c = parse({"--set", "security.revoked_epochs=1,3", "--set", "security.revoked_publishers=0xa1,7"}).config;
  EXPECT_EQ(c.security.revoked_epochs, (std::set<std::uint32_t>{1, 3}));
  EXPECT_EQ(c.security.revoked_publishers, (std::set<std::uint32_t>{7, 0xa1}));
  EXPECT_NE(to_toml(c).find("revoked_publishers = [\"7\", \"161\"]"), std::string::npos) << to_toml(c);
  const auto e = engine_config_for(c, 1, 1);
  EXPECT_EQ(e.security.revoked_epochs, c.security.revoked_epochs);
  EXPECT_TRUE(e.security.revoked_publisher(0xa1)) << "in an open network too";
  EXPECT_EQ(error_of({"--set", "security.revoked_epochs=0"}),
            "security.revoked_epochs: '0' is not a key epoch (1 to 4294967295, or 0x hex)");
  EXPECT_EQ(error_of({"--set", "security.revoked_publishers=0xzz"}),
            "security.revoked_publishers: '0xzz' is not a node id (1 to 4294967295, or 0x hex)");
  EXPECT_EQ(error_of({"--set", "security.revoked_epochs=2,2"}), "security.revoked_epochs: 2 is listed twice");
}

TEST(ReloadPlan, ChangedKeysAreSplitIntoTakenNowAndNeedingARestart) {
  const DaemonConfig running = parse({}).config;
  const DaemonConfig next = parse({"--set", "log.level=debug", "--set", "net.port=4000", "--set",
                                   "engine.request_probability=0.4", "--set", "engine.payload_size=900", "--set",
                                   "security.revoked_publishers=9", "--set", "metrics.enabled=true", "--set",
                                   "controllers.forwarding=flooding"})
                              .config;
  const ReloadPlan plan = plan_reload(running, next);
  EXPECT_EQ(plan.live, (std::vector<std::string>{"metrics.enabled", "log.level", "security.revoked_publishers",
                                                 "engine.request_probability"}));
  EXPECT_EQ(plan.restart, (std::vector<std::string>{"net.port", "engine.payload_size", "controllers.forwarding.name"}));
  EXPECT_TRUE(plan_reload(running, running).live.empty());
  EXPECT_TRUE(plan_reload(running, running).restart.empty());

  const DaemonConfig after = reloaded_config(running, next);
  EXPECT_EQ(after.log.level, LogLevel::Debug);
  EXPECT_TRUE(after.metrics.enabled);
  EXPECT_EQ(after.security.revoked_publishers, (std::set<std::uint32_t>{9}));
  EXPECT_DOUBLE_EQ(after.engine.request_probability, 0.4);
  EXPECT_EQ(after.net.port, running.net.port) << "kept until a restart";
  EXPECT_EQ(after.engine.payload_size, running.engine.payload_size);
  EXPECT_EQ(after.engine.controllers.forwarding, running.engine.controllers.forwarding);
  // What was not applied is named again at the next reload.
  EXPECT_EQ(plan_reload(after, next).restart, plan.restart);
  EXPECT_TRUE(plan_reload(after, next).live.empty());
}

TEST(ReloadPlan, OnlyKeysARunningDaemonCanTakeAreReloadable) {
  for (const char* key : {"log.level", "ipc.mode", "metrics.listen", "security.group_keys", "security.send_from",
                          "engine.cache_full", "engine.max_clock_skew_ms"})
    EXPECT_TRUE(reloadable_key(key)) << key;
  for (const char* key : {"net.interfaces", "net.port", "cache.path", "node.node_id", "ipc.socket",
                          "engine.payload_size", "engine.link_capacity_bps", "controllers.forwarding.name"})
    EXPECT_FALSE(reloadable_key(key)) << key;
}

}  // namespace dissem::daemon::config_reload_test

namespace dissem::daemon::config_reload_test {

// The sample file marks "Reloadable." exactly the engine keys a running
// daemon takes.
TEST(ReloadPlan, TheExampleFileMarksTheReloadableEngineKeys) {
  const auto path = std::filesystem::path(DISSEM_SOURCE_DIR) / "docs" / "dissemd.example.toml";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line, previous, section;
  std::size_t marked = 0;
  while (std::getline(in, line)) {
    if (line.starts_with("[")) section = line.substr(1, line.find(']') - 1);
    const auto eq = line.find(" = ");
    if (section == "engine" && eq != std::string::npos && !line.starts_with("#")) {
      const std::string key = "engine." + line.substr(0, eq);
      EXPECT_EQ(previous == "# Reloadable.", reloadable_key(key)) << key;
      marked += previous == "# Reloadable." ? 1 : 0;
    }
    previous = line;
  }
  EXPECT_EQ(marked, 9u);
}

}  // namespace dissem::daemon::config_reload_test
