// Subscriptions, history requests and deliveries to local applications.
#include <algorithm>
#include <set>

#include "engine/node_impl.h"

namespace dissem::engine {

SubscriptionId NodeImpl::subscribe(const std::string& group, const SubscriptionOptions& o, Micros now) {
  if (!o.name.empty()) return subscribe_durable(group, o, now);
  Subscription s;
  s.group = group;
  s.reliable = o.reliable;
  s.ordered = o.ordered;
  s.history = o.history;
  s.use_publisher_history = o.use_publisher_history;
  s.min_priority = o.min_priority;
  s.tags = o.tags;
  const SubscriptionId id = subscriptions.add(std::move(s));

  // Publishers already known (e.g. cached opportunistically): history asked
  // for now is fetched, and what of it is cached is delivered at once.
  std::vector<DeliveryOrder> orders;
  for (const auto& [stream, st] : tracker.streams()) {
    if (stream.group != group || stream.publisher == config.node_id || st.newest == 0) continue;
    const std::uint64_t from = o.history >= st.newest ? 1 : st.newest - o.history + 1;
    if (o.history > 0) {
      if (st.baseline == 0) {
        // Heard of before it was wanted (a beacon before this subscription):
        // its newest is known, nothing of it tracked yet.
        if (o.reliable) tracker.want_from(stream, from, now);
      } else if (st.baseline > from) {
        tracker.extend_history(stream, static_cast<std::uint32_t>(st.baseline - from), now);
      }
      for (std::uint64_t q = from; q <= st.newest; ++q) {
        const MessageId mid{stream.group, stream.publisher, q};
        const MessageState* m = tracker.find(mid);
        if (m != nullptr && m->complete) orders.push_back({id, mid, false});
      }
    }
    if (o.ordered) {
      OrderState os;
      os.next = o.history > 0 ? from : st.newest + 1;
      // Cached history goes out in order through the normal path instead.
      if (o.history > 0) {
        for (const auto& ord : orders) os.ready.insert(ord.message.seq);
        orders.clear();
      }
      subscriptions.find(id)->order.emplace(stream, std::move(os));
    }
  }
  if (o.ordered) subscriptions.on_timer(tracker, now, orders);
  delivery.emit(orders, now);
  return id;
}

void NodeImpl::unsubscribe(SubscriptionId id) {
  if (durable.by_id(id) != nullptr) {
    if (Subscription* s = subscriptions.find(id)) s->attached = false;  // kept, fetching, delivering nowhere
    return;
  }
  subscriptions.remove(id);
}

void NodeImpl::request_history(const std::string& group, std::uint32_t count, Micros now) {
  std::vector<StreamId> streams;
  for (const auto& [stream, st] : tracker.streams())
    if (stream.group == group && stream.publisher != config.node_id) streams.push_back(stream);
  for (const auto& s : streams) tracker.extend_history(s, count, now);
}

// --- shared helpers ------------------------------------------------------------

void NodeImpl::learn_stream(const StreamId& stream, std::uint64_t seq, std::uint32_t publisher_history,
                            bool inclusive, Micros now) {
  if (stream.publisher == config.node_id) return;
  const bool reliable = wants_group(stream.group);
  tracker.learn_newest(stream, seq, reliable, subscriptions.history(stream.group, publisher_history), inclusive,
                       now);
}

void NodeImpl::on_message_settled(const MessageId& id, bool complete, Micros now) {
  coded.forget(id);
  if (!complete) {
    coder_cache.window_images.erase(id);
  } else if (const MessageState* st = tracker.find(id); st != nullptr && st->meta) {
    on_window_source(*st->meta, now);
  }
  if (!subscriptions.any(id.group)) return;
  std::vector<DeliveryOrder> orders;
  subscriptions.on_settled(id, complete, tracker, now, orders);
  delivery.emit(orders, now);
}

}  // namespace dissem::engine
