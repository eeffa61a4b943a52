// Streams learnt (a publisher's newest number, from any frame that names
// it, and what a peer's summary says it holds) and messages settled
// (complete, or given up): what the tracker, the coders and the local
// subscribers are told.
#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::learn_stream(const StreamId& stream, std::uint64_t seq, std::uint32_t publisher_history,
                            bool inclusive, Micros now) {
  // Nothing of a revoked publisher is new to us (security_config.h).
  if (stream.publisher == config.node_id || security.revoked_publisher(stream.publisher)) return;
  const bool reliable = wants_group(stream.group);
  tracker.learn_newest(stream, seq, reliable, subscribers.subscriptions().history(stream.group, publisher_history), inclusive,
                       now);
}

void NodeImpl::on_summary(const wire::Summary& s, Micros now) {
  const auto pull = replicator.on_summary(s, now);
  if (!pull) return;
  // What the peer holds in groups we want exists, so we fetch what we lack
  // like any gap, from when its pushes could have arrived.
  tracker.hold_new_requests_until(pull->not_before);
  for (const auto& h : pull->streams) {
    if (h.stream.publisher == config.node_id || !wants_group(h.stream.group)) continue;
    if (security.revoked_publisher(h.stream.publisher)) continue;
    if (h.held.empty()) continue;
    // First the newest, as a beacon would tell it: a stream new to us gets
    // the baseline its subscription's history asks for, not the oldest
    // message this peer happens to hold.
    learn_stream(h.stream, h.held.back().end - 1, 0, true, now);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (const auto& r : h.held) ranges.emplace_back(r.begin, r.end);
    tracker.learn_available(h.stream, ranges, now, pull->not_before);
  }
}

void NodeImpl::on_message_settled(const MessageId& id, bool complete, Micros now) {
  coder.forget(id);
  if (!complete) {
    window_coder.forget_image(id);
  } else if (const MessageState* st = tracker.find(id); st != nullptr && st->meta) {
    accept_window_recovered(window_coder.on_source(*st->meta, now), now);
  }
  subscribers.on_settled(id, complete, now);
}

}  // namespace dissem::engine
