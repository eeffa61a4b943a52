// Flow control of our publications, and their place in the queue of first
// passes (Publisher::admit, check_send_budget, enqueue).
#include "engine/publisher/publisher.h"

namespace dissem::engine {

void Publisher::check_send_budget(const std::string& group, std::uint64_t bytes, Micros now) {
  // Budgets are link time: bytes at the configured rate, queued or taken
  // into datagrams the pacer has not yet let go by (pacer_debt.h). A message
  // larger than a budget still goes when nothing else waits.
  const EngineConfig& config = node_.config;
  OwnPublications& own = from_.own;
  const double rate = static_cast<double>(config.send_rate_bps());
  auto over = [&](Micros budget, std::uint64_t queued) {
    if (budget <= 0 || queued == 0) return false;
    return static_cast<double>(queued + bytes) > rate / 8.0 * static_cast<double>(budget) / static_cast<double>(kSeconds);
  };
  const auto g = own.queued_group_bytes.find(group);
  const std::uint64_t in_group = (g == own.queued_group_bytes.end() ? 0 : g->second) + own.paced.owed(group, now);
  const std::uint64_t in_all = own.queued_bytes + own.paced.owed_total(now);
  if (over(config.group_send_budget, in_group))
    throw QueueFull("send queue full: " + std::to_string(in_group) + " bytes of group '" + group +
                    "' wait for the link (engine.group_send_budget_ms = " +
                    std::to_string(config.group_send_budget / kMillis) + ")");
  if (over(config.send_budget, in_all))
    throw QueueFull("send queue full: " + std::to_string(in_all) +
                    " bytes wait for the link (engine.send_budget_ms = " + std::to_string(config.send_budget / kMillis) +
                    ")");
}

// A cancel only frees the queue: never refused for room. A replacement
// needs room only for what it adds beyond the queued messages it ends.
void Publisher::admit(const std::string& group, const MessageMeta& meta, std::uint64_t bytes, Micros now) {
  if (meta.cancel) return;
  std::uint64_t freed = 0;
  if (meta.replace)
    from_.queues.publications.for_each([&](const PublicationCursor& c) {
      const MessageState* st = c.id.group == group ? node_.tracker.find(c.id) : nullptr;
      if (st != nullptr && st->meta && st->meta->tag == meta.tag) freed += c.length;
    });
  if (freed >= bytes) return;
  try {
    check_send_budget(group, bytes - freed, now);
  } catch (const QueueFull&) {
    ++node_.stats.publish_queue_full;
    throw;
  }
}

void Publisher::enqueue(const MessageMeta& meta, const std::vector<std::uint8_t>& body, Micros now, bool ahead) {
  const std::string& group = meta.id.group;
  OwnPublications& own = from_.own;
  PublicationCursor cursor{meta.id, 0, nullptr};
  cursor.length = meta.total_length;
  own.queued_bytes += cursor.length;
  own.queued_group_bytes[group] += cursor.length;
  if (own.payload_bytes + body.size() <= node_.config.reassembly_memory) {
    cursor.payload = std::make_shared<const std::vector<std::uint8_t>>(body);
    own.payload_bytes += body.size();
  }
  // A replacement takes the place in the queue of the oldest message it
  // replaces that has not begun to go out (Mockets' replace): a stream whose
  // every message is replaced before it reaches the front still moves on.
  std::optional<std::size_t> place;
  if (ahead)
    place = from_.queues.publications.find(meta.priority, [](const PublicationCursor& c) {
      return c.next_offset == 0 && c.parity_left == 0;
    });
  else if (meta.replace)
    place = from_.queues.publications.find(meta.priority, [&](const PublicationCursor& c) {
      const MessageState* st = c.id.group == group ? node_.tracker.find(c.id) : nullptr;
      return st != nullptr && st->meta && st->meta->tag == meta.tag && c.next_offset == 0 && c.parity_left == 0;
    });
  // It joins the queue before what it supersedes leaves it, so `place`
  // still counts the replaced messages ahead of it (one partly sent among
  // them), and it lands where the message it replaces stood.
  if (place) {
    from_.queues.publications.insert(meta.priority, *place, std::move(cursor));
  } else {
    from_.queues.publications.push(meta.priority, std::move(cursor));
  }
  // What it supersedes ends here: out of the queue, the cache and the local
  // subscriptions' waiting lists.
  from_.superseder.on_own(meta, now);
}

}  // namespace dissem::engine
