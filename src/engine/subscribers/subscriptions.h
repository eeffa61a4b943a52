// Local subscriptions and the delivery discipline each one asked for:
// unordered (deliver on completion) or ordered per publisher, reliable (wait
// for gaps until the missing message is given up) or unreliable (wait the
// reorder time, then skip).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/message_tracker.h"
#include "core/types.h"

namespace dissem::engine {

using SubscriptionId = std::uint64_t;


struct OrderState {
  std::uint64_t next = 0;       // next sequence number to deliver
  std::set<std::uint64_t> ready;  // complete, waiting for `next`
  Micros waiting_since = 0;     // when a gap at `next` started blocking
};

struct Subscription {
  std::string group;
  bool reliable = true;
  bool ordered = false;
  std::uint32_t history = 0;
  bool use_publisher_history = false;
  // Filters (SubscriptionOptions): what is not accepted is not delivered.
  std::uint32_t min_priority = 0;
  std::vector<std::string> tags;  // empty: any tag
  // Durable subscriptions (engine/durable_subscriptions.h): named, and
  // detached (delivering nowhere, still fetching) while no client holds them.
  std::string name;
  bool attached = true;
  bool silent = false;  // SubscriptionOptions::silent
  std::map<StreamId, OrderState> order;

  bool accepts(const MessageMeta& meta) const {
    return meta.priority >= min_priority &&
           (tags.empty() || std::find(tags.begin(), tags.end(), meta.tag) != tags.end());
  }
};

struct DeliveryOrder {
  SubscriptionId subscription;
  MessageId message;
  bool skipped;  // given up (ordered delivery moves past it)
};

class Subscriptions {
 public:
  SubscriptionId add(Subscription s);
  bool remove(SubscriptionId id);
  Subscription* find(SubscriptionId id);

  bool any(const std::string& group) const;
  // Every group with at least one subscription, ordered.
  std::set<std::string> groups() const;
  bool reliable(const std::string& group) const;
  // A reliable subscription to `group` that may make the node transmit
  // (request, advertise interest): one that is not silent.
  bool reliable_aloud(const std::string& group) const;
  // Groups with a subscription that is not silent, ordered.
  std::set<std::string> groups_aloud() const;
  // Prior messages to fetch on first contact with a publisher of `group`.
  std::uint32_t history(const std::string& group, std::uint32_t publisher_hint) const;

  // A message became complete (or was given up: `complete` false).
  void on_settled(const MessageId& id, bool complete, const MessageTracker& tracker, Micros now,
                  std::vector<DeliveryOrder>& out);
  // Reorder timeouts of unreliable ordered subscriptions.
  void on_timer(const MessageTracker& tracker, Micros now, std::vector<DeliveryOrder>& out);
  Micros next_deadline(Micros reorder_time) const;
  void set_reorder_time(Micros t) { reorder_time_ = t; }

 private:
  void drain(SubscriptionId id, Subscription& sub, const StreamId& stream, OrderState& st,
             const MessageTracker& tracker, Micros now, std::vector<DeliveryOrder>& out);

  std::map<SubscriptionId, Subscription> subs_;
  SubscriptionId next_id_ = 1;
  Micros reorder_time_ = 200 * kMillis;
};

}  // namespace dissem::engine
