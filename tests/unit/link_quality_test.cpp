// Link quality measures (engine/rate_window.h, engine/link_quality.h), each
// fed directly, in virtual time.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/config_keys.h"
#include "engine/link_quality.h"

using namespace dissem;
using namespace dissem::engine;

TEST(RateWindow, MeasuresBytesPerSecondOverTheWindowAndForgetsIdleTime) {
  RateWindow w(1 * kSeconds);
  EXPECT_EQ(w.window(), 1 * kSeconds);
  // 500 bytes every 50 ms for 3 s: 10,000 bytes/s.
  for (Micros t = 0; t < 3 * kSeconds; t += 50 * kMillis) w.add(t, 500);
  EXPECT_NEAR(w.bytes_per_second(3 * kSeconds - 1), 10'000.0, 1.0);
  // Half the rate from then on: the window follows within one window.
  for (Micros t = 3 * kSeconds; t < 5 * kSeconds; t += 100 * kMillis) w.add(t, 500);
  EXPECT_NEAR(w.bytes_per_second(5 * kSeconds - 1), 5'000.0, 1.0);
  // Idle: half the window later half the bytes have left it, a window later all.
  EXPECT_NEAR(w.bytes_per_second(5 * kSeconds + 500 * kMillis - 1), 2'500.0, 1.0);
  EXPECT_EQ(w.bytes_per_second(6 * kSeconds), 0.0);
  // A late sample older than the window is not counted.
  w.add(1 * kSeconds, 1'000'000);
  EXPECT_EQ(w.bytes_per_second(6 * kSeconds), 0.0);
}

namespace link_quality_test {
namespace {

struct Neighbours {
  PeerTable table{8};
  void admit(NodeId id, Micros now) {
    table.heard(id, now);
    table.on_beacon(id, 0, 1, now);
    table.on_beacon(id, 0, 2, now);  // established
  }
};

}  // namespace

TEST(LinkQuality, IncomingLossFromBeaconGapsFollowsTheLinkAndCountsOverdueBeacons) {
  Neighbours n;
  n.admit(5, 0);
  LinkQuality q(8, 5 * kSeconds, 1 * kSeconds);
  const ReceptionMeter no_data;
  std::uint32_t seq = 0;
  Micros t = 0;
  // Every beacon heard for a while: no loss, once there is evidence.
  for (int i = 0; i < 5; ++i) q.on_beacon(5, ++seq, t += kSeconds, n.table);
  EXPECT_FALSE(q.loss_in(5, no_data, t).has_value()) << "5 beacons are not evidence enough";
  for (int i = 0; i < 20; ++i) q.on_beacon(5, ++seq, t += kSeconds, n.table);
  EXPECT_NEAR(*q.loss_in(5, no_data, t), 0.0, 1e-9);
  // Then one beacon in two lost: the estimate moves to it (old evidence fades).
  for (int i = 0; i < 60; ++i) {
    seq += 2;
    q.on_beacon(5, seq, t += 2 * kSeconds, n.table);
  }
  EXPECT_NEAR(*q.loss_in(5, no_data, t), 0.5, 0.05);
  EXPECT_EQ(*q.loss_permille_for_echo(5, no_data, t), static_cast<std::uint32_t>(std::lround(*q.loss_in(5, no_data, t) * 1000)));
  // Silence: beacons overdue by more than half an interval count as missed.
  const double before = *q.loss_in(5, no_data, t);
  EXPECT_DOUBLE_EQ(*q.loss_in(5, no_data, t + 1400 * kMillis), before) << "within the grace";
  EXPECT_GT(*q.loss_in(5, no_data, t + 20 * kSeconds), before + 0.2);
  // A restarted peer (numbering went back) is counted afresh.
  q.on_beacon(5, 1, t += kSeconds, n.table);
  EXPECT_FALSE(q.loss_in(5, no_data, t).has_value());
}

TEST(LinkQuality, OverdueBeaconsFollowAPeerWhoseBeaconsAreClearlySparser) {
  // Our period is 1 s; the peer's (many nodes on its channel) is 6 s, every beacon heard.
  Neighbours n;
  n.admit(5, 0);
  LinkQuality q(8, 5 * kSeconds, 1 * kSeconds);
  const ReceptionMeter no_data;
  Micros t = 0;
  for (std::uint32_t seq = 1; seq <= 20; ++seq) q.on_beacon(5, seq, t += 6 * kSeconds, n.table);
  EXPECT_NEAR(*q.loss_in(5, no_data, t), 0.0, 1e-9);
  EXPECT_NEAR(*q.loss_in(5, no_data, t + 8 * kSeconds), 0.0, 1e-9) << "within its own period and a half";
  EXPECT_GT(*q.loss_in(5, no_data, t + 60 * kSeconds), 0.2) << "ten of its periods silent";
}

TEST(LinkQuality, IncomingLossAddsTheFirstPassDataMissed) {
  Neighbours n;
  n.admit(5, 0);
  LinkQuality q(8, 5 * kSeconds, 1 * kSeconds);
  ReceptionMeter data;
  // No beacon heard yet; 100 fragments of one message, every 5th lost.
  for (std::uint32_t i = 0; i < 100; ++i)
    if (i % 5 != 4) data.on_first_pass(MessageId{"g", 5, 1}, i, i * kMillis);
  EXPECT_NEAR(*q.loss_in(5, data, 100 * kMillis), 0.2, 0.02);
  EXPECT_FALSE(q.loss_in(6, data, 100 * kMillis).has_value()) << "nothing from node 6";
}

TEST(LinkQuality, OutgoingLossIsWhatThePeerReportsAndRatesArePerPeer) {
  Neighbours n;
  n.admit(5, 0);
  n.admit(6, 0);
  LinkQuality q(8, 1 * kSeconds, 1 * kSeconds);
  const ReceptionMeter no_data;
  q.on_loss_report(5, 125, 0, n.table);
  for (Micros t = 0; t < kSeconds; t += 100 * kMillis) {
    q.on_received(5, 300, t, n.table);
    q.on_received(6, 100, t, n.table);
    q.on_received(0, 999, t, n.table);  // unknown sender: nobody's
    q.on_sent(1000, t);
  }
  const auto links = q.samples(n.table, no_data, kSeconds - 1);
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].node, 5u);
  ASSERT_TRUE(links[0].loss_out.has_value());
  EXPECT_DOUBLE_EQ(*links[0].loss_out, 0.125);
  EXPECT_FALSE(links[1].loss_out.has_value()) << "node 6 has not reported";
  EXPECT_NEAR(links[0].received_bytes_per_s, 3000.0, 1.0);
  EXPECT_NEAR(links[1].received_bytes_per_s, 1000.0, 1.0);
  EXPECT_NEAR(links[0].sent_bytes_per_s, 10'000.0, 1.0);
  EXPECT_NEAR(links[1].sent_bytes_per_s, 10'000.0, 1.0) << "broadcast: the same for every neighbour";
  EXPECT_DOUBLE_EQ(links[0].worst_loss(), 0.125);
}

TEST(LinkQuality, MemoryIsBoundedByTheNeighboursTracked) {
  PeerTable table(3);
  LinkQuality q(3, 1 * kSeconds, 1 * kSeconds);
  q.on_received(9, 100, 0, table);
  EXPECT_EQ(q.tracked(), 0u) << "not a neighbour in the table: nothing kept";
  // Invented ids cycle through the table; the records never outnumber it.
  for (NodeId id = 100; id < 1100; ++id) {
    table.heard(id, id);
    q.on_received(id, 100, id, table);
    q.on_beacon(id, 1, id, table);
    ASSERT_LE(q.tracked(), 3u);
  }
  EXPECT_TRUE(q.samples(table, ReceptionMeter{}, 2000).empty()) << "one-off ids are not established neighbours";
}

TEST(LinkConfigKeys, ThresholdsAreSetByNameAndRangeChecked) {
  EngineConfig c;
  set_config_value(c, "link_loss_threshold", "0.3");
  set_config_value(c, "link_rate_threshold", "2500");
  set_config_value(c, "link_rate_window_ms", "2000");
  EXPECT_DOUBLE_EQ(c.link_thresholds.loss, 0.3);
  EXPECT_DOUBLE_EQ(c.link_thresholds.rate_bytes_per_s, 2500);
  EXPECT_EQ(c.link_rate_window, 2 * kSeconds);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"link_loss_threshold", "1.5"}, {"link_loss_hysteresis", "-0.1"}, {"link_rate_hysteresis", "0.99"},
           {"link_rate_threshold", "x"}, {"link_rate_window_ms", "10"}}) {
    try {
      set_config_value(c, key, value);
      ADD_FAILURE() << key << "=" << value << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
  bool described = false;
  for (const auto& [key, value] : describe_config(c)) described = described || (key == "link_rate_threshold" && value == "2500");
  EXPECT_TRUE(described);
}

}  // namespace link_quality_test
