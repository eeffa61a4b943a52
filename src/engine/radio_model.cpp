#include "engine/radio_model.h"

#include <algorithm>

namespace dissem::engine {

void RadioModel::on_sample(double ratio, Micros now) {
  if (ratio <= kProofRatio) return;
  const std::int64_t w = now / window_;
  if (w == last_window_) return;
  last_window_ = w;
  over_.insert(w);
  std::erase_if(over_, [&](std::int64_t seen) { return (w - seen) * window_ > kHold; });
  if (static_cast<int>(over_.size()) >= kProofWindows) proof_at_ = now;
}

void RadioModel::on_claim(NodeId peer, bool claims, Micros now) {
  std::erase_if(claims_, [&](const auto& kv) { return now - kv.second > kHold; });
  if (claims) {
    claims_[peer] = now;
  } else {
    claims_.erase(peer);
  }
}

std::size_t RadioModel::claimed(Micros now) const {
  return static_cast<std::size_t>(
      std::count_if(claims_.begin(), claims_.end(), [&](const auto& kv) { return now - kv.second <= kHold; }));
}

}  // namespace dissem::engine
