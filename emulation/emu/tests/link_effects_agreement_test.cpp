// One link specification through both drivers of the link-effects model
// (src/link): the simulator's Medium (microseconds, one random stream for
// the medium) and the emulator's LinkModel (nanoseconds, one stream per link,
// configured as dissem-emu is: options and EEL-style effects). Same offers,
// many frames; the statistics must agree.
//
// Tolerances come from the statistics themselves:
//  * the radio stage (rates, queues, shared channel) draws nothing, so frames
//    on the air and queue drops per sender must be equal exactly;
//  * delivered fraction, throughput, delay mean and p95: batch means over 20
//    batches of consecutive frames (each spans several bursts of offers, far
//    longer than a loss burst), so correlation between neighbouring frames
//    does not shrink the standard error; mean loss-burst length: the standard
//    error of a mean of burst lengths (bursts are independent, each ends with
//    a fresh draw);
//  * two independent estimates may differ by kZ * sqrt(se_a^2 + se_b^2);
//    kZ = 4.5 leaves a chance below 1e-5 per statistic of failing by chance.
// The seeds are fixed, so the test is deterministic; the tolerances say how
// far apart two correct implementations may land.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "link_model.h"
#include "sim/event_queue.h"
#include "sim/medium.h"
#include "test_frames.h"

namespace dissem::emu {
namespace {

constexpr double kZ = 4.5;
constexpr std::size_t kBatches = 20;
constexpr TimeNs kNsPerMicro = 1000;

struct Spec {
  std::size_t nodes = 3;
  std::vector<std::size_t> senders;  // 0-based
  bool shared_channel = false;       // one channel for all senders, else one radio each
  std::uint64_t bps = 256'000;
  std::size_t queue = 20;
  double loss = 0.1;
  std::optional<GilbertParams> burst;
  Micros latency = 0;
  Micros jitter = 0;
  std::size_t frame_bytes = 200;  // a multiple of bytes that takes whole microseconds at bps
  std::uint32_t overhead = 28;
  std::size_t frames = 16000;  // per sender
  std::size_t burst_frames = 40;  // offers come in bursts...
  Micros spacing = 2000;          // ...this far apart...
  Micros period = 400'000;        // ...one burst per period
  Micros phase = 1300;            // sender k's offers are k * phase later

