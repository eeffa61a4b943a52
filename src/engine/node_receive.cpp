// Each kind of received frame handled, once the receiver (receiver/) has
// opened and decoded it: data, requests, beacons, summaries here, coded and
// window symbols in node_coding.cpp and node_windows.cpp. A fragment held
// for the first time goes through accept_fragment: authenticity,
// supersession, ended claims, the tracker, the cache, forwarding, then
// completion or the block decoder.
#include <algorithm>
#include <vector>

#include "engine/clock_offset.h"
#include "engine/datagram_sender.h"
#include "engine/fragmenter.h"
#include "engine/node_impl.h"
#include "engine/requests/mfr_builder.h"

namespace dissem::engine {
namespace {

// Repairs (and pushes) answer someone; rebroadcasts carry a hop count.
TrafficKind kind_of(const wire::DataFragment& d) {
  if (d.repair()) return TrafficKind::Repair;
  return d.hops() > 0 ? TrafficKind::Forward : TrafficKind::Data;
}

// Who put this copy on the air, as far as the fragment tells.
NodeId transmitter_of(const wire::DataFragment& d) {
  if (d.repair()) return 0;
  return d.hops() > 0 ? d.forwarder() : d.publisher();
}

void handle_data(NodeImpl& n, const wire::DataFragment& d, std::size_t size, Micros now) {
  n.stats.received[static_cast<std::size_t>(kind_of(d))].add(size);
  MessageMeta meta = meta_of(d, n.wall(now));
  const auto offset = d.offset();
  const auto length = static_cast<std::uint32_t>(d.payload().size());
  // Everything on the air goes into the NTM, wanted or not: it is what lets
  // this node stay quiet when someone else has just answered a request.
  n.ntm.record(meta.id, offset, now);
  // A rebroadcast: its forwarder relays (relay_watch.h), whatever we make of the copy.
  if (!d.repair() && d.hops() > 0)
    if (const NodeId forwarder = transmitter_of(d); forwarder != 0) n.relay_watch.on_relay_heard(forwarder);
  if (const std::uint32_t stride = n.coder.stride_of(meta.id, meta.total_length, offset, length)) {
    // The block's traffic memory, and (first pass only) the publisher's loss.
    n.block_memory.record(meta.id, offset / stride / block_symbols_of(d.block_symbols()), now);
    if (!d.repair() && d.hops() == 0) n.reception.on_first_pass(meta.id, offset / stride, now);
  }

  const bool subscribed = n.subscribers.subscriptions().any(meta.id.group);
  if (!subscribed && !n.config.cache_unsubscribed) return;
  if (meta.expired_at(n.wall(now))) return;
  if (n.integrity.refuse_own_id(meta, now)) return;

  n.learn_stream(stream_of(meta.id), meta.id.seq, meta.history_window, false, now);
  const auto* payload = reinterpret_cast<const std::uint8_t*>(d.payload().data());
  n.accept_fragment(meta, offset, std::span(payload, length), subscribed,
                    ArrivedFrom{d.hops(), transmitter_of(d), d.repair(), false, d.block_symbols()}, now);
}

// Another member's request: what it asks for that we miss too will be
// answered to everyone, so ours waits; a relay fetches what it lacks of it.
void follow_overheard_request(NodeImpl& n, const wire::MissingFragmentRequest& r, Micros now) {
  BlockNeedsFn needs;
  if (n.config.coding)
    needs = [&n, now](const MessageId& id, const MessageState& st, const MissingRanges& missing) {
      return n.request_rounds.block_needs(id, st, missing, now);
    };
  defer_overheard_requests(n.tracker, r, now, n.timing.request_backoff, n.timing.tail_timeout,
                           [&n](const std::string& group) { return !n.forwarding->relays(group, n.view); }, needs);
  // A relay asked for what it does not hold fetches it itself, so the request
  // travels upstream hop by hop (a node behind us hears no one else).
  for (const auto& w : r.wants()) {
    if (w.publisher() == n.config.node_id || !n.forwarding->relays(w.group(), n.view)) continue;
    if (n.security.revoked_publisher(w.publisher())) continue;
    const StreamId stream{w.group(), w.publisher()};
    auto fetch = [&](std::uint64_t seq) {
      const MessageId id{w.group(), w.publisher(), seq};
      if (n.tracker.find(id) != nullptr || n.tracker.settled(id)) return;
      // As if a beacon had named it: a stream new here starts at the baseline
      // our own subscription's history asks for.
      n.learn_stream(stream, seq, 0, true, now);
      n.tracker.learn_available(stream, {{seq, seq + 1}}, now, now);
    };
    for (const auto& m : w.messages()) fetch(m.seq());
    for (const auto& need : w.windows())
      for (std::uint32_t i = 0; i < need.count(); ++i)
        if (i / 8 >= need.held().size() || (static_cast<std::uint8_t>(need.held()[i / 8]) >> (i % 8) & 1) == 0)
          fetch(need.first_seq() + i);
  }
}

void handle_request(NodeImpl& n, wire::MissingFragmentRequest& r, std::size_t size, Micros now) {
  n.stats.received[static_cast<std::size_t>(TrafficKind::Request)].add(size);
  if (r.requester() == n.config.node_id) {
    ++n.stats.own_datagrams_ignored;
    return;
  }
  if (!n.security.sealed_by(r.requester())) return;
  ++n.stats.mfrs_received;
  // A requester is a neighbour, but not an established one (peers.h) until
  // its beacons are heard: invented requester ids set no timers or budgets,
  // raise no events, and do not make the members hold back or fetch.
  n.peers.heard(r.requester(), now);
  if (n.peers.established(r.requester())) follow_overheard_request(n, r, now);

  if (!n.config.serve_requests) return;
  if (n.silent) {
    ++n.stats.requests_ignored_silent;
    return;
  }
  if (n.config.serve_gate_fraction > 0 && !n.traffic_below(n.config.serve_gate_fraction, now)) return;
  n.repair_server.on_request(r, now);
}

// Whom an established neighbour hears (two_hop_neighbours.h); a peer that
// restarted, and so is not established until its next beacon, is dropped.
void note_neighbourhood(NodeImpl& n, const wire::Beacon& b) {
  if (!n.peers.established(b.node())) {
    n.two_hop.forget(b.node());
    return;
  }
  std::vector<TwoHopNeighbours::Echoed> echoed;
  echoed.reserve(static_cast<std::size_t>(b.echoes_size()));
  for (const auto& e : b.echoes()) echoed.push_back({e.peer(), e.has_neighbours() ? e.neighbours() : 0});
  n.two_hop.on_beacon(b.node(), b.seq(), b.neighbours(), echoed);
}

// A clock-offset sample from one of our echoes (clock_offset.h); an event
// when the kept offset crosses engine.max_clock_skew_ms.
void note_clock(NodeImpl& n, NodeId peer, Micros offset, Micros rtt, Micros now) {
  n.peers.on_clock_sample(peer, offset, rtt, now, kClockWindow);
  if (n.peers.on_skew_check(peer, n.config.max_clock_skew)) {
    Event e{Event::Kind::ClockSkew, peer, {}};
    e.clock_offset = *n.peers.all().at(peer).clock_offset;
    n.events.push(std::move(e));
  }
}

bool echoes_us(const wire::Beacon& b, NodeId us) {
  return std::any_of(b.echoes().begin(), b.echoes().end(), [us](const auto& e) { return e.peer() == us; });
}

void handle_beacon(NodeImpl& n, const wire::Beacon& b, std::size_t size, Micros now) {
  n.stats.received[static_cast<std::size_t>(TrafficKind::Beacon)].add(size);
  if (b.node() == n.config.node_id) {
    ++n.stats.own_datagrams_ignored;
    return;
  }
  if (!n.security.sealed_by(b.node())) return;
  // A neighbour appears (an event, timers rescaled, backoffs reset) once its
  // beacons establish it: a one-off beacon from an invented id does nothing.
  const bool newcomer = n.peers.heard(b.node(), now);
  if (newcomer && !echoes_us(b, n.config.node_id)) n.beacons.greet(now);
  const bool was_established = n.peers.established(b.node());
  n.peers.on_beacon(b.node(), b.sent_us(), b.seq(), now);
  n.links.on_beacon(b.node(), b.seq(), now, n.peers);
  if (!was_established && n.peers.established(b.node())) n.on_peer_appeared(b.node(), now);
  if (n.forwarding->needs_neighbour_counts()) note_neighbourhood(n, b);
  if (n.forwarding->interest_radius() > 0) {
    std::vector<AdvertisedInterest> entries;
    entries.reserve(static_cast<std::size_t>(b.interests_size()));
    for (const auto& i : b.interests()) entries.push_back({i.group(), i.distance(), i.via(), i.subscriber()});
    n.interests.update(b.node(), entries);
  }
  for (const auto& e : b.echoes()) {
    if (e.peer() != n.config.node_id) continue;
    if (e.has_loss_permille()) n.links.on_loss_report(b.node(), e.loss_permille(), now, n.peers);
    // Our stamp is our Unix time; wall(now) is the same clock (a step taken
    // in between makes one sample wrong, and the smallest-round-trip choice
    // passes over it).
    const Micros rtt = n.wall(now) - static_cast<Micros>(e.peer_sent_us()) - static_cast<Micros>(e.held_us());
    // A slow link's queue may hold a beacon for minutes.
    const bool valid = rtt > 0 && rtt < 600 * kSeconds;
    const auto delivered = e.has_received_bytes_per_s() ? std::optional<double>(e.received_bytes_per_s() * 8.0) : std::nullopt;
    n.on_echo(b.node(), e.peer_sent_us(), static_cast<Micros>(e.held_us()), valid ? std::optional<Micros>(rtt) : std::nullopt,
              delivered, now);
    if (valid && b.sent_us() > 0)
      note_clock(n, b.node(),
                 clock_offset(static_cast<Micros>(e.peer_sent_us()), static_cast<Micros>(e.held_us()),
                              static_cast<Micros>(b.sent_us()), n.wall(now)),
                 rtt, now);
  }
  for (const auto& r : b.reception())
    if (r.publisher() == n.config.node_id) n.redundancy.on_report(b.node(), r.loss_permille() / 1000.0, now);
  if (n.peers.established(b.node())) n.radio_model.on_claim(b.node(), b.separate_radios(), now);
  const bool learn_held = n.replication->learn_from_summaries();
  for (const auto& nw : b.newest()) {
    if (nw.seq() == 0 || nw.publisher() == 0 || n.security.revoked_publisher(nw.publisher())) continue;
    const StreamId stream{nw.group(), nw.publisher()};
    if (n.naming.on_mapping(nw.publisher(), nw.group_ref(), nw.group(), *n.store)) ++n.stats.group_refs_changed;
    n.learn_stream(stream, nw.seq(), 0, true, now);
    // What of the stream has ended (ending/ended_claims.h): the publisher's
    // own word wins; in a keyed group only its (sealed) beacon may say it.
    if (stream.publisher == n.config.node_id) {
      // A false claim about our stream: our next beacon states the true
      // watermark soon (at most four times as often as usual, however
      // often the claim is repeated).
      if (n.ended_claims.contests_claim_about_own(stream, nw.ended_below(), b.node(), now)) n.beacons.hasten(now);
    } else if (b.node() == stream.publisher) {
      n.ended_claims.on_publisher_word(stream, nw.ended_below(), now);
    } else if (nw.ended_below() > 1 && n.config.security.group(stream.group) == nullptr) {
      n.ended_claims.on_claim(stream, nw.ended_below(), b.node(), now);
    }
    // Anti-entropy: the peer caches from `oldest` on, so that exists too.
    if (learn_held && nw.oldest() != 0 && stream.publisher != n.config.node_id && n.wants_group(stream.group))
      n.tracker.learn_available(stream, {{nw.oldest(), nw.seq() + 1}}, now, now);
  }
}

void handle_summary(NodeImpl& n, const wire::Summary& s, std::size_t size, Micros now) {
  n.stats.received[static_cast<std::size_t>(TrafficKind::Summary)].add(size);
  if (s.node() == n.config.node_id) {
    ++n.stats.own_datagrams_ignored;
    return;
  }
  if (!n.security.sealed_by(s.node())) return;
  ++n.stats.summaries_received;
  n.peers.heard(s.node(), now);
  n.on_summary(s, now);
}

}  // namespace

FragmentOutcome NodeImpl::accept_fragment(const MessageMeta& meta, std::uint32_t offset,
                                          std::span<const std::uint8_t> payload, bool subscribed,
                                          const ArrivedFrom& from, Micros now) {
  if (!security.authentic(meta)) return FragmentOutcome::DigestConflict;
  if (superseder.screen(meta, now)) return FragmentOutcome::Settled;
  if (cache_outage.active()) {
    // Nowhere to keep it: dropped, and asked for again once the cache writes.
    ++stats.fragments_unstored;
    return FragmentOutcome::Unstored;
  }
  if (ended_claims.refused_as_ended(meta, from, now)) return FragmentOutcome::Settled;
  const auto length = static_cast<std::uint32_t>(payload.size());
  const auto outcome = tracker.on_fragment(meta, offset, length, now, payload.data(), subscribed);
  switch (outcome) {
    case FragmentOutcome::Settled:
    case FragmentOutcome::Duplicate:
      ++stats.duplicate_fragments;
      return outcome;
    case FragmentOutcome::LengthConflict:
    case FragmentOutcome::DigestConflict:
      integrity.on_conflict(meta.id, outcome, now);
      return outcome;
    case FragmentOutcome::Overloaded:
      ++stats.queue_drops;
      return outcome;
    case FragmentOutcome::Unstored:
      return outcome;
    case FragmentOutcome::New:
    case FragmentOutcome::Completed:
      break;
  }
  if (!cache_write([&] { store->put_fragment(meta, offset, payload, now); }, now)) {
    ++stats.fragments_unstored;
    return FragmentOutcome::Unstored;
  }
  if (outcome == FragmentOutcome::New || outcome == FragmentOutcome::Completed) expiries.note(meta);

  offer_to_forwarding(meta, offset, length, subscribed, from, now);

  if (outcome == FragmentOutcome::Completed) {
    if (!integrity.verify(meta.id)) {
      integrity.distrust(meta.id, IntegrityEvent::VerifyFailed, now);
      return FragmentOutcome::DigestConflict;
    }
    ++stats.messages_completed;
    store->mark_complete(meta.id);
    on_message_settled(meta.id, true, now);
  } else if (config.coding && !from.decoded) {
    feed_decoder(meta, offset, payload, from.block_symbols, subscribed, now);
  }
  return outcome;
}

void NodeImpl::dispatch_datagram(wire::Decoded& d, std::size_t size, Micros now) {
  switch (d.kind) {
    case wire::Kind::Data:
      handle_data(*this, d.data, size, now);
      break;
    case wire::Kind::Request:
      handle_request(*this, d.request, size, now);
      break;
    case wire::Kind::Beacon:
      handle_beacon(*this, d.beacon, size, now);
      break;
    case wire::Kind::Summary:
      handle_summary(*this, d.summary, size, now);
      break;
    case wire::Kind::Coded:
      on_coded_symbol(d.coded, size, now);
      break;
    case wire::Kind::Window:
      on_window_symbol(d.window, size, now);
      break;
    case wire::Kind::Bundle:  // opened before handling: never nested
      ++stats.malformed[static_cast<std::size_t>(DecodeError::UnknownKind)];
      break;
  }
}

}  // namespace dissem::engine
