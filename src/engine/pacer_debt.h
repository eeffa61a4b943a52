// What the pacer still owes for our own publications: first-pass bytes taken
// out of the publication queue into datagrams (or into a bundle being
// filled) whose air time at the paced rate has not passed yet. The send
// budgets (engine.send_budget_ms, group_send_budget_ms) count these as
// waiting for the link, as they do the bytes still queued: on a link whose
// datagrams are large (a 65,000-byte bundle on loopback lasts 13 s at 40
// kbit/s) the queue empties into one datagram at once, and a budget that
// counted only the queue would never fill while the link stays busy for
// seconds.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>

#include "core/types.h"

namespace dissem::engine {

class PacerDebt {
 public:
  // `bytes` of `group` taken for a datagram not yet emitted.
  void on_taken(const std::string& group, std::uint64_t bytes) {
    if (bytes == 0) return;
    entries_.push_back(Entry{group, bytes, kUnstamped});
    by_group_[group] += bytes;
    total_ += bytes;
  }
  // A datagram was emitted: what was taken so far leaves by `departs_at`
  // (the pacer's next send time after it).
  void on_emitted(Micros departs_at) {
    for (auto it = entries_.rbegin(); it != entries_.rend() && it->departs_at == kUnstamped; ++it)
      it->departs_at = departs_at;
  }
  std::uint64_t owed(const std::string& group, Micros now) {
    settle(now);
    const auto it = by_group_.find(group);
    return it == by_group_.end() ? 0 : it->second;
  }
  std::uint64_t owed_total(Micros now) {
    settle(now);
    return total_;
  }

 private:
  static constexpr Micros kUnstamped = -1;
  struct Entry {
    std::string group;
    std::uint64_t bytes;
    Micros departs_at;
  };
  // Stamps only grow (the pacer's next send time never goes back), so what
  // has left is a prefix of the log.
  void settle(Micros now) {
    while (!entries_.empty() && entries_.front().departs_at != kUnstamped && entries_.front().departs_at <= now) {
      const Entry& e = entries_.front();
      auto it = by_group_.find(e.group);  // present: every entry counts in it
      if ((it->second -= e.bytes) == 0) by_group_.erase(it);
      total_ -= e.bytes;
      entries_.pop_front();
    }
  }

  std::deque<Entry> entries_;
  std::unordered_map<std::string, std::uint64_t> by_group_;
  std::uint64_t total_ = 0;
};

}  // namespace dissem::engine
