#include "engine/publisher/publisher.h"

#include "engine/fragmenter.h"
#include "engine/message_expiry.h"
#include "wire/message_digest.h"

namespace dissem::engine {
namespace {

void check_group(const std::string& group, const EngineConfig& config) {
  if (group.empty() || group.size() > config.max_group_name)
    throw PublishError("group name must be 1.." + std::to_string(config.max_group_name) + " bytes");
}

// The absolute expiry of a request: given, or its lifetime from now.
std::uint64_t expiry_of(std::uint64_t expiry_ms, std::uint32_t lifetime_ms, Micros wall) {
  const std::uint64_t at = expiry_ms != 0 ? expiry_ms : lifetime_ms != 0 ? to_unix_millis(wall) + lifetime_ms : 0;
  if (at == 0) return 0;
  if (at <= to_unix_millis(wall)) throw PublishError("expiry is in the past");
  if (at - to_unix_millis(wall) > kMaxExpiryAhead)
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

// Every fragment of our message, and its number, durable in the cache
// before the message is acknowledged.
void store_own(cache::Store& store, const MessageMeta& meta, const std::vector<std::uint8_t>& body,
               std::uint32_t payload_size, Micros now) {
  for (const auto& [off, len] : fragment_layout(meta.total_length, payload_size))
    store.put_fragment(meta, off, std::span(body).subspan(off, len), now, true);
  store.set_state(seq_state_key(meta.id.group), std::to_string(meta.id.seq));
  store.mark_complete(meta.id);
  store.flush();
}

}  // namespace

MessageId Publisher::publish(const PublishRequest& r, Micros now) {
  const EngineConfig& config = node_.config;
  check_group(r.group, config);
  if (r.payload.empty()) throw PublishError("payload is empty");
  if (r.payload.size() > config.max_message_size)
    throw PublishError("payload of " + std::to_string(r.payload.size()) + " bytes exceeds max_message_size " +
                       std::to_string(config.max_message_size));
  if (r.replace && r.tag.empty()) throw PublishError("replace needs a tag: it supersedes older messages with the same tag");
  MessageMeta meta;
  meta.priority = r.priority;
  meta.expiry_ms = expiry_of(r.expiry_ms, r.lifetime_ms, node_.wall(now));
  meta.history_window = r.history_window;
  meta.tag = r.tag;
  meta.replace = r.replace;
  if (r.replace) meta.supersedes = tags_.with_tag(r.group, r.tag, from_.limits.max_superseded_ranges);
  return publish_message(r.group, std::move(meta), r.payload, now);
}

MessageId Publisher::cancel(const CancelRequest& c, Micros now) {
  check_group(c.group, node_.config);
  if (c.seqs.empty() && c.tag.empty()) throw PublishError("cancel names nothing: give message numbers or a tag");
  const std::uint64_t newest = from_.own.published_up_to(c.group, *node_.store);
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
  const std::size_t max_ranges = from_.limits.max_superseded_ranges;
  if (!c.tag.empty()) ranges = merge_ranges(ranges, tags_.with_tag(c.group, c.tag, max_ranges));
  if (ranges.size() / 2 > max_ranges)
    throw PublishError("cancel names " + std::to_string(ranges.size() / 2) + " ranges of messages; at most " +
                       std::to_string(max_ranges) + " fit one cancel message");
  MessageMeta meta;
  meta.expiry_ms = expiry_of(c.expiry_ms, 0, node_.wall(now));
  meta.tag = c.tag;
  meta.replace = !c.tag.empty();
  meta.cancel = true;
  meta.supersedes = std::move(ranges);
  // A cancel carries no payload of its own; one zero byte keeps every
  // message non-empty on the air.
  return publish_message(c.group, std::move(meta), std::vector<std::uint8_t>{0}, now);
}

MessageId Publisher::publish_message(const std::string& group, MessageMeta meta, const std::vector<std::uint8_t>& payload,
                                     Micros now) {
  admit(group, meta, payload.size(), now);
  // The counter is durable before the message is acknowledged, and also kept
  // in node_state so eviction of our own messages can never make it go back.
  // Groups seen at restart were merged with it then; a new group reads it once.
  const std::uint64_t seq = from_.own.published_up_to(group, *node_.store) + 1;
  from_.own.published_seq[group] = seq;  // from now on the table holds the group

  meta.id = MessageId{group, node_.config.node_id, seq};
  meta.total_length = static_cast<std::uint32_t>(payload.size());
  meta.digest = wire::message_digest(payload);
  // Keyed groups: the payload sealed (if the group has a seal key), the
  // manifest signed. What goes on the air and into the cache is `body`.
  std::vector<std::uint8_t> sealed;
  const std::vector<std::uint8_t>* body = &payload;
  if (node_.config.security.group(group) != nullptr) {
    sealed = payload;
    from_.security.sign_and_seal(meta, sealed, now);
    body = &sealed;
  }
  if (!node_.cache_write([&] { store_own(*node_.store, meta, *body, node_.config.payload_size, now); }, now)) {
    from_.own.published_seq[group] = seq - 1;  // the number is free again: nothing went out under it
    throw PublishError("the cache could not store the message (" + node_.cache_outage.error() +
                       "); nothing was published");
  }
  node_.on_cache_write_succeeded(now);  // a node paused by a full cache takes data again

  node_.tracker.restore(meta, true, {}, now);
  from_.expiries.note(meta);
  tags_.note(group, seq, meta.tag);
  enqueue(meta, *body, now);
  ++node_.stats.messages_published;
  from_.settled(meta.id, true, now);
  return meta.id;
}

}  // namespace dissem::engine
