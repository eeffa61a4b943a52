// Publication and cancellation: a message is numbered, made durable in the
// cache, queued for its first pass at its priority, and what it supersedes
// is ended here at once (node_supersession.cpp).
#include <algorithm>

#include "engine/fragmenter.h"
#include "engine/message_expiry.h"
#include "engine/node_impl.h"
#include "wire/message_digest.h"

namespace dissem::engine {
namespace {

void check_group(const std::string& group, const EngineConfig& config) {
  if (group.empty() || group.size() > config.max_group_name)
    throw PublishError("group name must be 1.." + std::to_string(config.max_group_name) + " bytes");
}

// The absolute expiry of a request: given, or its lifetime from now.
std::uint64_t expiry_of(std::uint64_t expiry_ms, std::uint32_t lifetime_ms, Micros now) {
  const std::uint64_t at = expiry_ms != 0 ? expiry_ms : lifetime_ms != 0 ? to_unix_millis(now) + lifetime_ms : 0;
  if (at == 0) return 0;
  if (at <= to_unix_millis(now)) throw PublishError("expiry is in the past");
  if (at - to_unix_millis(now) > kMaxExpiryAhead)
    throw PublishError("expiry is more than 24 days ahead (the wire carries it to the millisecond within 24.8 days); "
                       "publish without expiry and cancel the message when it is no longer wanted");
  return on_air_expiry(at);
}

// Sorted, merged [begin, end) pairs of `a` and `b` (each already in that form).
std::vector<std::uint64_t> merge_ranges(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  SeqRanges set;
  for (const auto* v : {&a, &b})
    for (std::size_t i = 0; i + 1 < v->size(); i += 2) set.add((*v)[i], (*v)[i + 1]);
  std::vector<std::uint64_t> out;
  for (const auto& [begin, end] : set.ranges()) {
    out.push_back(begin);
    out.push_back(end);
  }
  return out;
}

}  // namespace

MessageId NodeImpl::publish(const PublishRequest& r, Micros now) {
  check_group(r.group, config);
  if (r.payload.empty()) throw PublishError("payload is empty");
  if (r.payload.size() > config.max_message_size)
    throw PublishError("payload of " + std::to_string(r.payload.size()) + " bytes exceeds max_message_size " +
                       std::to_string(config.max_message_size));
  if (r.replace && r.tag.empty()) throw PublishError("replace needs a tag: it supersedes older messages with the same tag");
  MessageMeta meta;
  meta.priority = r.priority;
  meta.expiry_ms = expiry_of(r.expiry_ms, r.lifetime_ms, now);
  meta.history_window = r.history_window;
  meta.tag = r.tag;
  meta.replace = r.replace;
  if (r.replace) meta.supersedes = own_tags.with_tag(r.group, r.tag, limits.max_superseded_ranges);
  return publish_message(r.group, std::move(meta), r.payload, now);
}

MessageId NodeImpl::cancel(const CancelRequest& c, Micros now) {
  check_group(c.group, config);
  if (c.seqs.empty() && c.tag.empty()) throw PublishError("cancel names nothing: give message numbers or a tag");
  const std::uint64_t newest = own.published_up_to(c.group, *store);
  std::vector<std::uint64_t> named;
  for (const std::uint64_t seq : c.seqs) {
    if (seq == 0 || seq > newest)
      throw PublishError("message " + std::to_string(seq) + " of group '" + c.group + "' was not published here");
    named.push_back(seq);
    named.push_back(seq + 1);
  }
  // Merged pairwise: the named numbers may come in any order.
  std::vector<std::uint64_t> ranges;
  for (std::size_t i = 0; i < named.size(); i += 2)
    ranges = merge_ranges(ranges, {named[i], named[i + 1]});
  if (!c.tag.empty()) ranges = merge_ranges(ranges, own_tags.with_tag(c.group, c.tag, limits.max_superseded_ranges));
  if (ranges.size() / 2 > limits.max_superseded_ranges)
    throw PublishError("cancel names " + std::to_string(ranges.size() / 2) + " ranges of messages; at most " +
                       std::to_string(limits.max_superseded_ranges) + " fit one cancel message");
  MessageMeta meta;
  meta.expiry_ms = expiry_of(c.expiry_ms, 0, now);
  meta.tag = c.tag;
  meta.replace = !c.tag.empty();
  meta.cancel = true;
  meta.supersedes = std::move(ranges);
  // A cancel carries no payload of its own; one zero byte keeps every
  // message non-empty on the air.
  return publish_message(c.group, std::move(meta), std::vector<std::uint8_t>{0}, now);
}

void NodeImpl::release_publication(const PublicationCursor& cur) {
  if (cur.payload) own.payload_bytes -= cur.payload->size();
  own.queued_bytes -= cur.length;
  auto it = own.queued_group_bytes.find(cur.id.group);
  if (it != own.queued_group_bytes.end() && (it->second -= cur.length) == 0) own.queued_group_bytes.erase(it);
}

void NodeImpl::check_send_budget(const std::string& group, std::uint64_t bytes, Micros now) {
  // Budgets are link time: bytes at the configured rate, queued or taken
  // into datagrams the pacer has not yet let go by (pacer_debt.h). A message
  // larger than a budget still goes when nothing else waits.
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
void NodeImpl::admit_publication(const std::string& group, const MessageMeta& meta, std::uint64_t bytes, Micros now) {
  if (meta.cancel) return;
  std::uint64_t freed = 0;
  if (meta.replace)
    queues.publications.for_each([&](const PublicationCursor& c) {
      const MessageState* st = c.id.group == group ? tracker.find(c.id) : nullptr;
      if (st != nullptr && st->meta && st->meta->tag == meta.tag) freed += c.length;
    });
  if (freed >= bytes) return;
  try {
    check_send_budget(group, bytes - freed, now);
  } catch (const QueueFull&) {
    ++stats.publish_queue_full;
    throw;
  }
}

MessageId NodeImpl::publish_message(const std::string& group, MessageMeta meta, const std::vector<std::uint8_t>& payload,
                                    Micros now) {
  admit_publication(group, meta, payload.size(), now);
  // The counter is durable before the message is acknowledged, and also kept
  // in node_state so eviction of our own messages can never make it go back.
  // Groups seen at restart were merged with it then; a new group reads it once.
  const std::uint64_t seq = own.published_up_to(group, *store) + 1;
  own.published_seq[group] = seq;  // from now on the table holds the group

  meta.id = MessageId{group, config.node_id, seq};
  meta.total_length = static_cast<std::uint32_t>(payload.size());
  meta.digest = wire::message_digest(payload);
  // Keyed groups: the payload sealed (if the group has a seal key), the
  // manifest signed. What goes on the air and into the cache is `body`.
  std::vector<std::uint8_t> sealed;
  const std::vector<std::uint8_t>* body = &payload;
  if (config.security.group(group) != nullptr) {
    sealed = payload;
    security.sign_and_seal(meta, sealed, now);
    body = &sealed;
  }

  for (const auto& [off, len] : fragment_layout(meta.total_length, config.payload_size)) {
    store->put_fragment(meta, off, std::span(*body).subspan(off, len), now, true);
  }
  store->set_state(seq_state_key(group), std::to_string(seq));
  store->mark_complete(meta.id);
  store->flush();

  tracker.restore(meta, true, {}, now);
  expiries.note(meta);
  own_tags.note(group, seq, meta.tag);
  queue_publication(meta, *body, now);
  // Local subscribers on this node get it too.
  on_message_settled(meta.id, true, now);
  return meta.id;
}

void NodeImpl::queue_publication(const MessageMeta& meta, const std::vector<std::uint8_t>& body, Micros now) {
  const std::string& group = meta.id.group;
  PublicationCursor cursor{meta.id, 0, nullptr};
  cursor.length = meta.total_length;
  own.queued_bytes += cursor.length;
  own.queued_group_bytes[group] += cursor.length;
  if (own.payload_bytes + body.size() <= config.reassembly_memory) {
    cursor.payload = std::make_shared<const std::vector<std::uint8_t>>(body);
    own.payload_bytes += body.size();
  }
  // A replacement takes the place in the queue of the oldest message it
  // replaces that has not begun to go out (Mockets' replace): a stream whose
  // every message is replaced before it reaches the front still moves on.
  std::optional<std::size_t> place;
  if (meta.replace)
    place = queues.publications.find(meta.priority, [&](const PublicationCursor& c) {
      const MessageState* st = c.id.group == group ? tracker.find(c.id) : nullptr;
      return st != nullptr && st->meta && st->meta->tag == meta.tag && c.next_offset == 0 && c.parity_left == 0;
    });
  ++stats.messages_published;
  // What it supersedes ends here first: out of the queue, the cache and the
  // local subscriptions' waiting lists.
  if (meta.supersedes_any() && superseded.learn(meta)) apply_supersession(meta, now);
  if (place) {
    queues.publications.insert(meta.priority, *place, std::move(cursor));
  } else {
    queues.publications.push(meta.priority, std::move(cursor));
  }
}

}  // namespace dissem::engine
