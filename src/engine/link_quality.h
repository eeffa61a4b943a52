// Link quality per neighbour, for applications (issue 14): loss in each
// direction, round-trip time, received and sent rates, last heard.
//
// - Loss peer -> us: the peer's beacons we missed (gaps in their sequence
//   numbers, plus beacons overdue by more than half an interval since the
//   last one heard) together with its first-pass data we missed
//   (reception_meter.h), counts added. Old beacon evidence fades (the counts
//   halve past kBeaconHorizon beacons), so the figure follows a link that
//   changes; it is known once kMinEvidence beacons or fragments were expected.
// - Loss us -> peer: what the peer reports of us in its beacon's echo entry
//   for us (wire Echo.loss_permille): its own peer -> us figure, seen from
//   its side. Unknown until it reports.
// - Received rate: bytes per second of the frames we could attribute to the
//   peer (datagram_sender.h: repairs name no sender) over engine.
//   link_rate_window_ms. Sent rate: all our transmissions over the same
//   window; every neighbour in range is offered all of them (broadcast).
// - Recent received rate: the same over the last beacon interval (at least
//   a second), for our echo to the peer (wire Echo.received_bytes_per_s):
//   the rate its traffic crosses the link now, for its rate adaptation.
//
// Memory: one fixed-size record per neighbour in the PeerTable, never more
// than engine.max_peers; records of neighbours the table dropped are pruned.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "engine/peers.h"
#include "engine/rate_window.h"
#include "engine/reception_meter.h"
#include "core/types.h"

namespace dissem::engine {

// One neighbour's link as measured at `at`.
struct LinkSample {
  NodeId node = 0;
  Micros last_heard = 0;
  Micros srtt = 0;           // 0 until measured
  double beacon_loss = 0;    // Peer::estimated_loss: beacon gaps since it was first heard
  std::optional<double> loss_in{};   // peer -> us, fraction in [0, 1]
  std::optional<double> loss_out{};  // us -> peer, as the peer reports it
  double received_bytes_per_s = 0;
  double sent_bytes_per_s = 0;
  std::optional<Micros> clock_offset{};  // the peer's clock minus ours (clock_offset.h), once measured
  // The worst known direction (0 when neither is known): what loss thresholds watch.
  double worst_loss() const { return std::max(loss_in.value_or(0.0), loss_out.value_or(0.0)); }
};

class LinkQuality {
 public:
  static constexpr double kBeaconHorizon = 16;  // beacons expected before old evidence halves
  static constexpr double kMinEvidence = 8;     // beacons or fragments expected before loss is known

  LinkQuality(std::size_t max_peers, Micros rate_window, Micros beacon_interval);

  // A beacon numbered `seq` from `peer` (already admitted to `peers`).
  void on_beacon(NodeId peer, std::uint32_t seq, Micros now, const PeerTable& peers);
  // `bytes` received from `peer` (0: unknown sender, ignored).
  void on_received(NodeId peer, std::size_t bytes, Micros now, const PeerTable& peers);
  // A datagram of ours went on the air.
  void on_sent(std::size_t bytes, Micros now) { sent_.add(now, bytes); }
  // `peer`'s beacon says it misses this share of what we send.
  void on_loss_report(NodeId peer, std::uint32_t loss_permille, Micros now, const PeerTable& peers);

  // Our loss estimate of what `peer` sends, once there is evidence.
  std::optional<double> loss_in(NodeId peer, const ReceptionMeter& reception, Micros now) const;
  // Bytes per second received from `peer` over the last beacon interval,
  // for our beacon's echo entry for it; nothing when none.
  std::optional<std::uint32_t> recent_rate_for_echo(NodeId peer, Micros now) const;
  // The same in permille, for our beacon's echo entry for `peer`.
  std::optional<std::uint32_t> loss_permille_for_echo(NodeId peer, const ReceptionMeter& reception, Micros now) const;
  // Every established neighbour's link, ascending by node id.
  std::vector<LinkSample> samples(const PeerTable& peers, const ReceptionMeter& reception, Micros now) const;
  double sent_bytes_per_second(Micros now) const { return sent_.bytes_per_second(now); }
  // What `peer` last reported losing of what we send, once it has.
  std::optional<double> loss_out(NodeId peer) const {
    const auto it = links_.find(peer);
    return it == links_.end() ? std::nullopt : it->second.loss_out;
  }
  std::size_t tracked() const { return links_.size(); }

 private:
  struct Link {
    Link(Micros window, Micros recent_window) : received(window), recent(recent_window) {}
    RateWindow received;
    RateWindow recent;
    bool beacon_seen = false;
    std::uint32_t last_seq = 0;
    Micros last_beacon_at = 0;
    Micros beacon_gap = 0;  // the peer's beacon period as seen here (peers.h)
    double expected = 0;  // beacons, fading
    double heard = 0;
    std::optional<double> loss_out;
  };
  // The record of `peer`, made if the table admits it and there is room.
  Link* record(NodeId peer, const PeerTable& peers);

  std::size_t max_peers_;
  Micros rate_window_;
  Micros beacon_interval_;
  RateWindow sent_;
  std::map<NodeId, Link> links_;  // ordered: deterministic iteration
};

}  // namespace dissem::engine
