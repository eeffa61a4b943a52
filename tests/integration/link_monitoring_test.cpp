// Link monitoring end to end: two dissemd on loopback, a C++ client watching
// link events over IPC, and `dissem peers` / `dissem peers --watch` (driven
// for a bounded time, and stopped by SIGTERM).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "engine/link_watch.h"
#include "support/daemon_process.h"
#include "support/run_capture.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace link_monitoring_test {
namespace {

using dissem::testing::DaemonProcess;
using Kind = dissem::engine::LinkEvent::Kind;

std::string cli_path() { return dissem::testing::dissem_cli_path(); }

// Beacons five times a second: loss evidence (8 beacons) within two seconds.
const std::vector<std::string> kFastBeacons{"--set", "engine.beacon_interval_ms=200"};

std::string hex(dissem::NodeId id) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", id);
  return buf;
}

// The node id of the daemon behind `c` (its publications name it).
dissem::NodeId node_id_of(dissem::client::Client& c) {
  return c.publish("link-test-id", std::vector<std::uint8_t>{1}).publisher;
}

// Waits (bounded) for the link event `kind` about `peer`; nullopt if none came.
std::optional<dissem::ipc::LinkEventInfo> wait_link_event(dissem::client::Client& c, Kind kind, dissem::NodeId peer,
                                                          std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto e = c.next_link_event(200ms);
    if (e && e->kind == kind && e->peer.node == peer) return e;
  }
  return std::nullopt;
}

class LinkMonitoring : public dissem::testing::DaemonTest {};

}  // namespace

TEST_F(LinkMonitoring, WatchingClientsGetLinkEventsAndPeersCarryTheFigures) {
  DaemonProcess a(dir_, "a", port_, kFastBeacons);
  DaemonProcess b(dir_, "b", port_, kFastBeacons);
  dissem::client::Client at_a(a.socket());
  dissem::client::Client watcher(b.socket());
  dissem::client::Client bystander(b.socket());
  const dissem::NodeId a_id = node_id_of(at_a);

  dissem::engine::LinkThresholds t;
  t.rate_bytes_per_s = 10'000;  // beacons alone stay far below; the burst below far above
  watcher.watch_links(t);
  ASSERT_TRUE(wait_link_event(watcher, Kind::PeerAppeared, a_id, 15s)) << "a never appeared at b";

  // 300 KB from a at once: b's received rate from a (over 5 s) crosses the threshold.
  for (int i = 0; i < 10; ++i) at_a.publish("link-test", std::vector<std::uint8_t>(30'000, static_cast<std::uint8_t>(i)));
  const auto above = wait_link_event(watcher, Kind::RateAbove, a_id, 15s);
  ASSERT_TRUE(above.has_value()) << "no rate event";
  EXPECT_GT(above->peer.received_bytes_per_s, 10'000.0);
  // ... and back below once the burst is over (the rate window is 5 s).
  EXPECT_TRUE(wait_link_event(watcher, Kind::RateBelow, a_id, 20s)) << "the rate never fell back";
  EXPECT_FALSE(bystander.next_link_event(0ms).has_value()) << "only watching clients get link events";

  // Loss each way becomes known on loopback, near zero; rates are reported.
  std::optional<dissem::ipc::PeerInfo> seen;
  for (int i = 0; i < 100 && !(seen && seen->loss_in && seen->loss_out); ++i) {
    seen.reset();
    for (const auto& p : watcher.peers())
      if (p.node == a_id) seen = p;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(seen.has_value());
  ASSERT_TRUE(seen->loss_in.has_value());
  ASSERT_TRUE(seen->loss_out.has_value()) << "a's beacons report what it hears of b";
  EXPECT_LT(*seen->loss_in, 0.2);
  EXPECT_LT(*seen->loss_out, 0.2);
  EXPECT_GT(seen->sent_bytes_per_s, 0.0) << "b's own beacons";
  EXPECT_GT(seen->received_bytes_per_s, 0.0) << "a's beacons";

  // A threshold out of range is refused by name; the connection stays usable.
  dissem::engine::LinkThresholds bad;
  bad.loss = 7;
  try {
    watcher.watch_links(bad);
    ADD_FAILURE() << "accepted loss_threshold 7";
  } catch (const dissem::client::RequestError& e) {
    EXPECT_EQ(e.code(), dissem::client::ErrorCode::Rejected);
    EXPECT_NE(std::string(e.what()).find("loss_threshold"), std::string::npos) << e.what();
  }
  watcher.unwatch_links();
  EXPECT_NO_THROW(watcher.stats());

  // a stops: b's watchers hear it fall silent (engine.peer_silent_after_ms, 5 s).
  dissem::client::Client late(b.socket());
  late.watch_links();  // the daemon's thresholds; a is reported at once
  ASSERT_TRUE(wait_link_event(late, Kind::PeerAppeared, a_id, 5s));
  a.stop(SIGTERM);
  EXPECT_TRUE(wait_link_event(late, Kind::PeerSilent, a_id, 15s));
}

TEST_F(LinkMonitoring, PeersCommandShowsTheColumnsAndWatchRedrawsUntilStopped) {
  DaemonProcess a(dir_, "a", port_, kFastBeacons);
  DaemonProcess b(dir_, "b", port_, kFastBeacons);
  dissem::client::Client at_a(a.socket());
  const std::string node = hex(node_id_of(at_a));
  const std::string cli = cli_path() + " --socket " + b.socket() + " peers";

  int code = -1;
  std::string table;
  for (int i = 0; i < 50 && table.find(node) == std::string::npos; ++i) {  // bounded: 10 s
    table = dissem::testing::run_capture(cli, &code);
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_EQ(code, 0) << table;
  for (const char* column : {"loss in", "loss out", "srtt", "received", "sent"})
    EXPECT_NE(table.find(column), std::string::npos) << column << " missing in\n" << table;
  const std::string json = dissem::testing::run_capture(cli + " --json", &code);
  EXPECT_EQ(code, 0) << json;
  EXPECT_NE(json.find("\"received_bytes_per_s\":"), std::string::npos) << json;
  EXPECT_NE(json.find("\"loss_out_pct\":"), std::string::npos) << json;

  // A bounded watch: several tables, and the neighbour reported as it is.
  const std::string watched = dissem::testing::run_capture(cli + " --watch --interval-s 0.5 --duration-s 3", &code);
  EXPECT_EQ(code, 0) << watched;
  std::size_t tables = 0;
  for (auto at = watched.find("dissem peers --watch"); at != std::string::npos;
       at = watched.find("dissem peers --watch", at + 1))
    ++tables;
  EXPECT_GE(tables, 4u) << watched;
  EXPECT_NE(watched.find("event peer_appeared " + node), std::string::npos) << watched;

  // SIGTERM ends it at once, cleanly, long before its duration.
  const auto start = std::chrono::steady_clock::now();
  const std::string stopped = dissem::testing::run_capture(
      "(" + cli + " --watch --interval-s 1 --duration-s 60 & w=$!; sleep 1.5; kill -TERM $w; wait $w; echo \"exit=$?\")",
      &code);
  EXPECT_NE(stopped.find("exit=0"), std::string::npos) << stopped;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  // Refresh intervals are bounded: a busy loop cannot be asked for.
  const std::string refused = dissem::testing::run_capture(cli + " --watch --interval-s 0.01", &code);
  EXPECT_EQ(code, 2) << refused;
}

}  // namespace link_monitoring_test
