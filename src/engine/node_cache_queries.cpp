// What applications may ask of the cache directly: one message by id, and
// the messages of a group (node.h: get, list).
#include <algorithm>

#include "engine/node_impl.h"

namespace dissem::engine {

std::optional<std::pair<MessageMeta, std::vector<std::uint8_t>>> NodeImpl::read_whole(const MessageId& id, Micros now) {
  const MessageState* st = tracker.find(id);
  if (st == nullptr || !st->complete || !st->meta || st->meta->expired_at(wall(now))) return std::nullopt;
  store->flush();
  auto stored = store->read_message(id);
  if (!stored) return std::nullopt;
  return std::pair{*st->meta, std::move(*stored)};
}

std::optional<Delivery> NodeImpl::get(const MessageId& id, Micros now) {
  auto whole = read_whole(id, now);
  if (!whole || whole->first.cancel) return std::nullopt;
  auto payload = security.readable(id, std::move(whole->second));  // sealed groups: opened
  if (!payload) return std::nullopt;
  store->touch(id, now);
  Delivery d{0, std::move(whole->first), std::move(*payload)};
  d.meta.total_length = static_cast<std::uint32_t>(d.payload.size());
  return d;
}

std::vector<CachedMessage> NodeImpl::list(const ListRequest& r) {
  std::vector<CachedMessage> out;
  for (const auto& rec : store->list_messages()) {
    const MessageId& id = rec.meta.id;
    if ((!r.group.empty() && id.group != r.group) || (r.publisher != 0 && id.publisher != r.publisher)) continue;
    if (id.seq < r.from_seq || (r.to_seq != 0 && id.seq > r.to_seq)) continue;
    // The tracker's view is the current one (the record's may lag a commit).
    const MessageState* st = tracker.find(id);
    CachedMessage m{st != nullptr && st->meta ? *st->meta : rec.meta, st != nullptr ? st->complete : rec.complete,
                    rec.stored_bytes};
    if (r.incomplete_only && m.complete) continue;
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(), [](const CachedMessage& a, const CachedMessage& b) {
    return std::tie(a.meta.id.group, a.meta.id.publisher, a.meta.id.seq) <
           std::tie(b.meta.id.group, b.meta.id.publisher, b.meta.id.seq);
  });
  if (out.size() > r.limit) out.resize(r.limit);
  return out;
}

}  // namespace dissem::engine
