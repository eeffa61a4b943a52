// Late joiners on slow links, with real daemons on loopback (issue 29): the
// publisher's messages went out before the joiner's daemon existed; the
// joiner subscribes with history and must get them, at 64 kbit/s and at
// 2,400 bit/s. Loopback's payload size (65,000 bytes) is what made this
// fail: timers scaled by a full-size frame (engine/frame_size_estimate.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "support/daemon_process.h"

using namespace std::chrono_literals;
using dissem::testing::DaemonProcess;

namespace late_joiner_slow_link_test {
namespace {

class LateJoinerSlowLink : public dissem::testing::DaemonTest {
 protected:
  // `during`: the publisher sends half its messages before the joiner starts
  // and the rest after it subscribed.
  void run(const std::string& capacity_bps, std::chrono::seconds limit, bool during) {
    const std::vector<std::string> link{"--set", "engine.link_capacity_bps=" + capacity_bps};
    DaemonProcess pub(dir_, "pub", port_, link);
    dissem::client::Client p(pub.socket());
    const std::size_t total = during ? 6 : 3;
    const std::size_t before = during ? 3 : total;
    std::vector<dissem::MessageId> ids;
    auto publish = [&](std::size_t i) {
      ids.push_back(p.publish("late", std::vector<std::uint8_t>(8, static_cast<std::uint8_t>(i))));
    };
    for (std::size_t i = 0; i < before; ++i) publish(i);
    std::this_thread::sleep_for(1s);
    DaemonProcess sub(dir_, "sub", port_, link);  // the late joiner
    std::this_thread::sleep_for(4s);
    dissem::client::Client c(sub.socket());
    dissem::engine::SubscriptionOptions o;
    o.history = static_cast<std::uint32_t>(total);
    c.subscribe("late", o);
    for (std::size_t i = before; i < total; ++i) publish(i);
    std::vector<dissem::MessageId> got;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (got.size() < total && std::chrono::steady_clock::now() < deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (auto d = c.next_delivery(std::max(left, std::chrono::milliseconds(1)))) got.push_back(d->meta.id);
    }
    ASSERT_EQ(got.size(), total) << "at " << capacity_bps << " bit/s the joiner got " << got.size() << " of " << total
                                 << " within " << limit.count() << " s";
    std::sort(got.begin(), got.end());
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(got, ids);
  }
};

}  // namespace

TEST_F(LateJoinerSlowLink, HistoryAfterPublicationAt64kbps) { run("64000", 10s, false); }

TEST_F(LateJoinerSlowLink, HistoryAfterPublicationAt2400bps) { run("2400", 60s, false); }

TEST_F(LateJoinerSlowLink, HistoryAndLiveMessagesDuringPublicationAt64kbps) { run("64000", 10s, true); }

TEST_F(LateJoinerSlowLink, HistoryAndLiveMessagesDuringPublicationAt2400bps) { run("2400", 60s, true); }

}  // namespace late_joiner_slow_link_test
