#include "engine/coders/redundancy_planner.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dissem::engine {

void RedundancyPlanner::on_report(NodeId reporter, double loss, Micros now) {
  reports_[reporter] = Report{std::clamp(loss, 0.0, 1.0), now};
}

void RedundancyPlanner::expire(Micros now, Micros max_age) {
  std::erase_if(reports_, [&](const auto& kv) { return kv.second.at < now - max_age; });
}

double RedundancyPlanner::worst_loss() const {
  double worst = 0;
  for (const auto& [node, r] : reports_) worst = std::max(worst, r.loss);
  return worst;
}

double RedundancyPlanner::sizing_loss() const {
  if (!cover_allowed_ || reports_.size() < 3 || cover_ >= 1.0) return worst_loss();
  std::vector<double> losses;
  losses.reserve(reports_.size());
  for (const auto& [node, r] : reports_) losses.push_back(r.loss);
  std::sort(losses.begin(), losses.end());
  const auto rank = static_cast<std::size_t>(std::ceil(std::max(cover_, 0.0) * static_cast<double>(losses.size())));
  return losses[std::clamp<std::size_t>(rank, 2, losses.size()) - 1];
}

double RedundancyPlanner::fraction() const {
  const double loss = std::min(sizing_loss(), 0.95);
  return std::clamp(loss / (1.0 - loss), min_, std::max(min_, max_));
}

std::uint32_t RedundancyPlanner::tail_margin(std::uint32_t k) const {
  const double f = fraction();
  if (f <= 0) return 0;
  const double loss = f / (1.0 + f);  // the loss this fraction answers
  const double sent = k * (1.0 + f);
  return static_cast<std::uint32_t>(std::ceil(std::sqrt(sent * loss * (1.0 - loss)) / (1.0 - loss)));
}

std::uint32_t RedundancyPlanner::parity_for(std::uint32_t k, double allowance) {
  credit_ += fraction() * k * std::clamp(allowance, 0.0, 1.0);
  const double whole = std::floor(credit_);
  credit_ -= whole;
  return static_cast<std::uint32_t>(std::min(whole, 255.0));
}

}  // namespace dissem::engine
