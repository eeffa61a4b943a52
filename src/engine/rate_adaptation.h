// Rate adaptation to a bottleneck nobody tells us about (Mockets' link
// monitoring; seed 000, experiment 4). A radio that slows down (an HF modem
// stepping down its waveform, a satellite terminal in rain fade, a tactical
// radio sharing its slots) keeps accepting datagrams into its queue and
// drops what the queue cannot hold. The host was told the nominal rate, so
// it keeps pacing at that rate: the queue stays full, every datagram waits
// behind it, and what is dropped must be repaired through the same queue.
//
// Loss alone cannot tell this apart from a lossy radio that is not
// overloaded (the baseline experiments' radios lose up to 90 %): backing off
// there only slows repair. Two signals can, both read from each neighbour's
// beacon echo of our own beacons:
// - Delay. Every fresh echo gives a round-trip sample, less the time the
//   beacon waited in our own pacer (a beacon is stamped when built and may
//   wait for the datagram ahead of it: at a low pace that is long, and no
//   queue of the network's). The smallest sample of the last kBaseWindow is
//   the path without a queue (peers.h keeps it). A sample above
//   base + margin means a standing queue. The margin is at least the base
//   itself, `min_margin`, and the slack the caller says a sample may carry
//   with no queue in the network (a few datagrams in the radio's own
//   queue). An echo of a beacon the neighbour echoed before is no sample.
// - Runs of our beacons that never arrived. A short queue that is always
//   full drops most of what reaches it, our beacons too, so a neighbour
//   keeps echoing an old one. k beacons in a row that had time to arrive
//   before the neighbour built its echo and did not are congestion when the
//   loss it reports now, p, makes that unlikely (p^k < kRunSignificance,
//   k >= 2); on a link that loses half, a run of two means nothing.
//
// On either signal the cap falls below the rate the link carried: the
// lowest of what the neighbour reports it received of ours (wire
// Echo.received_bytes_per_s), what we sent over the last kSentWindow, and
// what the queue's growth between two echoed beacons says the link carried;
// less what drains the standing queue in about the time it took to build
// (queue_growth.h). A queue that grows slowly is cut gently, one that grew
// in a second is cut as deep; a blind cut of the nominal rate would either
// not reach below the link or fall far beneath it. Only
// evidence produced after a decrease has had the margin to take effect
// (beacons sent since) can lower it again. An echo without either signal
// raises the cap by `increase` (once per increase_interval, however many
// neighbours echo), and by larger steps while such intervals follow each
// other, up to the nominal rate. With no signal for `recovery`,
// the cap is lifted whole: a neighbour that stopped echoing cannot hold us
// down.
//
// One cap for all neighbours: what we send is broadcast, so the slowest
// queue between us and any neighbour sets the pace for all.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>

#include "engine/queue_growth.h"
#include "engine/rate_window.h"
#include "core/types.h"

namespace dissem::engine {

struct RateAdaptationParams {
  bool enabled = true;
  double increase = 1.25;        // cap x this on a quiet echo, at most once per increase_interval
  Micros increase_interval = 1 * kSeconds;
  double floor_fraction = 0.05;  // never below this share of the nominal rate
  Micros min_margin = 100 * kMillis;
  Micros recovery = 30 * kSeconds;
};

// What one neighbour's echo of our beacon says.
struct EchoReport {
  std::uint64_t echoed_stamp = 0;  // the stamp of the newest beacon of ours it heard
  Micros held = 0;                 // from hearing it to building the beacon that echoes it
  std::optional<Micros> rtt;       // the round trip it gives (own pacer wait taken out: fresh_rtt)
  Micros base_rtt = 0;             // the neighbour's smallest recent sample (0: none)
  double usual_loss = 0;           // the neighbour's usual loss of what we send
  Micros slack = 0;                // delay a sample may carry with no queue in the network
  std::optional<double> delivered_bps;  // what the neighbour received of ours, as it reports (bit/s)
};

class RateAdaptation {
 public:
  // How long a neighbour's smallest sample (and lowest loss) stands for the
  // path without a queue: longer than any dip we expect to ride out.
  static constexpr Micros kBaseWindow = 30 * kSeconds;
  // Datagrams a radio's own queue may hold ahead of a beacon with no
  // overload: their serialisation is slack, not congestion.
  static constexpr int kRadioQueueSlack = 4;
  // A run of missing beacons this unlikely under the usual loss is a signal.
  static constexpr double kRunSignificance = 0.01;
  static constexpr std::size_t kBeaconHistory = 64;

