#include <algorithm>

#include "controllers/deletion/deletion_controller.h"

namespace dissem::controllers {

std::vector<MessageId> QuotaEviction::select_victims(const std::vector<cache::MessageRecord>& messages,
                                                     std::uint64_t total_bytes, std::uint64_t quota_bytes,
                                                     Micros now) {
  std::vector<MessageId> victims;
  std::vector<const cache::MessageRecord*> live;
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

  const auto target = static_cast<std::uint64_t>(static_cast<double>(quota_bytes) * low_watermark_);
  std::sort(live.begin(), live.end(), [](const cache::MessageRecord* a, const cache::MessageRecord* b) {
    if (a->meta.priority != b->meta.priority) return a->meta.priority < b->meta.priority;
    if (a->first_seen != b->first_seen) return a->first_seen < b->first_seen;
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
