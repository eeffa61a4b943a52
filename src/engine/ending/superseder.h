// Replace and cancel (supersession.h) applied to what this node holds: a
// message that supersedes others ends them in the send queue, the cache,
// the tracker (never requested again) and the local subscriptions (an
// ordered one moves past them without an event). The rules learnt are this
// part's; the local subscriptions read them (rules()).
#pragma once

#include "engine/ending/ended_streams.h"
#include "engine/ending/supersession.h"
#include "engine/message_settled.h"
#include "engine/node_context.h"
#include "engine/own_publications.h"
#include "engine/send_queues.h"

namespace dissem::engine {

// What ending a message touches beyond the context.
struct SupersederSources {
  SendQueues& queues;
  OwnPublications& own;
  EndedStreams& ended;    // our own numbers ended, for our beacons' watermark
  MessageSettled settled;
};

class Superseder {
 public:
  Superseder(NodeContext& node, SupersederSources sources) : node_(node), from_(std::move(sources)) {}

  // A message about to be taken: what it supersedes is learnt (and applied
  // at once); true if the message itself is superseded (then ended, not taken).
  bool screen(const MessageMeta& meta, Micros now);
  // Our own new message: what it supersedes ends here before it is queued.
  void on_own(const MessageMeta& meta, Micros now);
  // Ends `id` if it is superseded: out of the cache and the tracker. True if it is.
  bool end_if_superseded(const MessageId& id, Micros now);

  const Supersession& rules() const { return rules_; }

 private:
  // Ends what `by` supersedes among what this node tracks, caches and queues.
  void apply(const MessageMeta& by, Micros now);

  NodeContext& node_;
  SupersederSources from_;
  Supersession rules_;
};

}  // namespace dissem::engine
