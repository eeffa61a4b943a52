#include "engine/ending/ended_claims.h"

#include <algorithm>

namespace dissem::engine {

void EndedClaims::on_claim(const StreamId& stream, std::uint64_t end, NodeId claimer, Micros now) {
  // Never beyond what the stream is known to have: a forged watermark cannot
  // settle messages not yet published.
  const StreamState* st = node_.tracker.stream(stream);
  if (st == nullptr || end > st->newest + 1) return;
  // The publisher's word, once heard, holds as long as a silent peer is kept.
  switch (streams_.learn(stream, end, claimer, now, node_.config.peer_silent_after)) {
    case EndedStreams::Claim::Ignored: return;
    case EndedStreams::Claim::Refused: ++node_.stats.ended_claims_refused; return;
    case EndedStreams::Claim::Moved: break;
  }
  if (claimer != stream.publisher) streams_.note_hearsay(stream, st->settled.gaps(1, end));
  for (const MessageId& id : node_.tracker.settle_below(stream, end)) {
    if (node_.store->contains(id)) node_.store->erase(id);
    ++node_.stats.messages_expired;
    from_.settled(id, false, now);
  }
}

void EndedClaims::on_publisher_word(const StreamId& stream, std::uint64_t end, Micros now) {
  // Only streams this node tracks: beacons from invented publishers must not
  // fill the bounded table of watermarks.
  if (node_.tracker.stream(stream) == nullptr) return;
  if (end > std::max<std::uint64_t>(streams_.learnt(stream), 1)) {
    on_claim(stream, end, stream.publisher, now);
    return;
  }
  take_back(stream, end, now);
}

void EndedClaims::take_back(const StreamId& stream, std::uint64_t below, Micros now) {
  const auto reopened = streams_.publisher_word(stream, below, now);
  if (reopened.empty()) return;
  ++node_.stats.ended_claims_contradicted;
  for (const auto& [b, e] : reopened) node_.tracker.unsettle(stream, b, e, now);
}

bool EndedClaims::contests_claim_about_own(const StreamId& stream, std::uint64_t end, NodeId claimer, Micros now) {
  if (end <= std::max<std::uint64_t>(streams_.own_watermark(stream.group, *node_.store), 1)) return false;
  ++node_.stats.own_ended_claims_contested;
  from_.events.alarm(Event::Kind::EndedClaimContested, MessageId{stream.group, stream.publisher, end}, now, claimer);
  return true;
}

bool EndedClaims::refused_as_ended(const MessageMeta& meta, const ArrivedFrom& from, Micros now) {
  const auto claimer = streams_.hearsay_claimer(meta.id);
  if (!claimer) return false;
  if (from.first_pass()) {
    // The publisher's first pass: the message has not ended.
    take_back(stream_of(meta.id), meta.id.seq, now);
    return false;
  }
  ++node_.stats.fragments_refused_ended;
  from_.events.alarm(Event::Kind::DataRefusedAsEnded, meta.id, now, *claimer);
  return true;
}

}  // namespace dissem::engine
