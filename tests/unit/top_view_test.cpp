// What `dissem top` shows (tools/top_view.h), without a terminal: an
// 80-column screen, rates from two samples, peers and messages in flight.
#include "tools/top_view.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace dissem;
using dissem::cli::render_top;
using dissem::cli::TopSample;

namespace top_view_test {
namespace {

TopSample sample(int second, std::uint64_t data_sent, std::size_t peers, std::size_t in_flight) {
  TopSample s;
  s.at = std::chrono::steady_clock::time_point{} + std::chrono::seconds(second);
  auto& data = s.stats.engine.sent[static_cast<std::size_t>(engine::TrafficKind::Data)];
  data.datagrams = data_sent;
  data.bytes = data_sent * 1400;
  s.stats.engine.mfrs_sent = static_cast<std::uint64_t>(second) * 3;
  s.stats.cache_bytes = 5 << 20;
  s.stats.cache_messages = 12;
  for (std::size_t i = 0; i < peers; ++i) {
    ipc::PeerInfo p;
    p.node = 0x1000 + static_cast<NodeId>(i);
    p.last_heard_ago = 300'000;
    p.loss_in = 0.05;
    p.srtt = 12'000;
    p.received_bytes_per_s = 2048;
    s.peers.push_back(p);
  }
  for (std::size_t i = 0; i < in_flight; ++i) {
    engine::CachedMessage m;
    m.meta.id = MessageId{"maps/tiles", 0xabcd, 10 + i};
    m.meta.total_length = 200'000;
    m.stored_bytes = 100'000;
    s.in_flight.push_back(m);
  }
  return s;
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

}  // namespace

TEST(TopView, FitsEightyByTwentyFourAndShowsEverySection) {
  const TopSample before = sample(10, 100, 3, 2);
  const TopSample now = sample(12, 300, 3, 2);
  const auto lines = render_top("dissem top: /run/dissem/dissemd.sock", &before, now, 80, 24);
  ASSERT_LE(lines.size(), 24u);
  for (const auto& l : lines) EXPECT_LE(l.size(), 80u) << l;
  EXPECT_TRUE(has(lines, "traffic"));
  EXPECT_TRUE(has(lines, "100.0")) << "200 data datagrams in 2 s";
  EXPECT_TRUE(has(lines, "136.7 KiB/s")) << "280,000 bytes in 2 s";
  EXPECT_TRUE(has(lines, "requests: sent 36 (3.0/s)"));
  EXPECT_TRUE(has(lines, "cache: 5.0 MiB in 12 messages"));
  EXPECT_TRUE(has(lines, "peers: 3"));
  EXPECT_TRUE(has(lines, "00001002")) << "every peer fits";
  EXPECT_TRUE(has(lines, "5.0%")) << "loss in";
  EXPECT_TRUE(has(lines, "in flight: 2 messages"));
  EXPECT_TRUE(has(lines, "[##########..........]  50%"));
}

TEST(TopView, ASilentDaemonSaysSoInItsTitle) {
  TopSample now = sample(5, 100, 1, 0);
  EXPECT_FALSE(has(render_top("t", nullptr, now, 80, 24), "EMCON"));
  now.stats.engine.silent = true;
  const auto lines = render_top("t", nullptr, now, 80, 24);
  EXPECT_EQ(lines.front(), "t  [EMCON: silent, nothing sent]");
}

TEST(TopView, WithoutAPreviousSampleRatesAreUnknownAndLongListsAreCut) {
  const TopSample now = sample(5, 100, 40, 40);
  const auto lines = render_top("t", nullptr, now, 80, 24);
  ASSERT_EQ(lines.size(), 24u);
  EXPECT_TRUE(has(lines, "  data               -             -             -             -"))
      << ::testing::PrintToString(lines);
  EXPECT_TRUE(has(lines, "more")) << "what does not fit is counted";
  EXPECT_TRUE(has(lines, "in flight: 40 messages"));
  // A tiny terminal still gets a (cut) screen, never more than it holds.
  const auto tiny = render_top("t", nullptr, now, 20, 5);
  EXPECT_LE(tiny.size(), 5u);
  for (const auto& l : tiny) EXPECT_LE(l.size(), 20u);
}

}  // namespace top_view_test
