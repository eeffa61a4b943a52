#include "engine/ending/superseder.h"

#include <algorithm>

namespace dissem::engine {
namespace {

// Sequence numbers below a superseding message looked at when it arrives:
// as far back as its publisher names messages by tag (OwnTags). Older ones
// are refused lazily, if they ever turn up.
constexpr std::uint64_t kSupersedeScan = OwnTags::kRemembered;

}  // namespace

bool Superseder::screen(const MessageMeta& meta, Micros now) {
  if (meta.supersedes_any()) {
    const MessageState* st = node_.tracker.find(meta.id);
    // Learnt from the first fragment or symbol of it (the rest say the same).
    if ((st == nullptr || !st->meta) && rules_.learn(meta)) apply(meta, now);
  }
  if (rules_.empty() || !rules_.ended(meta)) return false;
  end_if_superseded(meta.id, now);
  return true;
}

void Superseder::on_own(const MessageMeta& meta, Micros now) {
  if (meta.supersedes_any() && rules_.learn(meta)) apply(meta, now);
}

void Superseder::apply(const MessageMeta& by, Micros now) {
  const std::uint64_t low = by.id.seq > kSupersedeScan ? by.id.seq - kSupersedeScan : 1;
  for (std::uint64_t q = low; q < by.id.seq; ++q) end_if_superseded(MessageId{by.id.group, by.id.publisher, q}, now);
  // Numbers named below the scan, within the same budget.
  std::uint64_t budget = kSupersedeScan;
  for (std::size_t i = 0; i + 1 < by.supersedes.size() && budget > 0; i += 2)
    for (std::uint64_t q = by.supersedes[i]; q < std::min(by.supersedes[i + 1], low) && budget > 0; ++q, --budget)
      end_if_superseded(MessageId{by.id.group, by.id.publisher, q}, now);
  if (by.id.publisher != node_.config.node_id) return;
  // Our own: first passes not yet (wholly) sent leave the queue.
  from_.queues.publications.erase_if(
      [&](const PublicationCursor& cur) {
        return cur.id.group == by.id.group && cur.id.seq < by.id.seq && rules_.ended(stream_of(cur.id), cur.id.seq);
      },
      [&](const PublicationCursor& cur) { from_.own.release(cur); });
}

bool Superseder::end_if_superseded(const MessageId& id, Micros now) {
  const StreamId stream = stream_of(id);
  const MessageState* st = node_.tracker.find(id);
  const bool by_tag = st != nullptr && st->meta && rules_.ended(*st->meta);
  if (!by_tag && !rules_.ended(stream, id.seq)) return false;
  // Remembered by number: its metadata goes with it.
  if (by_tag) rules_.end_number(stream, id.seq);
  if (id.publisher == node_.config.node_id) from_.ended.own_ended(id.group, id.seq);
  if (st == nullptr) {
    // Not tracked: never to be requested (a subscription waits for tracked
    // messages only, so it has nothing to move past).
    if (!node_.tracker.settled(id)) node_.tracker.settle(id);
    return true;
  }
  if (st->meta) {
    if (node_.store->contains(id)) node_.store->erase(id);
    ++node_.stats.messages_superseded;
  }
  node_.tracker.settle(id);
  from_.settled(id, false, now);
  return true;
}

}  // namespace dissem::engine
