// Claims that a stream ended below a number (a beacon's ended_below), and
// who may make them stick (ended_streams.h). The publisher's own word wins
// over everyone else's: its beacon's watermark, and its first-pass data,
// which it would not send of a message it had ended. A claim made by
// another node, and followed, is taken back when the publisher contradicts
// it; data refused meanwhile is counted and its claimer named; the
// publisher that hears a claim about its own stream says so, and its next
// beacon answers it.
#pragma once

#include <cstdint>

#include "engine/arrived_from.h"
#include "engine/ending/ended_streams.h"
#include "engine/message_settled.h"
#include "engine/node_context.h"
#include "engine/subscribers/application_events.h"

namespace dissem::engine {

struct EndedClaimsSources {
  ApplicationEvents& events;
  MessageSettled settled;
};

class EndedClaims {
 public:
  EndedClaims(NodeContext& node, EndedClaimsSources sources)
      : node_(node), from_(std::move(sources)), streams_(node.config.max_streams) {}

  // A beacon's ended_below for `stream`, stated by `claimer` (not its publisher).
  void on_claim(const StreamId& stream, std::uint64_t end, NodeId claimer, Micros now);
  // The publisher's own watermark, from its beacon (0 or 1: nothing ended).
  void on_publisher_word(const StreamId& stream, std::uint64_t end, Micros now);
  // Another node says our own stream ended below `end`. True if that is
  // not so (counted, an alarm raised): our next beacon should go soon.
  bool contests_claim_about_own(const StreamId& stream, std::uint64_t end, NodeId claimer, Micros now);
  // A fragment of a message settled on another node's claim alone: true
  // if it is refused (counted, its claimer reported); a first pass from the
  // publisher contradicts the claim instead, and the fragment is taken.
  bool refused_as_ended(const MessageMeta& meta, const ArrivedFrom& from, Micros now);

  // What has ended below a watermark, ours and heard (beacons state it).
  EndedStreams& streams() { return streams_; }

 private:
  // The publisher says nothing from `below` on has ended: what other nodes'
  // claims settled there is missing again (counted once per contradiction).
  void take_back(const StreamId& stream, std::uint64_t below, Micros now);

  NodeContext& node_;
  EndedClaimsSources from_;
  EndedStreams streams_;
};

}  // namespace dissem::engine
