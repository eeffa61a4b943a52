// A real dissemd with the example controller plugin: it loads at start-up
// and decides forwarding; a plugin it cannot use stops start-up naming the file.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "client/client.h"
#include "support/daemon_process.h"
#include "support/run_capture.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using dissem::testing::DaemonProcess;

namespace dissemd_plugin_test {
namespace {

using dissem::testing::run_capture;

class DissemdPlugin : public dissem::testing::DaemonTest {};

std::uint64_t forwards_received(dissem::client::Client& c) {
  return c.stats().engine.received[static_cast<std::size_t>(dissem::engine::TrafficKind::Forward)].datagrams;
}

}  // namespace

TEST_F(DissemdPlugin, TheExamplePluginDecidesWhatTheDaemonRebroadcasts) {
  const std::vector<std::string> with_plugin = {"--set", std::string("controllers.plugin.path=") + DISSEM_EXAMPLE_PLUGIN,
                                                "--set", "controllers.plugin.params=min_priority=2,delay_us=1000",
                                                "--set", "controllers.forwarding=plugin"};
  DaemonProcess d0(dir_, "d0", port_, with_plugin), d1(dir_, "d1", port_, with_plugin);
  dissem::client::Client c0(d0.socket()), c1(d1.socket());
  c1.subscribe("alerts");
  // Routine traffic stays where it is heard.
  c0.publish("alerts", std::vector<std::uint8_t>(2000, 1), 0);
  ASSERT_TRUE(c1.next_delivery(30s));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(forwards_received(c0), 0u);
  // An urgent message is rebroadcast by d1: d0 hears its own message again,
  // marked as a rebroadcast.
  c0.publish("alerts", std::vector<std::uint8_t>(2000, 2), 2);
  ASSERT_TRUE(c1.next_delivery(30s));
  for (int i = 0; i < 50 && forwards_received(c0) == 0; ++i) std::this_thread::sleep_for(100ms);
  EXPECT_GT(forwards_received(c0), 0u);
  EXPECT_GT(c1.stats().engine.forwards_queued, 0u);
}

TEST_F(DissemdPlugin, AnUnusablePluginStopsStartUpNamingTheFile) {
  int code = 0;
  std::string command = DISSEMD_PATH;
  command += " --cache ";
  command += (dir_ / "c.db").string();
  command += " --socket ";
  command += (dir_ / "s.sock").string();
  command += " --set controllers.plugin=";
  command += DISSEM_PLUGIN_OTHER_MAJOR;
  const auto out = run_capture(command, &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find(DISSEM_PLUGIN_OTHER_MAJOR), std::string::npos) << out;
  EXPECT_NE(out.find("ABI version 3.0, this build expects ABI version 2.x"), std::string::npos) << out;
}

}  // namespace dissemd_plugin_test
