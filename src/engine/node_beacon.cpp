// Beacons: peer discovery, round-trip echoes, the newest sequence number of
// every stream (in a rotating window) with its group reference, reception
// reports for publishers' redundancy, and, for the controllers that need
// them, interests and the oldest message held.
//
// Paced to the link (link_timers.h): at most beacon_max_bytes each, and on
// slow links a beacon saying nothing new doubles the wait for the next (up
// to 16x the period), while a node sending its own first pass defers them.
// "Nothing new": the same streams, peers, interests and (to 5 %) losses; a
// stream's advancing newest number is not news (its data says so).
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "engine/link_timers.h"
#include "engine/node_impl.h"
#include "wire/control_entry_sizes.h"

namespace dissem::engine {

void NodeImpl::beacon_due(Micros now) {
  const Micros longest = beacon_interval_max(config);
  // Our data on the air says we are alive and what we publish: on a slow
  // link, hold the beacon while our first pass goes (for at most the longest period).
  if (slow_link(config) && !queues.publications.empty() && now - beacons.last_at < longest) {
    beacons.next = std::min(now + config.beacon_interval, beacons.last_at + longest);
    return;
  }
  const auto [bytes, content] = send_beacon(now);
  beacons.last_at = now;
  beacons.quiet = slow_link(config) && content == beacons.last_content ? std::min<std::uint32_t>(beacons.quiet + 1, 4) : 0;
  beacons.last_content = content;
  // Never more than its half of the control share, whatever its size.
  const Micros period = std::min(std::max(config.beacon_interval, control_spacing(config, bytes)) << beacons.quiet,
                                 std::max(longest, control_spacing(config, bytes)));
  // +-10 % jitter keeps beacons of different nodes from synchronising.
  const Micros j = period / 10;
  beacons.next = now + period + rng.uniform_int(-j, j);
}

namespace {

// Echoes of the peers' latest beacons: at most half the beacon (by their typical size).
void add_echoes(NodeImpl& n, wire::Beacon& b, std::size_t limit, Micros now) {
  wire::FrameBudget echo_budget(limit / 2, wire::kBeaconEchoBase);
  for (const auto& [id, p] : n.peers.all()) {
    if (p.beacon_heard_at == 0) continue;
    if (!echo_budget.take(wire::kBeaconEchoEstimate)) break;
    auto* e = b.add_echoes();
    e->set_peer(id);
    e->set_peer_sent_us(p.beacon_sent_us);
    e->set_held_us(static_cast<std::uint32_t>(std::min<Micros>(now - p.beacon_heard_at, 0xffffffff)));
    if (auto loss = n.links.loss_permille_for_echo(id, n.reception, now)) e->set_loss_permille(*loss);
    if (n.config.rate_adaptation)
      if (auto rate = n.links.recent_rate_for_echo(id, now)) e->set_received_bytes_per_s(*rate);
  }
}

// Every stream's newest number worth advertising (ours: only what our first
// pass has sent), by stream.
std::vector<std::pair<StreamId, std::uint64_t>> newest_known(const NodeImpl& n) {
  std::vector<std::pair<StreamId, std::uint64_t>> known;
  for (const auto& [stream, st] : n.tracker.streams()) {
    std::uint64_t newest = st.newest;
    if (stream.publisher == n.config.node_id) {
      auto it = n.own.sent_seq.find(stream.group);
      newest = it == n.own.sent_seq.end() ? 0 : it->second;
    }
    if (newest > 0) known.emplace_back(stream, newest);
  }
  std::sort(known.begin(), known.end());
  return known;
}

// Newest sequence per stream, in a rotating window when they do not all fit:
// it starts where the last one stopped (the rotation advances by the
// entries sent, so every stream gets its turn). With anti-entropy, each
// entry also says from where on we hold the stream.
void add_newest(NodeImpl& n, wire::Beacon& b, wire::FrameBudget& budget) {
  const auto known = newest_known(n);
  std::map<StreamId, std::uint64_t> oldest;
  if (n.replication->learn_from_summaries()) {
    n.tracker.for_each_complete([&](const MessageMeta& m) {
      auto [it, fresh] = oldest.try_emplace(stream_of(m.id), m.id.seq);
      if (!fresh) it->second = std::min(it->second, m.id.seq);
    });
  }
  const std::size_t start = n.beacons.rotation;
  for (std::size_t i = 0; i < known.size(); ++i) {
    const auto& [stream, newest] = known[(start + i) % known.size()];
    const auto from = oldest.find(stream);
    const std::uint64_t held_from = from != oldest.end() && from->second <= newest ? from->second : 0;
    const std::uint32_t ref = n.naming.ref_of(stream.publisher, stream.group);
    const std::uint64_t ended_below = stream.publisher == n.config.node_id
                                          ? n.ended.own_watermark(stream.group, *n.store)
                                          : n.ended.learnt(stream);
    if (!budget.take(wire::beacon_newest_size(stream.group, newest, held_from, ref, ended_below))) break;
    auto* e = b.add_newest();
    e->set_group(stream.group);
    e->set_publisher(stream.publisher);
    e->set_seq(newest);
    e->set_group_ref(ref);
    e->set_ended_below(ended_below);
    if (held_from != 0) e->set_oldest(held_from);
    ++n.beacons.rotation;
  }
}

// Reception reports: the loss we measure on each publisher's first pass,
// worst first, as many as fit.
void add_reception(const NodeImpl& n, wire::Beacon& b, wire::FrameBudget& budget) {
  std::vector<std::pair<double, NodeId>> losses;
  for (const auto& [publisher, counts] : n.reception.publishers())
    if (auto loss = n.reception.loss(publisher); loss && publisher != n.config.node_id)
      losses.emplace_back(*loss, publisher);
  std::sort(losses.rbegin(), losses.rend());
  for (const auto& [loss, publisher] : losses) {
    if (!budget.take(wire::beacon_reception_size())) break;
    auto* r = b.add_reception();
    r->set_publisher(publisher);
    r->set_loss_permille(static_cast<std::uint32_t>(std::lround(loss * 1000.0)));
  }
}

// Interest, for subscription-aware forwarding, ordered by group: all of it
// fits in practice; what does not is simply not advertised this time.
// What it says is kept: the relays it names are watched (relay_watch.h).
void add_interests(NodeImpl& n, wire::Beacon& b, wire::FrameBudget& budget, Micros now) {
  n.beacons.named_relays.clear();
  const std::uint32_t radius = n.forwarding->interest_radius();
  if (radius == 0) return;
  const auto avoid = n.forwarding->names_relays() ? n.relay_watch.avoided(now) : std::set<NodeId>{};
  for (auto& i : n.interests.advertise(n.config.node_id, n.subscriptions.groups(), radius, avoid)) {
    if (!budget.take(wire::beacon_interest_size(i.group, i.distance, i.via != 0))) break;
    auto* w = b.add_interests();
    w->set_group(i.group);
    w->set_distance(i.distance);
    w->set_via(i.via);
    w->set_subscriber(i.subscriber);
    if (i.via != 0) n.beacons.named_relays.push_back(std::move(i));
  }
}

// A hash of what a beacon says, without what changes every time.
std::size_t content_hash(wire::Beacon b) {
  b.clear_sent_us();
  b.clear_seq();
  b.clear_echoes();
  for (auto& e : *b.mutable_newest()) {
    e.clear_seq();
    e.clear_oldest();
  }
  for (auto& r : *b.mutable_reception()) r.set_loss_permille(r.loss_permille() / 50);
  return std::hash<std::string>{}(b.SerializeAsString());
}

}  // namespace

std::pair<std::size_t, std::size_t> NodeImpl::send_beacon(Micros now) {
  wire::Beacon b;
  b.set_node(config.node_id);
  b.set_sent_us(static_cast<std::uint64_t>(now));
  b.set_seq(++beacons.sent);
  const std::size_t limit = beacon_max_bytes(config);
  add_echoes(*this, b, limit, now);
  wire::FrameBudget budget(limit, wire::encoded_size(b));
  add_newest(*this, b, budget);
  add_reception(*this, b, budget);
  add_interests(*this, b, budget, now);
  auto bytes = wire::encode(b);
  const std::size_t sent = bytes.size();
  // Rate adaptation pairs each beacon that goes out with its stamp, in order.
  if (enqueue_control(std::move(bytes), TrafficKind::Beacon)) adaptation.on_beacon_built(static_cast<std::uint64_t>(now));
  return {sent, content_hash(std::move(b))};
}

}  // namespace dissem::engine