  // What we sent over the last kSentWindow is the rate a cut starts from:
  // short, so it is what went into the queue just before the signal.
  static constexpr Micros kSentWindow = 1 * kSeconds;

  RateAdaptation(std::uint64_t nominal_bps, RateAdaptationParams p)
      : p_(p), nominal_(static_cast<double>(std::max<std::uint64_t>(nominal_bps, 1))), cap_(nominal_),
        sent_(kSentWindow) {}

  // A datagram of `bytes` (IP bytes, as the pacer counts them) went out.
  void on_sent(std::size_t bytes, Micros now) {
    if (!p_.enabled) return;
    sent_.add(now, bytes);
    sent_total_ += bytes;
  }

  // One of our beacons was built at `built_at`, stamped `stamp` (the Unix
  // time it carries: the same instant on the wall clock, engine/wall_clock.h);
  // it goes out (on_beacon_sent) when the pacer lets it, after any built
  // before it.
  void on_beacon_built(std::uint64_t stamp, Micros built_at) {
    beacons_.push_back(Beacon{stamp, built_at, 0, 0, 0});
    if (beacons_.size() > kBeaconHistory) beacons_.pop_front();
  }
  void on_beacon_sent(Micros now) {
    for (auto& b : beacons_)
      if (b.sent_at == 0) {
        b.sent_at = now;
        b.sent_total = sent_total_;
        return;
      }
  }

  // The round trip an echo of `stamp` gives, `raw` = now - stamp - held,
  // without our pacer's wait; nothing for a beacon the neighbour echoed
  // before (its hold time grew; it says nothing new). Unknown stamps (older
  // than the history) are taken as they are.
  std::optional<Micros> fresh_rtt(std::uint64_t stamp, Micros raw) {
    Beacon* b = find(stamp);
    if (b == nullptr) return raw;
    const bool again = b->echoes >= 1;
    if (b->echoes < 2) ++b->echoes;
    if (again) return std::nullopt;
    const Micros waited = b->sent_at != 0 ? std::max<Micros>(0, b->sent_at - b->built_at) : 0;
    return raw - waited;
  }

  // A neighbour's echo, received at `now`. True when it lowered the cap.
  bool on_echo(const EchoReport& e, Micros now) {
    if (!p_.enabled) return false;
    const Micros margin = std::max({e.base_rtt, p_.min_margin, e.slack});
    std::optional<Micros> evidence;  // when the evidence of a queue was sent
    if (e.rtt && e.base_rtt > 0) {
      if (const Beacon* b = find(e.echoed_stamp); b != nullptr && b->sent_at != 0)
        growth_.on_sample(b->sent_at, b->sent_total, *e.rtt - e.base_rtt);
      if (*e.rtt > e.base_rtt + margin) evidence = sent_at(e.echoed_stamp);
    }
    if (!evidence) evidence = missing_run(e, margin, now);
    if (!evidence) {
      if (e.rtt && cap_ < link_) {
        // The queue the last cut drained is gone: back to what the link
        // carried at once (below it, the link would idle).
        cap_ = link_;
        last_increase_ = now;
      } else if (e.rtt && cap_ < nominal_ && now - last_increase_ >= p_.increase_interval) {
        // Quiet interval after quiet interval, the dip is over: past two,
        // the steps grow (x1.5, then doubling) so the pace is back in seconds.
        const double step = quiet_streak_ < 2 ? p_.increase : quiet_streak_ == 2 ? 1.5 : 2.0;
        cap_ = std::min(nominal_, cap_ * std::max(step, p_.increase));
        last_increase_ = now;
        ++quiet_streak_;
      }
      return false;
    }
    last_signal_ = now;
    quiet_streak_ = 0;
    // Sent before the last cut took effect: it says nothing about the new
    // pace. The queue the evidence found took as long as the evidence is old
    // to build; it gets that long to drain before anything counts again.
    if (*evidence <= quiet_until_) return false;
    const double floor = p_.floor_fraction * nominal_;
    const double sending = sent_.bytes_per_second(now) * 8.0;
    double from = std::min(cap_, sending);
    if (e.delivered_bps) from = std::min(from, *e.delivered_bps);
    // A run of missing beacons measures no queue: the last sample stands
    // for it (a queue that drops is full), else the margin.
    const bool measured = e.rtt && e.base_rtt > 0;
    const Micros queue = measured ? *e.rtt - e.base_rtt : growth_.queue(now).value_or(margin);
    const auto cut = growth_.cut(std::max(from, floor), sending, std::max(queue, margin), measured, now);
    if (!cut) return false;  // the queue drains by itself
    cap_ = std::max(floor, std::min(cap_, cut->target_bps));
    link_ = std::max(cap_, std::min(cut->link_bps, nominal_));
    quiet_until_ = now + std::max(margin, now - *evidence);
    ++decreases_;
    return true;
  }

