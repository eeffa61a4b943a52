// Handing settled messages to local applications: the delivery orders the
// subscriptions give (subscriptions.h) become Deliveries with the message's
// bytes, read from the tracker's buffer or the cache and opened if the
// group is sealed, once the cache has committed them. Orders for messages
// gone meanwhile, cancels, filtered or detached subscriptions and what a
// durable subscription acknowledged are dropped; a superseded message is
// reported as skipped only if nothing says why.
//
// While a burst of datagrams is handled (NodeImpl::on_datagrams) orders
// wait for its end: one commit makes the whole burst durable.
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "engine/subscribers/application_events.h"
#include "engine/subscribers/durable_subscriptions.h"
#include "engine/node_context.h"
#include "engine/node_types.h"
#include "engine/security/security.h"
#include "engine/subscribers/subscriptions.h"
#include "engine/ending/supersession.h"

namespace dissem::engine {

// The parts delivery reads.
struct DeliverySources {
  Security& security;
  Subscriptions& subscriptions;
  DurableSubscriptions& durable;
  const Supersession& superseded;
  ApplicationEvents& events;
};

class LocalDelivery {
 public:
  LocalDelivery(NodeContext& node, DeliverySources sources) : node_(node), from_(sources) {}

  // Delivers `orders` now, or after the burst being handled.
  void emit(const std::vector<DeliveryOrder>& orders, Micros now);

  // A burst begins: orders wait.
  void hold() { holding_ = true; }
  // The burst is over: what waited is delivered.
  void release(Micros now);

  // The oldest delivery not yet taken.
  std::optional<Delivery> pop();

 private:
  void deliver(const std::vector<DeliveryOrder>& orders, Micros now);

  NodeContext& node_;
  DeliverySources from_;
  std::deque<Delivery> ready_;
  bool holding_ = false;
  std::vector<DeliveryOrder> held_;
};

}  // namespace dissem::engine
