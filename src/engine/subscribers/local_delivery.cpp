#include "engine/subscribers/local_delivery.h"

#include <utility>

namespace dissem::engine {

void LocalDelivery::emit(const std::vector<DeliveryOrder>& orders, Micros now) {
  if (orders.empty()) return;
  if (holding_) {
    held_.insert(held_.end(), orders.begin(), orders.end());
    return;
  }
  deliver(orders, now);
}

void LocalDelivery::release(Micros now) {
  holding_ = false;
  std::vector<DeliveryOrder> held;
  held.swap(held_);
  emit(held, now);
}

std::optional<Delivery> LocalDelivery::pop() {
  if (ready_.empty()) return std::nullopt;
  Delivery d = std::move(ready_.front());
  ready_.pop_front();
  return d;
}

void LocalDelivery::deliver(const std::vector<DeliveryOrder>& orders, Micros now) {
  // Deliver only what the cache has committed: a crash after this point
  // cannot lose a message an application has already seen. If the commit
  // fails (a full disk), what it held is incomplete again (NodeContext::
  // cache_write) and is delivered once fetched and stored; what was
  // committed before goes out now.
  const bool committed = node_.cache_write([&] { node_.store->flush(); }, now);
  const MessageId* cached_id = nullptr;
  std::optional<std::vector<std::uint8_t>> cached;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const auto& o = orders[i];
    if (o.skipped) {
      // Superseded: nothing was lost, the replacement (or cancel) says so.
      const bool superseded = !from_.superseded.empty() && from_.superseded.ended(stream_of(o.message), o.message.seq);
      if (!superseded) from_.events.push(Event{Event::Kind::MessageSkipped, 0, o.message});
      continue;
    }
    if (!committed) {
      const MessageState* held = node_.tracker.find(o.message);
      if (held == nullptr || !held->complete) continue;
    }
    if (cached_id == nullptr || *cached_id != o.message) {
      auto buffer = node_.tracker.take_buffer(o.message);
      cached = buffer.empty() ? node_.store->read_message(o.message) : std::optional(std::move(buffer));
      if (cached) cached = from_.security.readable(o.message, std::move(*cached));  // sealed groups: opened
      cached_id = &o.message;
    }
    const MessageState* st = node_.tracker.find(o.message);
    if (!cached || st == nullptr || !st->meta) continue;  // evicted (or superseded) meanwhile
    if (st->meta->cancel) continue;                        // a cancel carries nothing to deliver
    if (const Subscription* sub = from_.subscriptions.find(o.subscription); sub != nullptr) {
      if (!sub->accepts(*st->meta) || !sub->attached) continue;  // filtered out, or no client holds it
      if (!sub->name.empty()) {
        const DurableSubscription* d = from_.durable.find(sub->name);
        if (d != nullptr && from_.durable.acknowledged(*d, o.message)) continue;  // handled before
      }
    }
    node_.store->touch(o.message, now);  // used: the LRU deletion policy keeps it longer
    // Orders for one message are adjacent: the last one takes the buffer.
    const bool last_use = i + 1 == orders.size() || orders[i + 1].message != o.message;
    MessageMeta meta = *st->meta;
    meta.total_length = static_cast<std::uint32_t>(cached->size());  // what the application gets
    if (last_use) {
      ready_.push_back(Delivery{o.subscription, std::move(meta), std::move(*cached)});
      cached_id = nullptr;
    } else {
      ready_.push_back(Delivery{o.subscription, std::move(meta), *cached});
    }
    ++node_.stats.deliveries;
  }
}

}  // namespace dissem::engine
