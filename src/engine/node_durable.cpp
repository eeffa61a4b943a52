// Durable named subscriptions (engine/durable_subscriptions.h) in the node:
// created or resumed by subscribe(), detached by unsubscribe(), kept across
// restarts, fed from the cache on resumption.
#include <algorithm>
#include <stdexcept>

#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::restore_durable() {
  durable.load(*store);
  for (auto& [name, d] : durable.all()) {
    Subscription s;
    s.group = d.group;
    s.reliable = d.options.reliable;
    s.ordered = d.options.ordered;
    s.min_priority = d.options.min_priority;
    s.tags = d.options.tags;
    s.name = name;
    s.attached = false;  // until a client subscribes under the name again
    d.id = subscriptions.add(std::move(s));
  }
}

SubscriptionId NodeImpl::subscribe_durable(const std::string& group, const SubscriptionOptions& o, Micros now) {
  DurableSubscription* d = durable.find(o.name);
  if (d == nullptr) {
    SubscriptionOptions anonymous = o;
    anonymous.name.clear();
    d = &durable.create(group, o, *store);
    store->flush();
    d->id = subscribe(group, anonymous, now);  // its history, as any new subscription
    subscriptions.find(d->id)->name = o.name;
    return d->id;
  }
  if (d->group != group)
    throw std::invalid_argument("durable subscription '" + o.name + "' is for group '" + d->group + "', not '" +
                                group + "'");
  durable.update(*d, o, *store);
  store->flush();
  Subscription* s = subscriptions.find(d->id);
  s->reliable = o.reliable;
  s->ordered = o.ordered;
  s->min_priority = o.min_priority;
  s->tags = o.tags;
  s->attached = true;
  // Resumed: every cached message of the group not acknowledged yet, oldest
  // first per publisher; what completes later follows as usual.
  std::vector<MessageId> backlog;
  for (const auto& rec : store->list_messages())
    if (rec.meta.id.group == group && rec.complete && !durable.acknowledged(*d, rec.meta.id))
      backlog.push_back(rec.meta.id);
  std::sort(backlog.begin(), backlog.end());
  std::vector<DeliveryOrder> orders;
  for (const auto& id : backlog) orders.push_back({d->id, id, false});
  delivery.emit(orders, now);
  return d->id;
}

void NodeImpl::acknowledge(SubscriptionId id, const MessageId& message) {
  DurableSubscription* d = durable.by_id(id);
  if (d == nullptr) throw std::invalid_argument("subscription " + std::to_string(id) + " is not a durable one");
  if (message.group != d->group)
    throw std::invalid_argument("message of group '" + message.group + "' acknowledged on a subscription to '" +
                                d->group + "'");
  if (durable.acknowledge(*d, message, *store)) store->flush();
}

bool NodeImpl::delete_subscription(const std::string& name) {
  DurableSubscription* d = durable.find(name);
  if (d == nullptr) return false;
  subscriptions.remove(d->id);
  durable.erase(name, *store);
  store->flush();
  return true;
}

}  // namespace dissem::engine
