// Integrity of received data without keys: every fragment and coded symbol
// carries its message's digest (wire/message_digest.h). The first one held
// fixes the message's length and digest; fragments and symbols that
// contradict them are dropped and counted. A message whose bytes are all
// held is checked against its digest before it counts as complete, is
// delivered or is served as complete: on a mismatch its data is dropped from
// the cache and it is fetched again. A node never takes from the air data
// under its own id.
//
// What this cannot stop without signatures: a forger who invents a whole
// message (bytes and digest) under another node's id and gets it to a
// receiver before the real one (docs/threat-model.md). Keyed groups add
// signatures (security/security.h).
#pragma once

#include <cstdint>

#include "engine/subscribers/application_events.h"
#include "engine/coders/block_coder.h"
#include "engine/message_tracker.h"
#include "engine/node_context.h"
#include "engine/own_publications.h"
#include "engine/stats.h"
#include "engine/coders/window_coder.h"

namespace dissem::engine {

// The parts integrity checks report to or clear.
struct IntegritySources {
  ApplicationEvents& events;
  BlockCoder& coder;
  WindowCoder& windows;
  OwnPublications& own;
};

class Integrity {
 public:
  Integrity(NodeContext& node, IntegritySources sources) : node_(node), from_(sources) {}

  // The digest of a message held whole in the cache (0 if it is not).
  std::uint64_t cached_digest(const MessageId& id);
  // Whether the message, all of whose bytes are held, matches its digest
  // (then recorded in the cache).
  bool verify(const MessageId& id);
  // Drops everything held of a message that cannot be trusted; it is fetched again.
  void distrust(const MessageId& id, IntegrityEvent why, Micros now);
  // A fragment or symbol contradicted what is known of its message.
  void on_conflict(const MessageId& id, FragmentOutcome outcome, Micros now);
  // Data under this node's own id: never taken from the air. Always true
  // for such data (counted as a duplicate or as forged); false otherwise.
  bool refuse_own_id(const MessageMeta& meta, Micros now);

 private:
  NodeContext& node_;
  IntegritySources from_;
};

}  // namespace dissem::engine
