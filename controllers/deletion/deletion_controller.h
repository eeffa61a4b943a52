// Decision point: which cached messages to erase. Called periodically with a
// summary of the cache; returns the victims. Expired messages must always be
// returned (expiry is absolute and set by the publisher).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/message_record.h"
#include "core/types.h"

namespace dissem::controllers {

class DeletionController {
 public:
  virtual ~DeletionController() = default;
  virtual std::string_view name() const = 0;
  // `now` is the node's Unix time (its wall clock, engine/wall_clock.h),
  // against which expiry is judged.
  virtual std::vector<MessageId> select_victims(const std::vector<MessageRecord>& messages,
                                                std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                                Micros now) = 0;
};

// The built-in policy: everything expired; then, while over the byte quota,
// the lowest priority first and, within a priority, the least recently used
// (delivered or served; "expiry-priority-lru", the default) or the oldest
// ("expiry-priority-oldest") first. Evicts down to `low_watermark` x quota
// so that eviction runs rarely, not on every insert.
class ExpiryPriorityEviction final : public DeletionController {
 public:
  enum class Recency { LeastRecentlyUsed, Oldest };
  explicit ExpiryPriorityEviction(Recency recency = Recency::LeastRecentlyUsed, double low_watermark = 0.9)
      : recency_(recency), low_watermark_(low_watermark) {}
  std::string_view name() const override {
    return recency_ == Recency::LeastRecentlyUsed ? "expiry-priority-lru" : "expiry-priority-oldest";
  }
  std::vector<MessageId> select_victims(const std::vector<MessageRecord>& messages,
                                        std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                        Micros now) override;

 private:
  Recency recency_;
  double low_watermark_;
};

}  // namespace dissem::controllers
