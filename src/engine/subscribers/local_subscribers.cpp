#include "engine/subscribers/local_subscribers.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace dissem::engine {

LocalSubscribers::LocalSubscribers(NodeContext& node, Security& security, const Supersession& superseded,
                                   ApplicationEvents& events)
    : node_(node), delivery_(node, DeliverySources{security, subscriptions_, durable_, superseded, events}) {
  subscriptions_.set_reorder_time(node.config.reorder_time);
}

void LocalSubscribers::restore() {
  durable_.load(*node_.store);
  for (auto& [name, d] : durable_.all()) {
    Subscription s;
    s.group = d.group;
    s.reliable = d.options.reliable;
    s.ordered = d.options.ordered;
    s.min_priority = d.options.min_priority;
    s.tags = d.options.tags;
    s.silent = d.options.silent;
    s.name = name;
    s.attached = false;  // until a client subscribes under the name again
    d.id = subscriptions_.add(std::move(s));
  }
}

SubscriptionId LocalSubscribers::subscribe(const std::string& group, const SubscriptionOptions& o, Micros now) {
  if (!o.name.empty()) return subscribe_durable(group, o, now);
  Subscription s;
  s.group = group;
  s.reliable = o.reliable;
  s.ordered = o.ordered;
  s.history = o.history;
  s.use_publisher_history = o.use_publisher_history;
  s.min_priority = o.min_priority;
  s.tags = o.tags;
  s.silent = o.silent;
  const SubscriptionId id = subscriptions_.add(std::move(s));
  start_history(id, group, o, now);
  return id;
}

void LocalSubscribers::start_history(SubscriptionId id, const std::string& group, const SubscriptionOptions& o,
                                     Micros now) {
  // Publishers already known (e.g. cached opportunistically): history asked
  // for now is fetched, and what of it is cached is delivered at once.
  MessageTracker& tracker = node_.tracker;
  std::vector<DeliveryOrder> orders;
  for (const auto& [stream, st] : tracker.streams()) {
    if (stream.group != group || stream.publisher == node_.config.node_id || st.newest == 0) continue;
    // The newest and `history` messages before it, as a stream first heard
    // after the subscription gets (MessageTracker::learn_newest).
    const std::uint64_t from = o.history >= st.newest ? 1 : st.newest - o.history;
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
      subscriptions_.find(id)->order.emplace(stream, std::move(os));
    }
  }
  if (o.ordered) subscriptions_.on_timer(tracker, now, orders);
  delivery_.emit(orders, now);
}

SubscriptionId LocalSubscribers::subscribe_durable(const std::string& group, const SubscriptionOptions& o,
                                                   Micros now) {
  cache::Store& store = *node_.store;
  DurableSubscription* d = durable_.find(o.name);
  if (d == nullptr) {
    SubscriptionOptions anonymous = o;
    anonymous.name.clear();
    d = &durable_.create(group, o, store);
    store.flush();
    d->id = subscribe(group, anonymous, now);  // its history, as any new subscription
    subscriptions_.find(d->id)->name = o.name;
    return d->id;
  }
  if (d->group != group)
    throw std::invalid_argument("durable subscription '" + o.name + "' is for group '" + d->group + "', not '" +
                                group + "'");
  durable_.update(*d, o, store);
  store.flush();
  Subscription* s = subscriptions_.find(d->id);
  s->reliable = o.reliable;
  s->ordered = o.ordered;
  s->min_priority = o.min_priority;
  s->tags = o.tags;
  s->silent = o.silent;  // resubscribing aloud ends a durable subscription's silence
  s->attached = true;
  // Resumed: every cached message of the group not acknowledged yet, oldest
  // first per publisher; what completes later follows as usual.
  std::vector<MessageId> backlog;
  for (const auto& rec : store.list_messages())
    if (rec.meta.id.group == group && rec.complete && !durable_.acknowledged(*d, rec.meta.id))
      backlog.push_back(rec.meta.id);
  std::sort(backlog.begin(), backlog.end());
  std::vector<DeliveryOrder> orders;
  for (const auto& id : backlog) orders.push_back({d->id, id, false});
  delivery_.emit(orders, now);
  return d->id;
}

void LocalSubscribers::unsubscribe(SubscriptionId id) {
  if (durable_.by_id(id) != nullptr) {
    if (Subscription* s = subscriptions_.find(id)) s->attached = false;  // kept, fetching, delivering nowhere
    return;
  }
  subscriptions_.remove(id);
}

void LocalSubscribers::acknowledge(SubscriptionId id, const MessageId& message) {
  DurableSubscription* d = durable_.by_id(id);
  if (d == nullptr) throw std::invalid_argument("subscription " + std::to_string(id) + " is not a durable one");
  if (message.group != d->group)
    throw std::invalid_argument("message of group '" + message.group + "' acknowledged on a subscription to '" +
                                d->group + "'");
  if (durable_.acknowledge(*d, message, *node_.store)) node_.store->flush();
}

bool LocalSubscribers::delete_subscription(const std::string& name) {
  DurableSubscription* d = durable_.find(name);
  if (d == nullptr) return false;
  subscriptions_.remove(d->id);
  durable_.erase(name, *node_.store);
  node_.store->flush();
  return true;
}

void LocalSubscribers::request_history(const std::string& group, std::uint32_t count, Micros now) {
  std::vector<StreamId> streams;
  for (const auto& [stream, st] : node_.tracker.streams())
    if (stream.group == group && stream.publisher != node_.config.node_id) streams.push_back(stream);
  for (const auto& s : streams) node_.tracker.extend_history(s, count, now);
}

void LocalSubscribers::on_settled(const MessageId& id, bool complete, Micros now) {
  if (!subscriptions_.any(id.group)) return;
  std::vector<DeliveryOrder> orders;
  subscriptions_.on_settled(id, complete, node_.tracker, now, orders);
  delivery_.emit(orders, now);
}

void LocalSubscribers::on_timer(Micros now) {
  std::vector<DeliveryOrder> orders;
  subscriptions_.on_timer(node_.tracker, now, orders);
  delivery_.emit(orders, now);
}

Micros LocalSubscribers::next_deadline() const { return subscriptions_.next_deadline(node_.config.reorder_time); }

}  // namespace dissem::engine
