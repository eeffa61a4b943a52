// When the cache cannot write: a full disk, a failing device. The store has
// rolled back to its last commit (cache/store.h); the node then stops taking
// data it would have to store and stops asking for more, keeps serving what
// it holds, and tries a write the size of a fragment again after a pause
// that doubles (1 s up to 30 s) until one succeeds. An outage that begins
// within a minute of the last one's end takes up that one's pause, so a disk
// with room for a little but not for a transfer is not retried every second.
// Under the "evict" policy each failure also caps the cache at 90 % of what
// it held when the write failed, so the deletion controller makes room by
// its own choice of victims.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace dissem::engine {

enum class CacheFullPolicy { Pause, Evict };

class CacheOutage {
 public:
  static constexpr Micros kFirstPause = kSeconds;
  static constexpr Micros kLongestPause = 30 * kSeconds;
  static constexpr Micros kRelapseWindow = 60 * kSeconds;

  bool active() const { return active_; }
  const std::string& error() const { return error_; }
  // The cap the evict policy has set on the cache's bytes (no cap: the maximum).
  std::uint64_t quota_cap() const { return quota_cap_; }

  // A write failed at `now` with `error`, the cache holding `held_bytes`
  // after its rollback. True if this begins an outage (false: one goes on).
  bool write_failed(const std::string& error, std::uint64_t held_bytes, CacheFullPolicy policy, Micros now) {
    error_ = error;
    if (policy == CacheFullPolicy::Evict) quota_cap_ = std::min(quota_cap_, held_bytes - held_bytes / 10);
    const bool began = !active_;
    const bool relapse = began && ended_ && now - *ended_ < kRelapseWindow;
    pause_ = began && !relapse ? kFirstPause : std::min(2 * pause_, kLongestPause);
    // Evicting made room: try again at once rather than after a pause.
    next_probe_ = now + (policy == CacheFullPolicy::Evict && began ? 0 : pause_);
    active_ = true;
    if (began) news_.push_back(Change{true, error});
    return began;
  }
  // When to try the cache again, while an outage lasts.
  std::optional<Micros> next_probe() const { return active_ ? std::optional(next_probe_) : std::nullopt; }
  // A write succeeded: the outage, if any, is over. True if one ended.
  bool write_succeeded(Micros now) {
    if (!active_) return false;
    active_ = false;
    ended_ = now;
    news_.push_back(Change{false, {}});
    return true;
  }
  // Outages begun (with their error) and ended since the last call, in order:
  // one event each.
  struct Change {
    bool began;
    std::string error;
  };
  std::vector<Change> take_news() { return std::exchange(news_, {}); }

 private:
  bool active_ = false;
  std::vector<Change> news_;
  std::string error_;
  Micros pause_ = kFirstPause;
  Micros next_probe_ = 0;
  std::optional<Micros> ended_;  // when the last outage ended
  std::uint64_t quota_cap_ = std::numeric_limits<std::uint64_t>::max();
};

}  // namespace dissem::engine
