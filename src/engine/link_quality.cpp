#include "engine/link_quality.h"

#include <algorithm>
#include <cmath>

namespace dissem::engine {

LinkQuality::LinkQuality(std::size_t max_peers, Micros rate_window, Micros beacon_interval)
    : max_peers_(max_peers), rate_window_(rate_window), beacon_interval_(beacon_interval), sent_(rate_window) {}

LinkQuality::Link* LinkQuality::record(NodeId peer, const PeerTable& peers) {
  if (peer == 0 || !peers.all().contains(peer)) return nullptr;
  if (auto it = links_.find(peer); it != links_.end()) return &it->second;
  if (links_.size() >= max_peers_)
    std::erase_if(links_, [&](const auto& entry) { return !peers.all().contains(entry.first); });
  if (links_.size() >= max_peers_) return nullptr;
  return &links_.emplace(peer, Link(rate_window_, std::max<Micros>(beacon_interval_, kSeconds))).first->second;
}

void LinkQuality::on_beacon(NodeId peer, std::uint32_t seq, Micros now, const PeerTable& peers) {
  Link* l = record(peer, peers);
  if (l == nullptr) return;
  if (!l->beacon_seen || seq < l->last_seq) {
    // First beacon, or the peer restarted (its numbering went back): afresh.
    l->expected = 1;
    l->heard = 1;
    l->beacon_gap = 0;
  } else if (seq > l->last_seq) {
    l->beacon_gap = next_beacon_gap(l->beacon_gap, now - l->last_beacon_at, seq - l->last_seq);
    l->expected += seq - l->last_seq;
    l->heard += 1;
    if (l->expected > kBeaconHorizon) {
      l->expected /= 2;
      l->heard /= 2;
    }
  } else {
    return;  // the same beacon again: a replay is no evidence
  }
  l->beacon_seen = true;
  l->last_seq = seq;
  l->last_beacon_at = now;
}

void LinkQuality::on_received(NodeId peer, std::size_t bytes, Micros now, const PeerTable& peers) {
  if (Link* l = record(peer, peers)) {
    l->received.add(now, bytes);
    l->recent.add(now, bytes);
  }
}

std::optional<std::uint32_t> LinkQuality::recent_rate_for_echo(NodeId peer, Micros now) const {
  const auto it = links_.find(peer);
  if (it == links_.end()) return std::nullopt;
  const double rate = it->second.recent.bytes_per_second(now);
  if (rate < 1.0) return std::nullopt;
  return static_cast<std::uint32_t>(std::min(rate, 4e9));
}

void LinkQuality::on_loss_report(NodeId peer, std::uint32_t loss_permille, Micros, const PeerTable& peers) {
  if (Link* l = record(peer, peers)) l->loss_out = std::min(loss_permille, 1000u) / 1000.0;
}

std::optional<double> LinkQuality::loss_in(NodeId peer, const ReceptionMeter& reception, Micros now) const {
  double expected = 0;
  double heard = 0;
  if (auto it = links_.find(peer); it != links_.end() && it->second.beacon_seen) {
    const Link& l = it->second;
    // Beacons that should have come since the last one (half a period of
    // grace for the senders' jitter) count as missed. The period is ours,
    // or the peer's as observed when clearly longer (many nodes on a
    // channel space their beacons out; jitter alone is not that).
    double overdue = 0;
    const Micros period = 2 * l.beacon_gap > 3 * beacon_interval_ ? l.beacon_gap : beacon_interval_;
    if (period > 0 && now > l.last_beacon_at)
      overdue = std::max(0.0, std::floor(static_cast<double>(now - l.last_beacon_at) /
                                             static_cast<double>(period) - 0.5));
    expected += l.expected + overdue;
    heard += l.heard;
  }
  if (auto it = reception.publishers().find(peer); it != reception.publishers().end()) {
    expected += it->second.expected;
    heard += it->second.received;
  }
  if (expected < kMinEvidence) return std::nullopt;
  return std::clamp(1.0 - heard / expected, 0.0, 1.0);
}

std::optional<std::uint32_t> LinkQuality::loss_permille_for_echo(NodeId peer, const ReceptionMeter& reception,
                                                                 Micros now) const {
  const auto loss = loss_in(peer, reception, now);
  if (!loss) return std::nullopt;
  return static_cast<std::uint32_t>(std::lround(*loss * 1000.0));
}

std::vector<LinkSample> LinkQuality::samples(const PeerTable& peers, const ReceptionMeter& reception,
                                             Micros now) const {
  std::vector<LinkSample> out;
  const double sent = sent_.bytes_per_second(now);
  for (const auto& [id, p] : peers.all()) {
    if (!p.established()) continue;
    LinkSample s;
    s.node = id;
    s.last_heard = p.last_heard;
    s.srtt = p.srtt;
    s.beacon_loss = p.estimated_loss();
    s.clock_offset = p.clock_offset;
    s.loss_in = loss_in(id, reception, now);
    s.sent_bytes_per_s = sent;
    if (auto it = links_.find(id); it != links_.end()) {
      s.loss_out = it->second.loss_out;
      s.received_bytes_per_s = it->second.received.bytes_per_second(now);
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace dissem::engine
