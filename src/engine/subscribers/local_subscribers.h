// The node's local applications as subscribers: their subscriptions, plain
// and durable (named, kept in the cache across restarts, detached rather
// than ended by unsubscribe, resumed with what they have not acknowledged),
// the history a new subscription asks for, and the deliveries they get
// (local_delivery.h). The rest of the node asks it which groups are wanted
// (subscriptions()) and tells it when a message settles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/subscribers/application_events.h"
#include "engine/subscribers/durable_subscriptions.h"
#include "engine/subscribers/local_delivery.h"
#include "engine/node_context.h"
#include "engine/node_types.h"
#include "engine/security/security.h"
#include "engine/subscribers/subscriptions.h"
#include "engine/ending/supersession.h"

namespace dissem::engine {

class LocalSubscribers {
 public:
  LocalSubscribers(NodeContext& node, Security& security, const Supersession& superseded, ApplicationEvents& events);

  // At construction: the durable subscriptions kept in the cache run again, detached.
  void restore();

  // A named subscription (options.name) is durable: created, or resumed with
  // the cached messages it has not acknowledged. Throws std::invalid_argument
  // for a durable name already used for another group.
  SubscriptionId subscribe(const std::string& group, const SubscriptionOptions& options, Micros now);
  // A durable subscription is only detached: it keeps fetching, and
  // delivers again when resumed.
  void unsubscribe(SubscriptionId id);
  // Throws std::invalid_argument if `id` is not durable or `message` is of another group.
  void acknowledge(SubscriptionId id, const MessageId& message);
  bool delete_subscription(const std::string& name);
  // `count` more prior messages of every known publisher of `group`.
  void request_history(const std::string& group, std::uint32_t count, Micros now);

  // A message became complete (or was given up).
  void on_settled(const MessageId& id, bool complete, Micros now);
  // Ordered subscriptions: what waited for a gap past the reorder time.
  void on_timer(Micros now);
  Micros next_deadline() const;

  const Subscriptions& subscriptions() const { return subscriptions_; }
  LocalDelivery& delivery() { return delivery_; }

 private:
  SubscriptionId subscribe_durable(const std::string& group, const SubscriptionOptions& options, Micros now);
  // A new plain subscription's history: fetched, and what is cached delivered.
  void start_history(SubscriptionId id, const std::string& group, const SubscriptionOptions& o, Micros now);

  NodeContext& node_;
  Subscriptions subscriptions_;
  DurableSubscriptions durable_;
  LocalDelivery delivery_;
};

}  // namespace dissem::engine
