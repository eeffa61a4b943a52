// This node's own streams (publisher/): the newest sequence number
// published and the newest whose first pass is complete per group (what our
// beacons advertise, so receivers never ask for what we have not sent yet),
// and flow control: bytes of publications queued, overall and per group,
// against engine.send_budget_ms / group_send_budget_ms. The newest number
// published per group is also kept in the cache (seq_state_key), so a
// restart never reuses a number.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "cache/store.h"
#include "core/types.h"
#include "engine/pacer_debt.h"
#include "engine/send_queues.h"

namespace dissem::engine {

struct OwnPublications {
  std::unordered_map<std::string, std::uint64_t> published_seq;
  std::unordered_map<std::string, std::uint64_t> sent_seq;
  std::uint64_t payload_bytes = 0;  // payload bytes held by publication cursors
  std::uint64_t queued_bytes = 0;
  std::unordered_map<std::string, std::uint64_t> queued_group_bytes;
  PacerDebt paced;  // first-pass bytes taken out of the queue whose air time has not passed

  // The newest sequence number this node ever published in `group`. Read,
  // never inserted: data forged under our id in invented groups must not
  // grow the table (the durable counter is read from the cache instead).
  std::uint64_t published_up_to(const std::string& group, cache::Store& store) const;
  // Our id on a number of one of our streams that we have not used yet
  // (forged): the counter moves past it, durably, so our next message does
  // not collide. Only streams we publish, and not far ahead. True if it moved.
  bool skip_forged(const MessageId& id, cache::Store& store);
  // A publication leaves the queue (sent, evicted, superseded): its bytes are released.
  void release(const PublicationCursor& cursor);
};

// The cache's key for a group's durable publication counter.
std::string seq_state_key(const std::string& group);
// The durable counter for `group` (0 if this node never published there).
std::uint64_t saved_seq(cache::Store& store, const std::string& group);

}  // namespace dissem::engine