  Micros offer_time(std::size_t k, std::size_t seq) const {
    return static_cast<Micros>(k) * phase + static_cast<Micros>(seq / burst_frames) * period +
           static_cast<Micros>(seq % burst_frames) * spacing;
  }
  // After every copy has arrived: the span throughput is measured over.
  Micros horizon() const { return offer_time(senders.size(), frames) + period + latency + jitter; }
};

// What one driver did: per sender index k, which offers went on the air; per
// copy received, (sender k, receiver, seq, delay in microseconds).
struct Copy {
  std::size_t k = 0, to = 0, seq = 0;
  double delay = 0;
};
struct Outcome {
  std::vector<std::vector<bool>> accepted;
  std::vector<Copy> copies;
};

std::vector<std::uint8_t> frame_bytes(const Spec& s, std::size_t seq) {
  auto f = *testing::broadcast_frame(s.frame_bytes);
  for (int i = 0; i < 8; ++i) f[14 + i] = static_cast<std::uint8_t>(seq >> (8 * i));
  return f;
}

std::size_t seq_of(const std::vector<std::uint8_t>& f) {
  std::size_t seq = 0;
  for (int i = 0; i < 8; ++i) seq |= static_cast<std::size_t>(f[14 + i]) << (8 * i);
  return seq;
}

std::size_t index_of(const Spec& s, std::size_t node) {
  return static_cast<std::size_t>(std::find(s.senders.begin(), s.senders.end(), node) - s.senders.begin());
}

Outcome run_simulator(const Spec& s, std::uint64_t seed) {
  sim::EventQueue queue;
  sim::MediumConfig config;
  config.shared_channel = s.shared_channel;
  config.per_packet_overhead = s.overhead;
  config.queue_packets = s.queue;
  sim::Medium medium(queue, seed, config);
  for (std::size_t i = 0; i < s.nodes; ++i) medium.add_node(s.bps);
  sim::LinkParams l;
  l.reliability = 1 - s.loss;
  l.latency = s.latency;
  l.jitter = s.jitter;
  l.burst = s.burst;
  medium.set_all_links(l);

  Outcome out;
  out.accepted.assign(s.senders.size(), std::vector<bool>(s.frames));
  medium.set_receive_handler([&](std::size_t to, std::size_t from, std::span<const std::uint8_t> bytes) {
    const std::size_t seq = seq_of(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
    const std::size_t k = index_of(s, from);
    out.copies.push_back({k, to, seq, static_cast<double>(queue.now() - s.offer_time(k, seq))});
  });
  for (std::size_t k = 0; k < s.senders.size(); ++k)
    for (std::size_t seq = 0; seq < s.frames; ++seq)
      queue.schedule(s.offer_time(k, seq), [&, k, seq] {
        out.accepted[k][seq] = medium.offer(s.senders[k], frame_bytes(s, seq), engine::TrafficKind::Data);
      });
  while (queue.run_next()) {
  }
  return out;
}

Outcome run_emulator(const Spec& s, std::uint64_t seed) {
  ModelConfig config;
  config.nodes = s.nodes;
  config.queue_packets = s.queue;
  if (s.shared_channel)
    config.shared_channel_bps = s.bps;
  else
    config.radio_bps.assign(s.nodes, s.bps);
  config.gilbert = s.burst;
  config.overhead_bytes = s.overhead;
  config.seed = seed;
  LinkModel model(config, AddressPlan("agree", s.nodes));
  LinkEffects e;
  e.latency = s.latency * kNsPerMicro;
  e.jitter = s.jitter * kNsPerMicro;
  e.loss_pct = s.loss * 100;
  for (NodeId a = 1; a <= s.nodes; ++a)
    for (NodeId b = 1; b <= s.nodes; ++b)
      if (a != b) model.set_effects(a, b, e);

  // All offers in time order. The simulator runs an offer made at the very
  // microsecond a transmission ends before that end (the offers were
  // scheduled first); the emulator ends transmissions due by an offer's time
  // first. Offering 1 ns early gives the emulator the simulator's order.
  std::vector<std::pair<Micros, std::pair<std::size_t, std::size_t>>> offers;
  for (std::size_t k = 0; k < s.senders.size(); ++k)
    for (std::size_t seq = 0; seq < s.frames; ++seq) offers.push_back({s.offer_time(k, seq), {k, seq}});
  std::stable_sort(offers.begin(), offers.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  Outcome out;
  out.accepted.assign(s.senders.size(), std::vector<bool>(s.frames));
  std::vector<Delivery> due;
  for (const auto& [at, who] : offers) {
    const auto [k, seq] = who;
    const NodeId sender = s.senders[k] + 1;
    const std::uint64_t dropped = model.counters().node(sender).radio_queue_dropped;
    model.offer(at * kNsPerMicro - 1, sender, std::make_shared<Frame>(frame_bytes(s, seq)));
    out.accepted[k][seq] = model.counters().node(sender).radio_queue_dropped == dropped;
  }
  model.poll(s.horizon() * kNsPerMicro, due);
  EXPECT_EQ(model.next_deadline(), std::nullopt) << "copies still on their way at the horizon";
  for (const auto& d : due) {
    const std::size_t k = index_of(s, d.sender - 1);
    const std::size_t seq = seq_of(*d.frame);
    const TimeNs sent = s.offer_time(k, seq) * kNsPerMicro - 1;
    out.copies.push_back({k, d.receiver - 1, seq, static_cast<double>(d.due - sent) / kNsPerMicro});
  }
  return out;
}

struct Estimate {
  double value = 0;
  double se = 0;  // standard error
};

Estimate mean_of(const std::vector<double>& xs) {
  double sum = 0, squares = 0;
  for (double x : xs) sum += x;
  const double mean = sum / static_cast<double>(xs.size());
  for (double x : xs) squares += (x - mean) * (x - mean);
  return {mean, std::sqrt(squares / static_cast<double>(xs.size() - 1) / static_cast<double>(xs.size()))};
}

double p95(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return xs[static_cast<std::size_t>(0.95 * static_cast<double>(xs.size() - 1))];
}

struct Stats {
  std::vector<std::size_t> on_air, queue_drops;  // per sender
  Estimate delivered, throughput_bps, delay_mean, delay_p95, burst_length;
  std::size_t bursts = 0;
};

Stats statistics(const Spec& s, const Outcome& o) {
  Stats st;
  const std::size_t receivers = s.nodes - 1;
  std::set<std::tuple<std::size_t, std::size_t, std::size_t>> got;  // (k, to, seq)
  for (const auto& c : o.copies) got.insert({c.k, c.to, c.seq});
  std::size_t copies_on_air = 0;
  for (const auto& acc : o.accepted) {
    st.on_air.push_back(static_cast<std::size_t>(std::count(acc.begin(), acc.end(), true)));
    st.queue_drops.push_back(s.frames - st.on_air.back());
    copies_on_air += st.on_air.back() * receivers;
  }

  // Batches of consecutive sequence numbers, all senders and receivers.
  const std::size_t per_batch = s.frames / kBatches;
  std::vector<double> fraction(kBatches), delay_mean(kBatches), delay_p95(kBatches);
  std::vector<std::vector<double>> delays(kBatches);
  std::vector<double> all_delays;
  for (const auto& c : o.copies) {
    delays[std::min(c.seq / per_batch, kBatches - 1)].push_back(c.delay);
    all_delays.push_back(c.delay);
  }
  for (std::size_t b = 0; b < kBatches; ++b) {
    std::size_t sent = 0;
    for (const auto& acc : o.accepted)
      sent += static_cast<std::size_t>(std::count(acc.begin() + static_cast<std::ptrdiff_t>(b * per_batch),
                                                  acc.begin() + static_cast<std::ptrdiff_t>((b + 1) * per_batch), true));
    fraction[b] = static_cast<double>(delays[b].size()) / static_cast<double>(sent * receivers);
    delay_mean[b] = mean_of(delays[b]).value;
    delay_p95[b] = p95(delays[b]);
  }
  st.delivered = {static_cast<double>(o.copies.size()) / static_cast<double>(copies_on_air), mean_of(fraction).se};
  const double bits_on_air = static_cast<double>(copies_on_air * s.frame_bytes * 8);
  const double span_s = static_cast<double>(s.horizon()) / 1e6;
  st.throughput_bps = {st.delivered.value * bits_on_air / span_s, st.delivered.se * bits_on_air / span_s};
  st.delay_mean = {mean_of(all_delays).value, mean_of(delay_mean).se};
  st.delay_p95 = {p95(all_delays), mean_of(delay_p95).se};

  // Runs of lost copies on each link, in order of the sender's frames on the air.
  std::vector<double> runs;
  for (std::size_t k = 0; k < s.senders.size(); ++k)
    for (std::size_t to = 0; to < s.nodes; ++to) {
      if (to == s.senders[k]) continue;
      double run = 0;
      for (std::size_t seq = 0; seq < s.frames; ++seq) {
        if (!o.accepted[k][seq]) continue;
        if (!got.count({k, to, seq})) {
          ++run;
        } else if (run > 0) {
          runs.push_back(run);
          run = 0;
        }
      }
      if (run > 0) runs.push_back(run);
    }
  st.burst_length = mean_of(runs);
  st.bursts = runs.size();
  return st;
}

void expect_agree(const char* what, const Estimate& sim, const Estimate& emu) {
  const double tolerance = kZ * std::hypot(sim.se, emu.se);
  EXPECT_GT(tolerance, 0) << what;
  EXPECT_NEAR(sim.value, emu.value, tolerance)
      << what << ": simulator " << sim.value << " (se " << sim.se << "), emulator " << emu.value << " (se "
      << emu.se << ")";
}

void expect_agreement(const Spec& s) {
  const Stats sim = statistics(s, run_simulator(s, 17));
  const Stats emu = statistics(s, run_emulator(s, 17));
  // The test exercises what it claims: queues overflow, losses come in bursts.
  std::size_t drops = 0;
  for (auto d : sim.queue_drops) drops += d;
  EXPECT_GT(drops, s.frames / 20);
  EXPECT_GT(sim.bursts, 200u);
  EXPECT_EQ(sim.on_air, emu.on_air);
  EXPECT_EQ(sim.queue_drops, emu.queue_drops);
  expect_agree("delivered fraction", sim.delivered, emu.delivered);
  expect_agree("throughput bit/s", sim.throughput_bps, emu.throughput_bps);
  expect_agree("delay mean us", sim.delay_mean, emu.delay_mean);
  expect_agree("delay p95 us", sim.delay_p95, emu.delay_p95);
  expect_agree("mean loss burst", sim.burst_length, emu.burst_length);
}

// 200 + 28 bytes at 256 kbit/s: 7125 us on the air, a whole microsecond count.
TEST(LinkEffectsAgreement, RadiosWithBurstLossDelayJitterAndDropTail) {
  Spec s;
  s.nodes = 3;
  s.senders = {0, 1};
  s.burst = GilbertParams{0.05, 0.25, 0.7};
  s.latency = 20'000;
  s.jitter = 10'000;
  expect_agreement(s);
}

TEST(LinkEffectsAgreement, SharedChannelWithThreeSenders) {
  Spec s;
  s.nodes = 4;
  s.senders = {0, 1, 2};
  s.shared_channel = true;
  s.queue = 10;
  s.burst = GilbertParams{0.02, 0.2, 0.9};
  s.latency = 50'000;
  s.jitter = 30'000;
  s.burst_frames = 15;
  s.spacing = 3000;
  s.period = 500'000;
  expect_agreement(s);
}

}  // namespace
}  // namespace dissem::emu
