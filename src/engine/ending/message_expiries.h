// Messages that expire, by expiry (Unix ms): each is taken at its moment.
// Entries of messages already gone, or given a later expiry since, are the
// caller's to skip (it checks the message as it stands).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "core/types.h"

namespace dissem::engine {

class MessageExpiries {
 public:
  void note(const MessageMeta& meta) {
    if (meta.expiry_ms != 0) by_expiry_.emplace(meta.expiry_ms, meta.id);
  }

  // The next message whose expiry is at or before `now_ms` (Unix ms), taken
  // off the list; nullopt when none is due.
  std::optional<MessageId> take_due(std::uint64_t now_ms) {
    if (by_expiry_.empty() || by_expiry_.begin()->first > now_ms) return std::nullopt;
    MessageId id = by_expiry_.begin()->second;
    by_expiry_.erase(by_expiry_.begin());
    return id;
  }

  // When the next one is due, in Unix time (the caller turns it into `now`'s
  // terms with the wall clock's offset).
  std::optional<Micros> next_due() const {
    if (by_expiry_.empty()) return std::nullopt;
    return static_cast<Micros>(by_expiry_.begin()->first) * kMillis;
  }

 private:
  std::set<std::pair<std::uint64_t, MessageId>> by_expiry_;
};

}  // namespace dissem::engine
