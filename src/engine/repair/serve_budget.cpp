#include "engine/repair/serve_budget.h"

#include <algorithm>

namespace dissem::engine {

namespace {

double capacity(double rate_bps, const ServeBudget::Settings& s) {
  return std::max(rate_bps / 8.0 * static_cast<double>(s.depth) / static_cast<double>(kSeconds),
                  static_cast<double>(s.min_depth_bytes));
}

}  // namespace

void ServeBudget::refill(Bucket& b, double rate_bps, Micros now) const {
  if (now > b.at) b.tokens += rate_bps / 8.0 * static_cast<double>(now - b.at) / static_cast<double>(kSeconds);
  b.at = std::max(b.at, now);
  b.tokens = std::min(b.tokens, capacity(rate_bps, settings_));
}

ServeBudget::Bucket& ServeBudget::bucket(NodeId requester, bool member, Micros now) {
  if (member) {
    auto it = members_.find(requester);
    if (it == members_.end() && members_.size() < settings_.max_members) {
      it = members_.emplace(requester, Bucket{capacity(settings_.member_rate_bps, settings_), now}).first;
    }
    if (it != members_.end()) {
      refill(it->second, settings_.member_rate_bps, now);
      return it->second;
    }
    // More members than we track: they share the strangers' bucket.
  }
  if (!strangers_started_) {
    strangers_ = Bucket{capacity(settings_.stranger_rate_bps, settings_), now};
    strangers_started_ = true;
  }
  refill(strangers_, settings_.stranger_rate_bps, now);
  return strangers_;
}

std::uint64_t ServeBudget::available(NodeId requester, bool member, Micros now) {
  return static_cast<std::uint64_t>(std::max(0.0, bucket(requester, member, now).tokens));
}

void ServeBudget::charge(NodeId requester, bool member, std::uint64_t bytes, Micros now) {
  Bucket& b = bucket(requester, member, now);
  b.tokens = std::max(0.0, b.tokens - static_cast<double>(bytes));
}

}  // namespace dissem::engine
