// Decision point: which cached messages to erase. Called periodically with a
// summary of the cache; returns the victims. Expired messages must always be
// returned (expiry is absolute and set by the publisher).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "cache/store.h"
#include "engine/types.h"

namespace dissem::controllers {

class DeletionController {
 public:
  virtual ~DeletionController() = default;
  virtual std::string_view name() const = 0;
  virtual std::vector<MessageId> select_victims(const std::vector<cache::MessageRecord>& messages,
                                                std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                                Micros now) = 0;
};

// Default policy: everything expired; then, while over quota, the lowest
// priority first and, within a priority, the oldest first. Evicts down to
// `low_watermark` x quota so that eviction runs rarely, not on every insert.
class QuotaEviction final : public DeletionController {
 public:
  explicit QuotaEviction(double low_watermark = 0.9) : low_watermark_(low_watermark) {}
  std::string_view name() const override { return "quota"; }
  std::vector<MessageId> select_victims(const std::vector<cache::MessageRecord>& messages,
                                        std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                        Micros now) override;

 private:
  double low_watermark_;
};

}  // namespace dissem::controllers
