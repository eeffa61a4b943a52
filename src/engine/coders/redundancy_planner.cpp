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
  const double loss = std::min(std::max(sizing_loss(), silent_loss_), 0.95);
  return std::clamp(loss / (1.0 - loss), min_, std::max(min_, max_));
}

std::uint32_t RedundancyPlanner::tail_margin(std::uint32_t k) const {
  const double f = fraction();
  if (f <= 0) return 0;
  const double loss = f / (1.0 + f);  // the loss this fraction answers
  const double sent = k * (1.0 + f);
  return static_cast<std::uint32_t>(std::ceil(std::sqrt(sent * loss * (1.0 - loss)) / (1.0 - loss)));
}

namespace {

// P(X >= k) for X ~ Binomial(n, q), 0 < q < 1, summed from the top term
// down in log space (n is at most 510 here).
double binomial_tail(std::uint32_t n, std::uint32_t k, double q) {
  if (k == 0) return 1.0;
  if (k > n) return 0.0;
  double sum = 0;
  for (std::uint32_t x = k; x <= n; ++x) {
    const double log_term = std::lgamma(n + 1.0) - std::lgamma(x + 1.0) - std::lgamma(n - x + 1.0) +
                            x * std::log(q) + (n - x) * std::log1p(-q);
    sum += std::exp(log_term);
  }
  return std::min(sum, 1.0);
}

}  // namespace

void RedundancyPlanner::set_silent_receivers(double loss, double target) {
  silent_loss_ = std::clamp(loss, 0.0, 0.95);
  silent_target_ = std::clamp(target, 0.0, 0.999999);
  silent_parity_.clear();
}

std::uint32_t RedundancyPlanner::silent_parity(std::uint32_t k) const {
  if (silent_loss_ <= 0 || k == 0) return 0;
  if (auto it = silent_parity_.find(k); it != silent_parity_.end()) return it->second;
  std::uint32_t r = 0;
  while (r < 255 && binomial_tail(k + r, k, 1.0 - silent_loss_) < silent_target_) ++r;
  silent_parity_.emplace(k, r);
  return r;
}

std::uint32_t RedundancyPlanner::parity_for(std::uint32_t k, double allowance) {
  credit_ += fraction() * k * std::clamp(allowance, 0.0, 1.0);
  const double whole = std::floor(credit_);
  credit_ -= whole;
  return static_cast<std::uint32_t>(std::min(whole, 255.0));
}

}  // namespace dissem::engine
