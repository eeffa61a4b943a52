// Real dissemd processes on loopback multicast, driven through the C++ client
// library: what an operator and an application see.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "support/daemon_process.h"
#include "support/run_capture.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace dissemd_test {
namespace {

using dissem::testing::run_capture;

// A daemon process with its own cache and socket in the test's directory.
// Built by appending: GCC 12 at -O3 reports a false -Wrestrict on "x" + std::string.
std::string dissemd_command(const char* args) {
  std::string command = DISSEMD_PATH;
  command += ' ';
  command += args;
  return command;
}

using dissem::testing::DaemonProcess;

class Dissemd : public dissem::testing::DaemonTest {};

std::vector<std::uint8_t> pattern(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = 12345;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 16);
  }
  return v;
}

}  // namespace

TEST_F(Dissemd, ThreeDaemonsDisseminateFiveMegabytesByteIdentical) {
  DaemonProcess pub(dir_, "d0", port_), sub1(dir_, "d1", port_), sub2(dir_, "d2", port_);
  dissem::client::Client c1(sub1.socket()), c2(sub2.socket()), cp(pub.socket());
  c1.subscribe("files");
  c2.subscribe("files");
  const auto data = pattern(5u << 20);
  const auto id = cp.publish("files", data);
  EXPECT_EQ(id.seq, 1u);
  for (auto* c : {&c1, &c2}) {
    auto d = c->next_delivery(60s);
    ASSERT_TRUE(d) << "no delivery within 60 s";
    EXPECT_EQ(d->meta.id, id);
    EXPECT_TRUE(d->payload == data) << "payload differs";
  }
  const auto s = c1.stats();
  EXPECT_GT(s.engine.received[0].datagrams, 3000u);
  EXPECT_EQ(s.engine.malformed_total(), 0u);
}

TEST_F(Dissemd, PublisherRestartKeepsItsNodeIdAndNeverReusesASequenceNumber) {
  dissem::MessageId first, second;
  {
    DaemonProcess pub(dir_, "d0", port_);
    dissem::client::Client c(pub.socket());
    first = c.publish("g", pattern(1000));
  }
  DaemonProcess pub(dir_, "d0", port_);
  dissem::client::Client c(pub.socket());
  second = c.publish("g", pattern(1000));
  EXPECT_EQ(second.publisher, first.publisher) << "node id kept across restart";
  EXPECT_EQ(second.seq, first.seq + 1);
}

