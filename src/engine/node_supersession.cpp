// Replace and cancel (engine/supersession.h) applied to what this node
// holds: a message that supersedes others ends them in the send queue, the
// cache, the tracker (never requested again) and the local subscriptions
// (an ordered one moves past them without an event).
#include <algorithm>

#include "engine/node_impl.h"

namespace dissem::engine {
namespace {

// Sequence numbers below a superseding message looked at when it arrives:
// as far back as its publisher names messages by tag (OwnTags). Older ones
// are refused lazily, if they ever turn up.
constexpr std::uint64_t kSupersedeScan = OwnTags::kRemembered;

}  // namespace

bool NodeImpl::screen_supersession(const MessageMeta& meta, Micros now) {
  if (meta.supersedes_any()) {
    const MessageState* st = tracker.find(meta.id);
    // Learnt from the first fragment or symbol of it (the rest say the same).
    if ((st == nullptr || !st->meta) && superseded.learn(meta)) apply_supersession(meta, now);
  }
  if (superseded.empty() || !superseded.ended(meta)) return false;
  end_if_superseded(meta.id, now);
  return true;
}

void NodeImpl::apply_supersession(const MessageMeta& by, Micros now) {
  const std::uint64_t low = by.id.seq > kSupersedeScan ? by.id.seq - kSupersedeScan : 1;
  for (std::uint64_t q = low; q < by.id.seq; ++q) end_if_superseded(MessageId{by.id.group, by.id.publisher, q}, now);
  // Numbers named below the scan, within the same budget.
  std::uint64_t budget = kSupersedeScan;
  for (std::size_t i = 0; i + 1 < by.supersedes.size() && budget > 0; i += 2)
    for (std::uint64_t q = by.supersedes[i]; q < std::min(by.supersedes[i + 1], low) && budget > 0; ++q, --budget)
      end_if_superseded(MessageId{by.id.group, by.id.publisher, q}, now);
  if (by.id.publisher != config.node_id) return;
  // Our own: first passes not yet (wholly) sent leave the queue.
  queues.publications.erase_if(
      [&](const PublicationCursor& cur) {
        return cur.id.group == by.id.group && cur.id.seq < by.id.seq && superseded.ended(stream_of(cur.id), cur.id.seq);
      },
      [&](const PublicationCursor& cur) { release_publication(cur); });
}

bool NodeImpl::end_if_superseded(const MessageId& id, Micros now) {
  const StreamId stream = stream_of(id);
  const MessageState* st = tracker.find(id);
  const bool by_tag = st != nullptr && st->meta && superseded.ended(*st->meta);
  if (!by_tag && !superseded.ended(stream, id.seq)) return false;
  // Remembered by number: its metadata goes with it.
  if (by_tag) superseded.end_number(stream, id.seq);
  if (id.publisher == config.node_id) ended.own_ended(id.group, id.seq);
  if (st == nullptr) {
    // Not tracked: never to be requested (a subscription waits for tracked
    // messages only, so it has nothing to move past).
    if (!tracker.settled(id)) tracker.settle(id);
    return true;
  }
  if (st->meta) {
    if (store->contains(id)) store->erase(id);
    ++stats.messages_superseded;
  }
  tracker.settle(id);
  on_message_settled(id, false, now);
  return true;
}

}  // namespace dissem::engine
