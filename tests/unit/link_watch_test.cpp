// Link events with hysteresis (engine/link_watch.h), on hand-made samples.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/link_watch.h"

using namespace dissem;
using namespace dissem::engine;

namespace link_watch_test {
namespace {

LinkSample sample(NodeId node, std::optional<double> loss_in, double rate = 0, std::optional<double> loss_out = {}) {
  LinkSample s;
  s.node = node;
  s.loss_in = loss_in;
  s.loss_out = loss_out;
  s.received_bytes_per_s = rate;
  return s;
}

std::vector<LinkEvent::Kind> kinds(LinkWatch& w, const std::vector<LinkSample>& now) {
  std::vector<LinkEvent> events;
  w.evaluate(now, events);
  std::vector<LinkEvent::Kind> out;
  for (const auto& e : events) out.push_back(e.kind);
  return out;
}

using K = LinkEvent::Kind;

}  // namespace

TEST(LinkWatch, LossHoveringAtTheThresholdRaisesOneEventEachWay) {
  LinkWatch w(LinkThresholds{0.2, 0.05, 0, 0.2});
  EXPECT_EQ(kinds(w, {sample(7, std::nullopt)}), std::vector<K>{K::PeerAppeared}) << "unknown loss is no alarm";
  EXPECT_TRUE(kinds(w, {sample(7, 0.1)}).empty());
  EXPECT_EQ(kinds(w, {sample(7, 0.21)}), std::vector<K>{K::LossAbove});
  // Hovering around the threshold, inside the band: nothing.
  for (double loss : {0.19, 0.21, 0.16, 0.22, 0.151, 0.3}) EXPECT_TRUE(kinds(w, {sample(7, loss)}).empty()) << loss;
  EXPECT_EQ(kinds(w, {sample(7, 0.149)}), std::vector<K>{K::LossBelow});
  for (double loss : {0.16, 0.2, 0.1}) EXPECT_TRUE(kinds(w, {sample(7, loss)}).empty()) << loss;
  // The worse direction counts: the peer reports it misses much of ours.
  EXPECT_EQ(kinds(w, {sample(7, 0.0, 0, 0.4)}), std::vector<K>{K::LossAbove});
}

TEST(LinkWatch, RateEventsUseARelativeBandAndAreOffAtZero) {
  LinkWatch off(LinkThresholds{0.2, 0.05, 0, 0.2});
  kinds(off, {sample(3, 0.0, 0)});
  EXPECT_TRUE(kinds(off, {sample(3, 0.0, 1e9)}).empty()) << "threshold 0: no rate events";

  LinkWatch w(LinkThresholds{0.2, 0.05, 1000, 0.2});
  EXPECT_EQ(kinds(w, {sample(3, 0.0, 500)}), std::vector<K>{K::PeerAppeared});
  EXPECT_EQ(kinds(w, {sample(3, 0.0, 1001)}), std::vector<K>{K::RateAbove});
  for (double rate : {990.0, 1010.0, 801.0, 2000.0}) EXPECT_TRUE(kinds(w, {sample(3, 0.0, rate)}).empty()) << rate;
  EXPECT_EQ(kinds(w, {sample(3, 0.0, 799)}), std::vector<K>{K::RateBelow});
  EXPECT_TRUE(kinds(w, {sample(3, 0.0, 999)}).empty());
}

TEST(LinkWatch, NeighboursAppearOnceAndFallSilentWithTheirLastFigures) {
  LinkWatch w(LinkThresholds{});
  EXPECT_EQ(kinds(w, {sample(1, 0.0), sample(2, 0.0)}), (std::vector<K>{K::PeerAppeared, K::PeerAppeared}));
  EXPECT_TRUE(kinds(w, {sample(1, 0.0), sample(2, 0.0)}).empty());
  std::vector<LinkEvent> events;
  w.evaluate({sample(2, 0.05, 321)}, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, K::PeerSilent);
  EXPECT_EQ(events[0].link.node, 1u);
  EXPECT_EQ(w.watched(), 1u);
  // Back again: appears anew, starting below every threshold.
  EXPECT_EQ(kinds(w, {sample(1, 0.5), sample(2, 0.05)}), (std::vector<K>{K::PeerAppeared, K::LossAbove}));
}

TEST(LinkWatch, ThresholdsOutOfRangeAreRefusedByName) {
  EXPECT_NO_THROW(check_link_thresholds(LinkThresholds{}));
  auto refused = [](LinkThresholds t, const std::string& name) {
    try {
      check_link_thresholds(t, "engine.link_");
      ADD_FAILURE() << name << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("engine.link_" + name), std::string::npos) << e.what();
    }
  };
  refused(LinkThresholds{1.5, 0.05, 0, 0.2}, "loss_threshold");
  refused(LinkThresholds{0.2, -1, 0, 0.2}, "loss_hysteresis");
  refused(LinkThresholds{0.2, 0.05, -5, 0.2}, "rate_threshold");
  refused(LinkThresholds{0.2, 0.05, 0, 0.96}, "rate_hysteresis");
  refused(LinkThresholds{std::nan(""), 0.05, 0, 0.2}, "loss_threshold");
}

}  // namespace link_watch_test
