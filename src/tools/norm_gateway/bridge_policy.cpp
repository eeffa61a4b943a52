#include "tools/norm_gateway/bridge_policy.h"

#include <algorithm>
#include <utility>

namespace dissem::norm_gateway {

template <typename Key>
void BridgePolicy::Recent<Key>::note(const Key& key, Micros at) {
  auto [it, fresh] = seen_.insert_or_assign(key, at);
  (void)it;
  if (!fresh) return;
  order_.push_back(key);
  while (order_.size() > capacity_) {
    seen_.erase(order_.front());
    order_.pop_front();
  }
}

template <typename Key>
std::optional<Micros> BridgePolicy::Recent<Key>::last(const Key& key) const {
  auto it = seen_.find(key);
  if (it == seen_.end()) return std::nullopt;
  return it->second;
}

BridgePolicy::BridgePolicy(BridgeSettings settings, std::uint64_t seed)
    : s_(std::move(settings)),
      rng_(seed),
      seen_on_norm_(s_.memory),
      sent_to_norm_(s_.memory),
      other_in_dissem_(s_.memory) {}

Micros BridgePolicy::holdoff_delay() {
  if (s_.holdoff <= 0) return 0;
  return std::uniform_int_distribution<Micros>(0, s_.holdoff)(rng_);
}

bool BridgePolicy::seen_on_norm_since(const Key& key, Micros since) const {
  auto t = seen_on_norm_.last(key);
  return t && *t >= since;
}

bool BridgePolicy::other_copy_in_dissem_since(const std::string& tag, Micros since) const {
  auto t = other_in_dissem_.last(tag);
  return t && *t >= since;
}

void BridgePolicy::norm_info(Micros now, std::span<const std::uint8_t> info) {
  auto d = decode_info(info);
  if (!d || d->domain != s_.dissem_domain) return;
  const Key key{d->id.publisher, d->id.seq};
  seen_on_norm_.note(key, now);
  // Another gateway carries it already: drop our copy if it still waits.
  const auto before = to_norm_.size();
  std::erase_if(to_norm_, [&](const PendingNorm& p) { return p.item.id.publisher == key.first &&
                                                             p.item.id.seq == key.second; });
  counters_.duplicates_suppressed += before - to_norm_.size();
}

void BridgePolicy::norm_object(Micros now, std::uint32_t sender, std::vector<std::uint8_t> info,
                               std::vector<std::uint8_t> data) {
  ++counters_.norm_objects;
  if (auto d = decode_info(info); d && d->domain == s_.dissem_domain) {
    // Bridged from our dissem network by some gateway: it is there already.
    norm_info(now, info);
    ++counters_.loops_prevented;
    return;
  }
  if (!s_.norm_to_dissem) {
    ++counters_.not_bridged;
    return;
  }
  if (data.size() > s_.max_message_bytes) {
    ++counters_.too_large;
    return;
  }
  std::string tag = tag_of(norm_origin_of(s_.norm_domain, sender, info, data));
  if (other_copy_in_dissem_since(tag, now - s_.duplicate_window)) {
    ++counters_.duplicates_suppressed;
    return;
  }
  to_dissem_.push_back({now + holdoff_delay(), now, ToDissem{std::move(tag), std::move(data)}});
}

bool BridgePolicy::dissem_delivery(Micros now, const MessageMeta& meta, std::vector<std::uint8_t> payload) {
  ++counters_.dissem_deliveries;
  if (auto origin = parse_tag(meta.tag); origin && origin->domain == s_.norm_domain) {
    // Came from our NORM session through some gateway: never back to it.
    ++counters_.loops_prevented;
    dissem_copy_seen(now, meta.id.publisher, meta.tag);
    return false;
  }
  if (!s_.dissem_to_norm) {
    ++counters_.not_bridged;
    return false;
  }
  const Key key{meta.id.publisher, meta.id.seq};
  if (sent_to_norm_.last(key) || seen_on_norm_.last(key)) {
    ++counters_.duplicates_suppressed;  // redelivered, or carried by another gateway
    return false;
  }
  if (payload.size() > s_.max_message_bytes) {
    ++counters_.too_large;
    return false;
  }
  sent_to_norm_.note(key, now);
  ToNorm item{meta.id, encode_info({s_.dissem_domain, meta.id, meta.tag}), std::move(payload)};
  to_norm_.push_back({now + holdoff_delay(), std::move(item)});
  return true;
}

void BridgePolicy::dissem_copy_seen(Micros now, NodeId publisher, const std::string& tag) {
  if (own_publisher_ && publisher == *own_publisher_) return;
  auto origin = parse_tag(tag);
  if (!origin || origin->domain != s_.norm_domain) return;
  other_in_dissem_.note(tag, now);
  const auto before = to_dissem_.size();
  std::erase_if(to_dissem_, [&](const PendingDissem& p) { return p.item.tag == tag; });
  counters_.duplicates_suppressed += before - to_dissem_.size();
}

bool BridgePolicy::dissem_due(Micros now) const {
  return std::any_of(to_dissem_.begin(), to_dissem_.end(), [&](const PendingDissem& p) { return p.due <= now; });
}

std::vector<ToDissem> BridgePolicy::take_due_dissem(Micros now) {
  std::vector<ToDissem> out;
  std::deque<PendingDissem> waiting;
  for (auto& p : to_dissem_) {
    if (p.due > now) {
      waiting.push_back(std::move(p));
    } else if (other_copy_in_dissem_since(p.item.tag, p.received - s_.duplicate_window)) {
      ++counters_.duplicates_suppressed;
    } else {
      ++counters_.to_dissem;
      out.push_back(std::move(p.item));
    }
  }
  to_dissem_ = std::move(waiting);
  return out;
}

std::vector<ToNorm> BridgePolicy::take_due_norm(Micros now) {
  std::vector<ToNorm> out;
  std::deque<PendingNorm> waiting;
  for (auto& p : to_norm_) {
    if (p.due > now) {
      waiting.push_back(std::move(p));
    } else {
      ++counters_.to_norm;
      out.push_back(std::move(p.item));
    }
  }
  to_norm_ = std::move(waiting);
  return out;
}

void BridgePolicy::retry_dissem(ToDissem item, Micros at) {
  --counters_.to_dissem;  // counted again when it goes
  to_dissem_.push_back({at, at, std::move(item)});
}

void BridgePolicy::retry_norm(ToNorm item, Micros at) {
  --counters_.to_norm;
  to_norm_.push_back({at, std::move(item)});
}

std::optional<Micros> BridgePolicy::next_deadline() const {
  std::optional<Micros> next;
  for (const auto& p : to_dissem_) next = next ? std::min(*next, p.due) : p.due;
  for (const auto& p : to_norm_) next = next ? std::min(*next, p.due) : p.due;
  return next;
}

}  // namespace dissem::norm_gateway
