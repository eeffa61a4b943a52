// Durable named subscriptions: a subscription with a name survives its
// client and the node, kept in the cache's node-state table with a cursor
// of acknowledged messages per publisher. Re-subscribing under the name
// resumes: every cached message of the group the cursor does not hold is
// delivered, so what was acknowledged is never delivered again, and what
// was not is (at least once, exactly once with acknowledgement).
//
// Keys (node_state): "durable/<hex name>" -> the subscription's group and
// options; "cursor/<hex name>/<publisher as 8 hex digits>" -> the
// acknowledged sequence numbers, as [begin, end) pairs. Values are hex text.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cache/store.h"
#include "engine/node_types.h"
#include "engine/range_set.h"

namespace dissem::engine {

struct DurableSubscription {
  std::string group;
  SubscriptionOptions options;  // options.name is the subscription's name
  std::map<NodeId, SeqRanges> acked;
  SubscriptionId id = 0;  // the live subscription this node runs for it
};

class DurableSubscriptions {
 public:
  // Everything persisted in `store` (the subscription ids are the caller's to set).
  void load(cache::Store& store);
  DurableSubscription* find(const std::string& name);
  DurableSubscription* by_id(SubscriptionId id);
  // Creates and persists a new one (not flushed).
  DurableSubscription& create(const std::string& group, const SubscriptionOptions& options, cache::Store& store);
  // Persists changed options (filters, delivery mode) of an existing one.
  void update(DurableSubscription& d, const SubscriptionOptions& options, cache::Store& store);
  // Records an acknowledgement (persisted; not flushed). False if it was held already.
  bool acknowledge(DurableSubscription& d, const MessageId& message, cache::Store& store);
  bool acknowledged(const DurableSubscription& d, const MessageId& message) const;
  // Forgets it, cursor and all. False if there was none.
  bool erase(const std::string& name, cache::Store& store);
  std::map<std::string, DurableSubscription>& all() { return subs_; }

  // The persisted forms (exposed for tests).
  static std::string encode_options(const std::string& group, const SubscriptionOptions& options);
  static std::optional<std::pair<std::string, SubscriptionOptions>> decode_options(const std::string& text);

 private:
  std::map<std::string, DurableSubscription> subs_;
};

}  // namespace dissem::engine
