#include <algorithm>

#include "controllers/deletion/deletion_controller.h"

namespace dissem::controllers {

std::vector<MessageId> ExpiryPriorityEviction::select_victims(const std::vector<MessageRecord>& messages,
                                                              std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                                              Micros now) {
  std::vector<MessageId> victims;
  std::vector<const MessageRecord*> live;
  std::uint64_t remaining = total_bytes;
  for (const auto& m : messages) {
    if (m.meta.expired_at(now)) {
      victims.push_back(m.meta.id);
      remaining -= std::min(remaining, m.stored_bytes);
    } else {
      live.push_back(&m);
    }
  }
  if (remaining <= quota_bytes) return victims;

  // A message never used since it arrived was last used when it arrived.
  const bool lru = recency_ == Recency::LeastRecentlyUsed;
  const auto recency = [lru](const MessageRecord* m) {
    return lru ? std::max(m->last_used, m->first_seen) : m->first_seen;
  };
  const auto target = static_cast<std::uint64_t>(static_cast<double>(quota_bytes) * low_watermark_);
  std::sort(live.begin(), live.end(), [&](const MessageRecord* a, const MessageRecord* b) {
    if (a->meta.priority != b->meta.priority) return a->meta.priority < b->meta.priority;
    if (recency(a) != recency(b)) return recency(a) < recency(b);
    return a->meta.id < b->meta.id;
  });
  for (const auto* m : live) {
    if (remaining <= target) break;
    victims.push_back(m->meta.id);
    remaining -= std::min(remaining, m->stored_bytes);
  }
  return victims;
}

}  // namespace dissem::controllers
