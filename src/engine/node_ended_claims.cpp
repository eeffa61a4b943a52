// Claims that a stream ended below a number (a beacon's ended_below), and
// who may make them stick (engine/ended_streams.h). The publisher's own
// word wins over everyone else's: its beacon's watermark, and its
// first-pass data, which it would not send of a message it had ended. A
// claim made by another node, and followed, is taken back when the
// publisher contradicts it; data refused meanwhile is counted and its
// claimer named; the publisher that hears a claim about its own stream says
// so and answers it with its own beacon.
#include <algorithm>

#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::on_ended_claim(const StreamId& stream, std::uint64_t end, NodeId claimer, Micros now) {
  // Never beyond what the stream is known to have: a forged watermark cannot
  // settle messages not yet published.
  const StreamState* st = tracker.stream(stream);
  if (st == nullptr || end > st->newest + 1) return;
  // The publisher's word, once heard, holds as long as a silent peer is kept.
  switch (ended.learn(stream, end, claimer, now, config.peer_silent_after)) {
    case EndedStreams::Claim::Ignored: return;
    case EndedStreams::Claim::Refused: ++stats.ended_claims_refused; return;
    case EndedStreams::Claim::Moved: break;
  }
  if (claimer != stream.publisher) ended.note_hearsay(stream, st->settled.gaps(1, end));
  for (const MessageId& id : tracker.settle_below(stream, end)) {
    if (store->contains(id)) store->erase(id);
    ++stats.messages_expired;
    on_message_settled(id, false, now);
  }
}

void NodeImpl::on_publisher_word(const StreamId& stream, std::uint64_t end, Micros now) {
  // Only streams this node tracks: beacons from invented publishers must not
  // fill the bounded table of watermarks.
  if (tracker.stream(stream) == nullptr) return;
  if (end > std::max<std::uint64_t>(ended.learnt(stream), 1)) {
    on_ended_claim(stream, end, stream.publisher, now);
    return;
  }
  take_back_claims(stream, end, now);
}

void NodeImpl::take_back_claims(const StreamId& stream, std::uint64_t below, Micros now) {
  const auto reopened = ended.publisher_word(stream, below, now);
  if (reopened.empty()) return;
  ++stats.ended_claims_contradicted;
  for (const auto& [b, e] : reopened) tracker.unsettle(stream, b, e, now);
}

void NodeImpl::on_claim_about_own_stream(const StreamId& stream, std::uint64_t end, NodeId claimer, Micros now) {
  if (end <= std::max<std::uint64_t>(ended.own_watermark(stream.group, *store), 1)) return;
  ++stats.own_ended_claims_contested;
  events.alarm(Event::Kind::EndedClaimContested, MessageId{stream.group, stream.publisher, end}, now, claimer);
  // Our next beacon states the true watermark; it goes soon, at most four
  // times as often as usual however often the claim is repeated.
  beacons.hasten(now);
}

bool NodeImpl::refused_as_ended(const MessageMeta& meta, const ArrivedFrom& from, Micros now) {
  const auto claimer = ended.hearsay_claimer(meta.id);
  if (!claimer) return false;
  if (from.hops == 0 && !from.repair && !from.decoded) {
    // The publisher's first pass: the message has not ended.
    take_back_claims(stream_of(meta.id), meta.id.seq, now);
    return false;
  }
  ++stats.fragments_refused_ended;
  events.alarm(Event::Kind::DataRefusedAsEnded, meta.id, now, *claimer);
  return true;
}

}  // namespace dissem::engine
