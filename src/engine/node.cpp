// Construction and restart, timers and deadlines, housekeeping of the node (the
// public calls are handed here by node_api.cpp).
#include <algorithm>
#include <charconv>
#include <limits>
#include <set>

#include "controllers/controller_set.h"
#include "engine/config_keys.h"
#include "engine/fragmenter.h"
#include "engine/link_timers.h"
#include "engine/node_impl.h"
#include "wire/message_digest.h"

namespace dissem::engine {

namespace {

constexpr Micros kHousekeepingInterval = 250 * kMillis;

// A configuration the node can run with: the host must have resolved the
// "size it to the link" payload size (0) before constructing the node.
const EngineConfig& checked(const EngineConfig& c) {
  if (c.payload_size == 0)
    throw ConfigError("config key 'payload_size': 0 (from the link's MTU) must be resolved by the host before the node starts");
  return c;
}

RateAdaptationParams adaptation_params(const EngineConfig& c) {
  RateAdaptationParams p;
  p.enabled = c.rate_adaptation;
  p.floor_fraction = c.channel_share_min;
  return p;
}

}  // namespace

NodeImpl::NodeImpl(const EngineConfig& c, std::unique_ptr<cache::Store> s, Micros now)
    : NodeContext(with_link_timers(checked(c)), std::move(s)),
      naming(c.node_id, c.max_streams * 2),
      peers(c.max_peers),
      ntm(0),
      channel(c.send_rate_bps(), c.channel_share_min),
      radio_model(config.traffic_window),
      adaptation(c.send_rate_bps(), adaptation_params(c)),
      pacer(c.send_rate_bps(), c.per_datagram_overhead, Pacer::kDefaultBurst),
      split(c.repair_share),
      floor(c.priority_floor),
      frame_sizes(std::min(config.payload_size, EngineConfig{}.payload_size) + 48, config.payload_size + 48),
      block_memory(0),
      redundancy(c.redundancy_min, c.redundancy_max, c.redundancy_cover),
      links(c.max_peers, c.link_rate_window, config.beacon_interval),
      link_watch(c.link_thresholds) {
  auto controller_set = controllers::make_controllers(c.controllers);
  forwarding = std::move(controller_set.forwarding);
  replication = std::move(controller_set.replication);
  deletion = std::move(controller_set.deletion);
  limits.max_message_size = c.max_message_size;
  limits.max_group_name = c.max_group_name;
  limits.max_request_ranges = c.max_request_fragments;
  limits.max_request_messages = c.max_request_fragments;
  redundancy.set_silent_receivers(c.silent_receivers_loss, c.silent_delivery_target);
  silent = c.silent || silence_kept();
  stats.silent = silent;
  update_timing();
  restore_cache();
  // Spread first beacons so nodes started together do not collide.
  beacons.start(now);
  next_housekeeping = now + kHousekeepingInterval;
  request_rounds.start(now);
  replicator.start(now);
}

// Restart: everything cached comes back; what was complete stays settled
// and what was partial is requested again once someone subscribes.
void NodeImpl::restore_cache() {
  for (auto& rec : store->load_index()) {
    // Messages cached before digests existed get theirs now.
    if (rec.complete && rec.meta.digest == 0) {
      rec.meta.digest = integrity.cached_digest(rec.meta.id);
      store->set_digest(rec.meta.id, rec.meta.digest);
    }
    // After an unclean shutdown a payload file may read back other bytes
    // than were written (a power loss): such a message is checked, and
    // dropped (to be fetched again like any missing one) if it fails.
    if (rec.complete && rec.unverified && integrity.cached_digest(rec.meta.id) != rec.meta.digest) {
      ++stats.integrity[static_cast<std::size_t>(IntegrityEvent::VerifyFailed)];
      store->erase(rec.meta.id);
      continue;
    }
    tracker.restore(rec.meta, rec.complete, rec.fragments, rec.first_seen);
    expiries.note(rec.meta);
    if (rec.own) {
      // Whether their first pass finished before the restart is unknown:
      // advertise them, and receivers that miss any will ask.
      auto& last = own.published_seq[rec.meta.id.group];
      last = std::max(last, rec.meta.id.seq);
      own.sent_seq[rec.meta.id.group] = last;
    }
  }
  // The durable counters can be ahead of the messages still cached (our own
  // may have been evicted): the counter, not the cache, is what never goes back.
  for (auto& [group, last] : own.published_seq) last = std::max(last, saved_seq(*store, group));
  subscribers.restore();
  naming.restore(*store);
  ended_claims.streams().restore(*store);
}

void NodeImpl::update_timing() {
  timing = Timing::derive(config, peers.rtt_estimate(config.configured_rtt), peers.established_count(),
                          frame_sizes.bytes());
  ntm.set_window(timing.ntm_window);
  block_memory.set_window(timing.ntm_window);
}

void NodeImpl::run_request_round(Micros now) {
  if (tracker.incomplete_count() == 0) return;
  if (cache_outage.active()) return;  // what answered could not be kept
  if (!traffic_below(config.traffic_gate_fraction, now)) {
    ++stats.mfr_rounds_gated;
    return;
  }
  if (auto mfr = request_rounds.build([this](const std::string& g) { return asks_for_group(g); }, now))
    enqueue_control(std::move(*mfr), TrafficKind::Request);
}

bool NodeImpl::traffic_below(double fraction, Micros now) {
  return receiver.traffic().rate_bps(now) < fraction * static_cast<double>(config.link_capacity_bps);
}

void NodeImpl::update_pacing(Micros now) {
  std::uint64_t rate = config.send_rate_bps();
  if (config.channel_aware) {
    double loss = 0;
    for (const auto& [source, counts] : reception.publishers())
      if (auto l = reception.loss(source)) loss = std::max(loss, *l);
    // The publisher keeps priority, as in the paper's set-up: while it has a
    // first pass to send it yields only to others' first passes, and everyone
    // else (repairs, forwards, pushes) yields to everything it hears.
    const double heard_all = receiver.traffic().air_rate_bps(now, config.per_datagram_overhead);
    const double first_passes = receiver.first_passes().rate_bps(now);
    const double heard = queues.publications.empty() ? heard_all : first_passes;
    // Only what others send proves separate radios: what this node hands
    // its radio may be waiting in a queue it cannot see.
    radio_model.on_sample(heard_all / static_cast<double>(std::max<std::uint64_t>(config.link_capacity_bps, 1)), now);
    const bool separate = radio_model.seen(now);
    const bool crowd = !separate && channel.half_filled(first_passes, loss);
    rate = channel.rate_bps(heard, loss, crowd ? 1 + peers.established_count() : 1);
    // Holders may serve the worst receivers when the receivers have radios of their own.
    redundancy.allow_cover(separate || radio_model.claimed(now) >= kSeparateRadioClaims);
  }
  pacer.set_rate(std::min(rate, adaptation.cap_bps(now)));
}

void NodeImpl::on_echo(NodeId peer, std::uint64_t stamp, Micros held, std::optional<Micros> raw_rtt,
                       std::optional<double> delivered_bps, Micros now) {
  std::optional<Micros> rtt;
  if (raw_rtt) {
    peers.on_rtt_sample(peer, *raw_rtt);
    update_timing();
    rtt = adaptation.fresh_rtt(stamp, *raw_rtt);
    if (rtt && *rtt > 0) peers.on_base_sample(peer, *rtt, now, RateAdaptation::kBaseWindow);
  }
  // Only established neighbours' echoes steer the pace (a one-off beacon
  // from an invented id cannot).
  const auto it = peers.all().find(peer);
  if (it == peers.all().end() || !it->second.established()) return;
  // No queue in the network, yet a beacon may wait behind a few datagrams in
  // the radio's own queue, at the nominal rate.
  const std::size_t datagram = config.payload_size + config.per_datagram_overhead;
  EchoReport e;
  e.echoed_stamp = stamp;
  e.held = held;
  e.rtt = rtt;
  e.base_rtt = it->second.min_rtt;
  e.delivered_bps = delivered_bps;
  // The loss it reports now (unknown: no run is significant). Not the
  // window's minimum: one low early report would make chance runs count.
  e.usual_loss = links.loss_out(peer).value_or(1.0);
  e.slack = static_cast<Micros>(static_cast<double>(RateAdaptation::kRadioQueueSlack * datagram * 8) *
                                static_cast<double>(kSeconds) / static_cast<double>(config.link_capacity_bps));
  if (adaptation.on_echo(e, now)) {
    ++stats.rate_decreases;
    update_pacing(now);
  }
}

void NodeImpl::expire_due(Micros now) {
  const std::uint64_t now_ms = to_unix_millis(wall(now));
  while (const auto due = expiries.take_due(now_ms)) {
    const MessageId& id = *due;
    const MessageState* st = tracker.find(id);
    if (st == nullptr || !st->meta || !st->meta->expired_at(wall(now))) continue;  // gone, or learnt anew
    // A message carried in from another network that expired before its
    // first pass began: shed behind fresher ones (publisher/carried_messages.cpp).
    // Only a gateway's link carries: elsewhere no queue is searched per expiry.
    const auto waiting_unsent = [&](const PublicationCursor& c) {
      return c.id == id && c.next_offset == 0 && c.parity_left == 0;
    };
    if (stats.messages_carried > 0 && id.publisher != config.node_id &&
        queues.publications.find(st->meta->priority, waiting_unsent))
      ++stats.carry_too_late;
    if (store->contains(id)) store->erase(id);
    tracker.settle(id);
    if (id.publisher == config.node_id) ended_claims.streams().own_ended(id.group, id.seq);
    ++stats.messages_expired;
    events.push(Event{Event::Kind::MessageEvicted, 0, id});
    on_message_settled(id, false, now);
  }
}

bool NodeImpl::wants_group(const std::string& group) const {
  return subscribers.subscriptions().reliable(group) || forwarding->relays(group, view);
}

std::vector<std::string> NodeImpl::wanted_groups() const {
  std::set<std::string> known = subscribers.subscriptions().groups_aloud();
  for (const auto& [stream, st] : tracker.streams())
    if (!known.contains(stream.group) && forwarding->relays(stream.group, view)) known.insert(stream.group);
  for (const auto& g : interests.groups())
    if (!known.contains(g) && forwarding->relays(g, view)) known.insert(g);
  return {known.begin(), known.end()};
}

void NodeImpl::on_peer_appeared(NodeId peer, Micros now) {
  events.push(Event{Event::Kind::PeerAppeared, peer, {}});
  update_timing();  // the serving window scales with the peers
  const std::optional<Micros> summary_delay = replicator.on_contact(peer, now);  // our summary scheduled
  if (!summary_delay) {
    // A new peer may hold what we miss: ask again soon.
    tracker.reset_backoff_all();
    return;
  }
  // The same, but after the summaries have crossed: what the peer pushes
  // need not be asked for, and asking would race the pushes.
  const Micros exchange = now + *summary_delay + timing.serve_delay_max + timing.rtt;
  tracker.reset_backoff_all(exchange);
  tracker.hold_new_requests_until(exchange);
}

bool NodeImpl::enqueue_control(std::vector<std::uint8_t> bytes, TrafficKind kind) {
  if (queues.control.size() >= config.max_queued_datagrams) {
    ++stats.queue_drops;
    return false;
  }
  queues.control.push_back(OutgoingDatagram{std::move(bytes), kind});
  return true;
}

// --- API calls ---------------------------------------------------------------

// --- timers ------------------------------------------------------------------

void NodeImpl::on_timer(Micros now) {
  if (const auto probe = cache_outage.next_probe(); probe && now >= *probe) probe_cache(now);
  if (!silent) run_producers(now);
  expire_due(now);
  if (now >= next_housekeeping) {
    housekeeping(now);
    next_housekeeping = now + kHousekeepingInterval;
  }
  subscribers.on_timer(now);
}

// What builds datagrams for the air when due (none of it runs while silent).
void NodeImpl::run_producers(Micros now) {
  repair_server.serve_due(now);
  window_coder.release_due(now);
  release_due_forwards(now);
  if (replicator.active()) {
    replicator.start_due_pushes(now);
    replicator.release_pushes(now);
    if (replicator.summary_due_by(now))
      enqueue_control(replicator.build_summary(wanted_groups(), now), TrafficKind::Summary);
  }
  if (now >= request_rounds.next()) {
    run_request_round(now);
    request_rounds.round_done(now);
  }
  if (now >= beacons.next()) beacon_due(now);
}

void NodeImpl::beacon_due(Micros now) {
  if (beacon_pending || beacons.hold(now, !queues.publications.empty())) return;
  if (config.rate_adaptation) {
    beacon_pending = true;  // built by next_frame when the pacer lets it go
    return;
  }
  auto beacon = beacons.build(now);
  const std::size_t size = beacon.bytes.size();
  // Rate adaptation pairs each beacon that goes out with its stamp, in order.
  if (enqueue_control(std::move(beacon.bytes), TrafficKind::Beacon))
    adaptation.on_beacon_built(static_cast<std::uint64_t>(wall(now)), now);
  beacons.sent(now, size, beacon.content);
}

Micros NodeImpl::next_deadline() const {
  Micros t = next_housekeeping;
  if (const auto probe = cache_outage.next_probe()) t = std::min(t, *probe);
  if (const auto due = expiries.next_due()) t = std::min(t, *due - wall_clock.offset());
  t = std::min(t, subscribers.next_deadline());
  if (silent) return t;  // nothing is built for the air, nothing is sent
  if (!beacon_pending) t = std::min(t, beacons.next());
  if (tracker.incomplete_count() > 0) t = std::min(t, request_rounds.next());
  if (auto due = repair_server.next_due()) t = std::min(t, *due);
  if (auto due = window_coder.next_due()) t = std::min(t, *due);
  if (!queues.forwards.empty()) t = std::min(t, queues.forwards.begin()->first);
  if (auto due = replicator.next_deadline()) t = std::min(t, *due);
  if (beacon_pending || !queues.control.empty() || !queues.publications.empty() || !queues.repairs.empty() ||
      !queues.coded.empty() || !queues.windows.empty())
    t = std::min(t, pacer.next_send_time());
  if (auto due = bundle_due()) t = std::min(t, *due);
  return t;
}

void NodeImpl::housekeeping(Micros now) {
  stats.hearsay_expired += tracker.expire_hearsay(now - config.hearsay_lifetime);
  stats.hearsay_displaced = tracker.hearsay_displaced();
  stats.hearsay_refused = tracker.hearsay_refused();
  stats.peers_refused = peers.refused();
  for (NodeId gone : peers.expire(now, config.peer_silent_after)) {
    events.push(Event{Event::Kind::PeerSilent, gone, {}});
    interests.forget(gone);
    two_hop.forget(gone);
    relay_watch.forget(gone);
    replication->on_peer_silent(gone);
    repair_server.forget(gone);
    update_timing();
  }
  update_timing();  // the data frames' size moves the timers
  evaluate_links(now);
  redundancy.expire(now, 2 * config.peer_silent_after);
  enforce_quota(now);
  cache_write([&] { store->flush(); }, now);
}

// While the cache cannot write: a write of our own the size of a fragment,
// committed, then taken back. If it goes through, the node takes and asks
// for data again (under the evict policy, in the room made first).
void NodeImpl::probe_cache(Micros now) {
  if (cache_outage.quota_cap() < store->total_bytes() && !cache_write([&] { enforce_quota(now); }, now)) return;
  constexpr const char* kProbeKey = "cache/probe";
  if (!cache_write(
          [&] {
            store->set_state(kProbeKey, std::string(config.payload_size, 'p'));
            store->flush();
            store->erase_state(kProbeKey);
            store->flush();
          },
          now))
    return;
  on_cache_write_succeeded(now);
}

void NodeImpl::report_cache_changes() {
  for (auto& change : cache_outage.take_news()) {
    Event e{change.began ? Event::Kind::CacheWriteFailed : Event::Kind::CacheResumed, 0, {}};
    e.detail = std::move(change.error);
    events.push(std::move(e));
  }
}

// Over the quota, the deletion controller picks what goes, down to its low
// watermark (so this runs once per slice of the quota, not per fragment).
// Called by housekeeping and after every received batch and publication:
// at a high rate a second between housekeeping runs would let the cache
// overshoot the quota by a second's traffic.
void NodeImpl::enforce_quota(Micros now) {
  const std::uint64_t quota = std::min(store->options().quota_bytes, cache_outage.quota_cap());
  if (store->total_bytes() > quota) {
    const auto messages = store->list_messages();
    // The controller judges expiry: it is handed Unix time.
    const auto victims = deletion->select_victims(messages, store->total_bytes(), quota, wall(now));
    for (const auto& v : victims) {
      const MessageState* st = tracker.find(v);
      const bool expired = st != nullptr && st->meta && st->meta->expired_at(wall(now));
      store->erase(v);
      tracker.settle(v);
      ++(expired ? stats.messages_expired : stats.messages_evicted);
      events.push(Event{Event::Kind::MessageEvicted, 0, v});
      on_message_settled(v, false, now);
    }
  }
}

// --- Node: the public face ---------------------------------------------------------

}  // namespace dissem::engine
