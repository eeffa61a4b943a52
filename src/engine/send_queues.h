// What waits to be sent, and the items each queue holds. The pacer takes
// from them in node_send.cpp: control first (MFRs, beacons, summaries), then
// by priority level publications against the repair side (fragments, coded
// symbols, window symbols), split by PrioritySplit.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <unordered_set>
#include <vector>

#include "core/types.h"
#include "coding/block_layout.h"
#include "engine/node_types.h"
#include "engine/leveled_queue.h"
#include "engine/network_traffic_memory.h"

namespace dissem::engine {

// Own publication being sent for the first time, one fragment per pacing slot.
struct PublicationCursor {
  MessageId id;
  std::uint32_t next_offset = 0;
  // The payload while its first pass lasts, so each fragment is not read back
  // from the cache; empty (read from the cache) when over the memory budget.
  std::shared_ptr<const std::vector<std::uint8_t>> payload;
  std::uint32_t parity_left = 0;  // proactive coded symbols still due for the block just sent
  std::uint32_t parity_block = 0;
  std::uint32_t length = 0;       // bytes it counts against the send budgets
};

// Why a fragment waits in the repair queue.
enum class FragmentOrigin : std::uint8_t {
  Repair,   // an answer to an MFR
  Forward,  // a rebroadcast chosen by the forwarding controller
  Push,     // replication: a peer's summary showed it lacks the message
};

// A fragment waiting in the repair queue.
struct QueuedFragment {
  FragmentKey key;
  std::uint32_t hops = 0;
  FragmentOrigin origin = FragmentOrigin::Repair;
  // Redundant if the NTM saw the fragment on the air after this moment: for a
  // repair, the arrival of the request (anything sent before it, the
  // requester evidently missed); for a rebroadcast, when we heard it; for a
  // push, the arrival of the summary.
  Micros since = 0;
  std::uint32_t length = 0;  // payload bytes, when known (pushes: for the budget)
  // A rebroadcast its controller wants sent even if a copy is heard meanwhile.
  bool keep_when_heard = false;
};

// Coded symbols of one block waiting for the pacer: a repair answering a
// deficit, or a publisher's proactive redundancy.
struct CodedTask {
  MessageId message;
  std::uint32_t block = 0;
  coding::BlockLayout layout;
  // Symbols of the block heard on the air after `since` count against
  // `needed`; none is sent once they cover it.
  Micros since = 0;
  std::uint32_t needed = 0;
  std::uint32_t remaining = 0;  // symbols this node may still send
  bool repair = true;
  std::vector<std::uint8_t> skip;  // sources every requester holds: left out of recoded symbols
};

// Window symbols answering window requests (WindowNeed) for a stream: due
// after a random delay, then sent one at a time until the symbols heard on
// the air since the request cover the largest deficit asked.
struct WindowTask {
  StreamId stream;
  std::uint64_t first = 0;
  std::uint32_t count = 0;
  Micros since = 0;
  std::uint32_t needed = 0;
  std::uint32_t remaining = 0;
  Micros due = 0;
};

// The send queues, by message priority (leveled_queue.h): publications,
// and the repair side, each item at the priority of its message.
struct SendQueues {
  std::deque<OutgoingDatagram> control;  // MFRs, beacons and summaries: small, first
  LeveledQueue<PublicationCursor> publications;
  LeveledQueue<QueuedFragment> repairs;
  std::unordered_set<FragmentKey, FragmentKeyHash> repair_keys;  // the fragments in `repairs`
  std::multimap<Micros, QueuedFragment> forwards;  // rebroadcasts waiting for their delay
  LeveledQueue<CodedTask> coded;         // shares the repair side of the priority split
  std::vector<WindowTask> windows_pending;  // waiting for their delay
  LeveledQueue<WindowTask> windows;         // shares the repair side with `coded`
};

}  // namespace dissem::engine
