#include "engine/queue_growth.h"

#include <algorithm>

namespace dissem::engine {

void QueueGrowth::on_sample(Micros sent_at, std::uint64_t sent_bytes, Micros queue) {
  const auto at = std::find_if(samples_.begin(), samples_.end(), [&](const Sample& s) { return s.sent_at >= sent_at; });
  if (at != samples_.end() && at->sent_at == sent_at) {
    at->queue = std::max<Micros>(0, queue);  // another neighbour's view of the same beacon: the newest
    return;
  }
  samples_.insert(at, Sample{sent_at, sent_bytes, std::max<Micros>(0, queue)});
  while (samples_.size() > kSamples) samples_.pop_front();
}

std::optional<QueueGrowth::Estimate> QueueGrowth::estimate(Micros now) const {
  if (samples_.size() < 2) return std::nullopt;
  const Sample& last = samples_.back();
  if (now - last.sent_at > kMaxSpan) return std::nullopt;
  for (auto it = samples_.rbegin() + 1; it != samples_.rend(); ++it) {
    const Micros span = last.sent_at - it->sent_at;
    if (span < kMinSpan) continue;
    if (span > kMaxSpan || last.sent_bytes < it->sent_bytes) return std::nullopt;
    const double seconds = static_cast<double>(span) / static_cast<double>(kSeconds);
    Estimate e;
    e.growth = static_cast<double>(last.queue - it->queue) / static_cast<double>(span);
    e.sent_bps = static_cast<double>(last.sent_bytes - it->sent_bytes) * 8.0 / seconds;
    // The queue cannot shrink faster than it serves (g >= -1); a smaller
    // figure is noise in the samples.
    e.link_bps = e.sent_bps / std::max(0.05, 1.0 + e.growth);
    return e;
  }
  return std::nullopt;
}

std::optional<Micros> QueueGrowth::queue(Micros now) const {
  if (samples_.empty() || now - samples_.back().sent_at > kMaxSpan) return std::nullopt;
  return samples_.back().queue;
}

std::optional<QueueGrowth::Cut> QueueGrowth::cut(double from, double sending_bps, Micros queue, bool measured,
                                                  Micros now) const {
  Cut c;
  c.link_bps = from;
  const auto e = estimate(now);
  if (e && e->sent_bps > 0) c.link_bps = std::min(c.link_bps, e->link_bps);
  // Only a queue measured now has a growth of its own. Behind a run of
  // missing beacons the queue is full and drops: it would grow as fast as
  // what we send exceeds what the link carries.
  double growth = 0;
  if (measured && e) {
    growth = e->growth;
    if (growth < 0 && static_cast<double>(queue) <= -growth * static_cast<double>(kDefaultHorizon))
      return std::nullopt;  // shrinking by itself, gone within the default horizon
  } else if (!measured && c.link_bps > 0) {
    growth = sending_bps / c.link_bps - 1.0;
  }
  const Micros horizon =
      growth > 0 ? std::clamp(static_cast<Micros>(static_cast<double>(queue) / growth), kMinHorizon, kMaxHorizon)
      : measured && e ? kMaxHorizon
                      : kDefaultHorizon;
  c.target_bps = c.link_bps * std::max(kMinDrain, 1.0 - static_cast<double>(queue) / static_cast<double>(horizon));
  return c;
}

}  // namespace dissem::engine
