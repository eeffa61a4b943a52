// Replication's traffic (the Replicator's, replicator.h): our next summary (one pending
// at a time: contacts falling due together share it), pushes waiting for
// their random delay, and fragments waiting for the push budget, a token
// bucket of bytes refilled at the controller's share of the link.
#pragma once

#include <deque>
#include <map>
#include <optional>

#include "core/types.h"
#include "engine/send_queues.h"

namespace dissem::engine {

// Messages to push in answer to a summary, due after a random delay (as
// answers to requests are, so one of several nodes hearing it goes first).
struct PushTask {
  MessageId message;
  Micros since = 0;
};

struct ReplicationPushes {
  std::optional<Micros> summary_due;
  bool summary_reply = false;
  std::multimap<Micros, PushTask> pending;
  std::deque<QueuedFragment> queue;
  double tokens = 0;
  Micros tokens_at = 0;
};

}  // namespace dissem::engine
