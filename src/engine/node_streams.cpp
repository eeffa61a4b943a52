// Streams learnt (a publisher's newest number, from any frame that names
// it) and messages settled (complete, or given up): what the tracker, the
// coders and the local subscribers are told.
#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::learn_stream(const StreamId& stream, std::uint64_t seq, std::uint32_t publisher_history,
                            bool inclusive, Micros now) {
  if (stream.publisher == config.node_id) return;
  const bool reliable = wants_group(stream.group);
  tracker.learn_newest(stream, seq, reliable, subscribers.subscriptions().history(stream.group, publisher_history), inclusive,
                       now);
}

void NodeImpl::on_message_settled(const MessageId& id, bool complete, Micros now) {
  coded.forget(id);
  if (!complete) {
    coder_cache.window_images.erase(id);
  } else if (const MessageState* st = tracker.find(id); st != nullptr && st->meta) {
    on_window_source(*st->meta, now);
  }
  subscribers.on_settled(id, complete, now);
}

}  // namespace dissem::engine
