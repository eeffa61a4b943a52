// Answering other nodes' MFRs. Any node holding the data may answer, so each
// waits a uniform random delay first: the earliest answer goes on the air,
// lands in everyone's Network Traffic Memory, and the other would-be servers
// then find it there and stay quiet. Requests for the same message that
// arrive while an answer is pending are merged into it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "engine/range_set.h"
#include "core/types.h"

namespace dissem::engine {

// A block deficit asked of us: the largest of the merged requests, and the
// source symbols every one of those requesters holds (the bitmaps ANDed).
struct BlockAsk {
  std::uint32_t deficit = 0;
  std::uint32_t symbol_size = 0;
  std::uint32_t block_symbols = 0;
  std::vector<std::uint8_t> held;  // bit i = source i held by every requester
};

struct ServeTask {
  MessageId message;
  bool whole = false;     // the requester knows nothing of the message
  ByteRanges ranges;      // requested bytes (when not whole)
  std::map<std::uint32_t, BlockAsk> blocks;  // coded requests, by block
  Micros due = 0;
  Micros requested_at = 0;  // arrival of the latest merged request
};

class RequestServer {
 public:
  // Schedules (or merges into) an answer due at now + delay.
  void on_request(const MessageId& id, bool whole, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges,
                  Micros now, Micros due);
  // Answers whose delay has run out, in due order.
  // Schedules (or merges into) an answer to a block deficit.
  void on_block_request(const MessageId& id, std::uint32_t block, const BlockAsk& ask, Micros now, Micros due);
  std::vector<ServeTask> take_due(Micros now);
  std::optional<Micros> next_due() const;
  std::size_t pending() const { return tasks_.size(); }

 private:
  ServeTask& task(const MessageId& id, Micros now, Micros due);

  std::map<MessageId, ServeTask> tasks_;
  std::set<std::pair<Micros, MessageId>> by_due_;
};

}  // namespace dissem::engine
