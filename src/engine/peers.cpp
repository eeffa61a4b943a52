#include "engine/peers.h"

#include <algorithm>

#include "engine/clock_offset.h"

namespace dissem::engine {

bool PeerTable::heard(NodeId id, Micros now) {
  if (auto it = peers_.find(id); it != peers_.end()) {
    it->second.last_heard = now;
    return false;
  }
  if (peers_.size() >= max_peers_) {
    // Full: the longest-silent neighbour not yet established makes room (a
    // flood of invented ids cannot lock real neighbours out).
    auto victim = peers_.end();
    for (auto it = peers_.begin(); it != peers_.end(); ++it)
      if (!it->second.established() && (victim == peers_.end() || it->second.last_heard < victim->second.last_heard))
        victim = it;
    if (victim == peers_.end()) {
      ++refused_;
      return false;
    }
    peers_.erase(victim);
    ++refused_;
  }
  peers_.emplace(id, Peer{}).first->second.last_heard = now;
  return true;
}

std::size_t PeerTable::established_count() const {
  return static_cast<std::size_t>(
      std::count_if(peers_.begin(), peers_.end(), [](const auto& p) { return p.second.established(); }));
}

void PeerTable::on_beacon(NodeId id, std::uint64_t peer_sent_us, std::uint32_t beacon_seq, Micros now) {
  auto found = peers_.find(id);
  if (found == peers_.end()) return;  // not admitted (max_peers)
  auto& p = found->second;
  // A lower number than before means the peer restarted: count afresh.
  if (p.beacons_heard == 0 || beacon_seq < p.last_beacon_seq) {
    p.first_beacon_seq = beacon_seq;
    p.beacons_heard = 0;
    p.beacon_gap = 0;
  } else if (beacon_seq > p.last_beacon_seq) {
    p.beacon_gap = next_beacon_gap(p.beacon_gap, now - p.beacon_heard_at, beacon_seq - p.last_beacon_seq);
  }
  p.last_beacon_seq = beacon_seq;
  ++p.beacons_heard;
  p.beacon_sent_us = peer_sent_us;
  p.beacon_heard_at = now;
}

void PeerTable::on_rtt_sample(NodeId id, Micros sample) {
  auto it = peers_.find(id);
  if (it == peers_.end() || sample <= 0) return;
  auto& srtt = it->second.srtt;
  srtt = srtt == 0 ? sample : (7 * srtt + sample) / 8;  // RFC 6298 gain
}

void PeerTable::on_base_sample(NodeId id, Micros sample, Micros now, Micros base_window) {
  auto it = peers_.find(id);
  if (it == peers_.end() || sample <= 0) return;
  Peer& p = it->second;
  if (p.min_rtt == 0 || sample <= p.min_rtt || now - p.min_rtt_at > base_window) {
    p.min_rtt = sample;
    p.min_rtt_at = now;
  }
}

void PeerTable::on_clock_sample(NodeId id, Micros offset, Micros rtt, Micros now, Micros window) {
  auto it = peers_.find(id);
  if (it == peers_.end() || rtt <= 0) return;
  Peer& p = it->second;
  if (!p.clock_offset || rtt <= p.clock_offset_rtt || now - p.clock_offset_at > window) {
    p.clock_offset = offset;
    p.clock_offset_rtt = rtt;
    p.clock_offset_at = now;
  }
}

bool PeerTable::on_skew_check(NodeId id, Micros limit) {
  auto it = peers_.find(id);
  if (it == peers_.end() || !it->second.clock_offset) return false;
  Peer& p = it->second;
  return clock_skew_crossed(*p.clock_offset, p.clock_offset_rtt / 2, limit, p.clock_skew_reported);
}

std::vector<NodeId> PeerTable::expire(Micros now, Micros silent_after) {
  std::vector<NodeId> gone;
  for (auto it = peers_.begin(); it != peers_.end();) {
    if (now - it->second.last_heard > std::max(silent_after, kSilentBeaconPeriods * it->second.beacon_gap)) {
      gone.push_back(it->first);
      it = peers_.erase(it);
    } else {
      ++it;
    }
  }
  return gone;
}

Micros PeerTable::rtt_estimate(Micros fallback) const {
  Micros worst = 0;
  for (const auto& [id, p] : peers_) worst = std::max(worst, p.srtt);
  return worst > 0 ? worst : fallback;
}

std::optional<Micros> PeerTable::median_clock_offset(Micros since) const {
  std::vector<Micros> offsets;
  for (const auto& [id, p] : peers_)
    if (p.established() && p.clock_offset && p.clock_offset_at >= since) offsets.push_back(*p.clock_offset);
  if (offsets.empty()) return std::nullopt;
  const auto middle = offsets.begin() + static_cast<std::ptrdiff_t>(offsets.size() / 2);
  std::nth_element(offsets.begin(), middle, offsets.end());
  return *middle;
}

void PeerTable::shift_clock_offsets(Micros by) {
  for (auto& [id, p] : peers_)
    if (p.clock_offset) *p.clock_offset -= by;
}

}  // namespace dissem::engine