  // The rate we may send at now (bits per second).
  std::uint64_t cap_bps(Micros now) {
    if (cap_ < nominal_ && now - last_signal_ > p_.recovery) cap_ = nominal_;
    return static_cast<std::uint64_t>(cap_);
  }
  std::uint64_t decreases() const { return decreases_; }

  // Beacons in a row a neighbour must miss for a usual loss of `loss` to
  // explain them less than kRunSignificance of the time (0: no run can).
  static std::size_t run_needed(double loss) {
    if (loss <= 0.0) return 2;
    if (loss >= 0.75) return 0;
    const double k = std::ceil(std::log(kRunSignificance) / std::log(loss));
    return std::max<std::size_t>(2, static_cast<std::size_t>(k));
  }

 private:
  struct Beacon {
    std::uint64_t stamp = 0;
    Micros built_at = 0;
    Micros sent_at = 0;  // 0: not sent yet
    std::uint64_t sent_total = 0;  // our bytes sent in all when it went
    int echoes = 0;      // echoes heard of it (counted to 2)
  };

  Beacon* find(std::uint64_t stamp) {
    for (auto& b : beacons_)
      if (b.stamp == stamp) return &b;
    return nullptr;
  }
  Micros sent_at(std::uint64_t stamp) const {
    for (const auto& b : beacons_)
      if (b.stamp == stamp && b.sent_at != 0) return b.sent_at;
    return static_cast<Micros>(stamp);
  }

  // The send time of the first beacon of a significant run the neighbour
  // missed: ours sent after the one it echoes, early enough to have reached
  // it (with the margin's queue) before it built the echoing beacon, after
  // the last decrease took effect. The build time is not the arrival time:
  // the echoing beacon may itself have waited behind the neighbour's data.
  // It is at least our send time of the echoed beacon plus the hold time
  // the neighbour reports (the forward trip only adds to it).
  std::optional<Micros> missing_run(const EchoReport& e, Micros margin, Micros now) const {
    const std::size_t needed = run_needed(e.usual_loss);
    if (needed == 0 || e.echoed_stamp == 0) return std::nullopt;
    auto it = std::find_if(beacons_.begin(), beacons_.end(), [&](const Beacon& b) { return b.stamp == e.echoed_stamp; });
    if (it == beacons_.end() || it->sent_at == 0) return std::nullopt;
    const Micros built = std::min(now, it->sent_at + e.held);
    std::size_t run = 0;
    Micros first = 0;
    for (++it; it != beacons_.end(); ++it) {
      if (it->sent_at == 0 || it->sent_at + e.base_rtt + margin > built) break;
      if (it->sent_at <= quiet_until_) continue;
      if (run++ == 0) first = it->sent_at;
    }
    return run >= needed ? std::optional<Micros>(first) : std::nullopt;
  }

  RateAdaptationParams p_;
  double nominal_;
  double cap_;
  RateWindow sent_;
  std::uint64_t sent_total_ = 0;
  QueueGrowth growth_;
  double link_ = 0;  // what the link carried at the last cut: the pace once its queue drained
  std::deque<Beacon> beacons_;  // our recent beacons, oldest first
  Micros last_signal_ = std::numeric_limits<Micros>::min() / 2;
  Micros quiet_until_ = std::numeric_limits<Micros>::min() / 2;
  Micros last_increase_ = std::numeric_limits<Micros>::min() / 2;
  std::uint64_t decreases_ = 0;
  int quiet_streak_ = 0;  // increases since the last signal
};

}  // namespace dissem::engine