TEST_F(Dissemd, BadConfigKeyStopsStartupNamingTheKey) {
  int code = 0;
  const auto out = run_capture(dissemd_command("--set engine.no_such_key=1"), &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("engine.no_such_key"), std::string::npos) << out;
  const auto bad_value = run_capture(dissemd_command("--set engine.request_probability=7"), &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(bad_value.find("request_probability"), std::string::npos) << bad_value;
}

TEST_F(Dissemd, PrintConfigShowsEveryEngineKey) {
  int code = 0;
  const auto out = run_capture(dissemd_command("--print-config --port 5555"), &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("port = 5555"), std::string::npos) << out;
  EXPECT_NE(out.find("request_probability"), std::string::npos) << out;
}

TEST_F(Dissemd, SubscriberKilledMidTransferCompletesFromItsCacheAndDeliversOnce) {
  // 20 Mbit/s: the 5 MB take about two seconds, so the kill lands mid-transfer.
  const std::vector<std::string> slow{"--set", "engine.link_capacity_bps=20000000"};
  DaemonProcess pub(dir_, "d0", port_, slow);
  auto sub = std::make_unique<DaemonProcess>(dir_, "d1", port_, slow);
  const auto data = pattern(5u << 20);
  dissem::MessageId id;
  {
    dissem::client::Client c(sub->socket());
    c.subscribe("files");
    dissem::client::Client p(pub.socket());
    id = p.publish("files", data);
    std::this_thread::sleep_for(700ms);
    const auto before = c.stats();
    EXPECT_GT(before.cache_bytes, 0u) << "some fragments were cached before the kill";
    EXPECT_LT(before.cache_bytes, data.size()) << "the kill must land mid-transfer";
    sub->kill_hard();
  }
  sub->start();  // same cache, same socket
  dissem::client::Client c(sub->socket());
  c.subscribe("files");
  auto d = c.next_delivery(60s);
  ASSERT_TRUE(d) << "the restarted subscriber never completed the message";
  EXPECT_EQ(d->meta.id, id);
  EXPECT_TRUE(d->payload == data);
  EXPECT_FALSE(c.next_delivery(2s)) << "delivered exactly once";
}

TEST_F(Dissemd, MalformedIpcFrameClosesOnlyThatClient) {
  DaemonProcess d(dir_, "d0", port_);
  dissem::client::Client good(d.socket());
  good.subscribe("g");

  // A raw connection that declares a 4 GiB frame, then sends garbage.
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", d.socket().c_str());
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const unsigned char bad[] = {0xff, 0xff, 0xff, 0xff, 'j', 'u', 'n', 'k'};
  ASSERT_EQ(::send(fd, bad, sizeof bad, MSG_NOSIGNAL), static_cast<ssize_t>(sizeof bad));
  // The daemon answers with an error frame and closes: read until EOF (bounded).
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char buf[4096];
  ssize_t n = 0;
  std::size_t total = 0;
  for (int i = 0; i < 100 && (n = ::recv(fd, buf, sizeof buf, 0)) > 0; ++i) total += static_cast<std::size_t>(n);
  EXPECT_EQ(n, 0) << "the daemon closed the bad client";
  EXPECT_GT(total, 0u) << "after sending it an error frame";
  ::close(fd);

  // The well-behaved client on the same daemon is unaffected.
  const auto id = good.publish("g", pattern(3000));
  auto delivered = good.next_delivery(10s);
  ASSERT_TRUE(delivered);
  EXPECT_EQ(delivered->meta.id, id);
}

TEST_F(Dissemd, DurableSubscriptionResumesAfterKillNineExactlyOnceByMessageId) {
  DaemonProcess pub(dir_, "d0", port_);
  auto sub = std::make_unique<DaemonProcess>(dir_, "d1", port_);
  dissem::client::Client p(pub.socket());
  std::vector<dissem::MessageId> published;
  std::vector<dissem::MessageId> delivered;
  dissem::engine::SubscriptionOptions durable;
  durable.name = "ops-log";
  {
    dissem::client::Client c(sub->socket());
    const auto id = c.subscribe("log", durable);
    for (int i = 0; i < 5; ++i) {
      published.push_back(p.publish("log", pattern(3000 + static_cast<std::size_t>(i))));
      auto d = c.next_delivery(20s);
      ASSERT_TRUE(d) << "message " << i + 1 << " not delivered";
      delivered.push_back(d->meta.id);
      c.acknowledge(id, d->meta.id);  // handled: durable in the cache when this returns
    }
    sub->kill_hard();  // kill -9: no clean shutdown
  }
  // Published while the subscriber's daemon is down, and once it is back
  // before anyone re-subscribes: its durable subscription fetches them.
  for (int i = 0; i < 3; ++i) published.push_back(p.publish("log", pattern(4000 + static_cast<std::size_t>(i))));
  sub->start();
  std::this_thread::sleep_for(1500ms);
  for (int i = 0; i < 2; ++i) published.push_back(p.publish("log", pattern(5000 + static_cast<std::size_t>(i))));
  dissem::client::Client c(sub->socket());
  const auto id = c.subscribe("log", durable);
  while (delivered.size() < published.size()) {
    auto d = c.next_delivery(30s);
    ASSERT_TRUE(d) << "resumed subscription got " << delivered.size() << " of " << published.size();
    delivered.push_back(d->meta.id);
    c.acknowledge(id, d->meta.id);
  }
  EXPECT_FALSE(c.next_delivery(2s)) << "nothing twice";
  auto sorted = delivered;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "each message exactly once";
  auto expected = published;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(sorted, expected);

  // Resuming again (a new client) delivers nothing: everything is acknowledged.
  dissem::client::Client again(sub->socket());
  again.subscribe("log", durable);
  EXPECT_FALSE(again.next_delivery(1s));
  EXPECT_TRUE(again.delete_subscription("ops-log"));
  EXPECT_FALSE(again.delete_subscription("ops-log")) << "gone";
}

TEST_F(Dissemd, AFullSendQueueMakesPublishWaitOrFailAsTheClientChooses) {
  // 40 kbit/s and one second of link time per group: about 5 KB may wait.
  DaemonProcess d(dir_, "d0", port_,
                  {"--set", "engine.link_capacity_bps=40000", "--set", "engine.group_send_budget_ms=1000"});
  dissem::client::Client c(d.socket());
  c.set_publish_wait(0ms);
  int published = 0;
  bool refused = false;
  for (int i = 0; i < 40 && !refused; ++i) {
    try {
      c.publish("bulk", pattern(1000));
      ++published;
    } catch (const dissem::client::RequestError& e) {
      EXPECT_EQ(e.code(), dissem::client::ErrorCode::QueueFull) << e.what();
      refused = true;
    }
  }
  EXPECT_TRUE(refused) << "fail at once: refused once the budget is full";
  EXPECT_LE(published, 8);
  EXPECT_GE(c.stats().engine.publish_queue_full, 1u);
  // Waiting (backpressure): every publish returns once there is room.
  c.set_publish_wait(30s);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) c.publish("bulk", pattern(1000));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(took, 0.5) << "the publisher was held back to the link's pace";
}

TEST_F(Dissemd, HistoryIsFetchedWhenTheStreamWasAnnouncedBeforeTheSubscription) {
  // Issue 13's report: 0 of 3 on loopback once the daemon had heard the
  // stream announced (by beacons, or its data cached opportunistically).
  DaemonProcess pub(dir_, "d0", port_), sub(dir_, "d1", port_);
  dissem::client::Client p(pub.socket());
  std::vector<dissem::MessageId> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(p.publish("hist", pattern(2000 + static_cast<std::size_t>(i))));
  dissem::client::Client c(sub.socket());
  // Until the subscriber's daemon has heard of the publisher (its beacons).
  for (int i = 0; i < 100 && c.peers().empty(); ++i) std::this_thread::sleep_for(50ms);
  ASSERT_FALSE(c.peers().empty());
  std::this_thread::sleep_for(1s);  // a beacon or two more: the stream is known
  dissem::engine::SubscriptionOptions o;
  o.history = 3;
  c.subscribe("hist", o);
  std::vector<dissem::MessageId> got;
  while (got.size() < 3) {
    auto d = c.next_delivery(10s);
    ASSERT_TRUE(d) << "history delivered " << got.size() << " of 3";
    got.push_back(d->meta.id);
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, ids);
}

}  // namespace dissemd_test
