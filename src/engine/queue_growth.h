// How far to cut when a queue between us and a neighbour stands: sized from
// how fast the queue grows, not by a fixed factor (rate_adaptation.h uses it).
//
// Each fresh echo of one of our beacons gives the queueing delay that
// beacon met: its round trip less the neighbour's smallest recent one. Two
// such samples, of beacons sent t apart with B bytes of ours sent between
// them, give
// - the growth g = (q2 - q1) / t: seconds of queue gained per second;
// - what we sent, S = 8 B / t;
// - what the link carries, C = S / (1 + g): a queue in seconds grows at
//   S / C - 1 when S goes in and C comes out.
// A cut to C stops the growth; the queue already standing must also drain.
// It drains within H at C (1 - q / H). H is the time the queue took to
// build, q / g, within [kMinHorizon, kMaxHorizon], and kDefaultHorizon
// while no growth is known: a queue that built in a second (a radio that
// slowed to an eighth) goes as fast, and one that crept up over seconds (a
// link that carries a few per cent less than the nominal rate) is drained
// as gently. The cut never goes below kMinDrain of C in one step; a queue
// that already shrinks fast enough (g < 0, gone within kDefaultHorizon)
// needs no cut at all. Draining below C costs a transfer nothing while the
// queue still feeds the link; the caller goes back to C as soon as an echo
// shows the queue gone.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "core/types.h"

namespace dissem::engine {

class QueueGrowth {
 public:
  static constexpr Micros kMinSpan = 100 * kMillis;   // closer samples: noise, not growth
  static constexpr Micros kMaxSpan = 5 * kSeconds;    // older ones describe another queue
  static constexpr Micros kMinHorizon = 500 * kMillis;
  static constexpr Micros kMaxHorizon = 4 * kSeconds;
  static constexpr Micros kDefaultHorizon = 1 * kSeconds;
  static constexpr double kMinDrain = 0.5;
  static constexpr std::size_t kSamples = 16;

  struct Estimate {
    double growth = 0;    // seconds of queue per second
    double sent_bps = 0;  // what we sent between the two samples (IP bits per second)
    double link_bps = 0;  // what the link carried meanwhile
  };

  // The beacon we sent at `sent_at`, when `sent_bytes` bytes had gone out in
  // all, met `queue` of queueing delay.
  void on_sample(Micros sent_at, std::uint64_t sent_bytes, Micros queue);

  // From the newest sample (by send time) and the newest one at least
  // kMinSpan and at most kMaxSpan before it; none with fewer, or when the
  // newest was sent more than kMaxSpan before `now`.
  std::optional<Estimate> estimate(Micros now) const;
  // The newest sample's queue (none, or older than kMaxSpan: nothing).
  std::optional<Micros> queue(Micros now) const;

  // The pace to take when a queue of `queue` stands (`measured`: by the
  // echo at hand, else assumed behind a run of missing beacons) and `from`
  // is what the link carried as best known otherwise (what we sent, what
  // the neighbour says it received): the link's rate from the growth when
  // that is lower, less what drains the queue. Nothing when a measured
  // queue drains by itself. Behind a run, the growth is what we send now,
  // `sending_bps`, over what the link carries, less one. A measured queue
  // that is not growing gets the longest horizon.
  struct Cut {
    double target_bps = 0;
    double link_bps = 0;  // what the link carries: the pace once the queue is gone
  };
  std::optional<Cut> cut(double from, double sending_bps, Micros queue, bool measured, Micros now) const;

 private:
  struct Sample {
    Micros sent_at = 0;
    std::uint64_t sent_bytes = 0;
    Micros queue = 0;
  };
  std::deque<Sample> samples_;  // by send time, oldest first
};

}  // namespace dissem::engine
