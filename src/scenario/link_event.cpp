#include "scenario/link_event.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dissem::scenario {
namespace {

// x to 9 decimals, correctly rounded (as Python's round(x, 9)); -0 becomes 0.
double clean(double x) {
  char text[400];
  std::snprintf(text, sizeof text, "%.9f", x);
  return std::strtod(text, nullptr) + 0.0;
}

}  // namespace

LinkParams LinkParams::from_scenario(double capacity_bps, double reliability, double latency_ms, double jitter_ms,
                                     double dup_pct) {
  const auto bps = static_cast<std::int64_t>(std::nearbyint(capacity_bps));
  return {clean(latency_ms / 1000.0), clean(jitter_ms / 1000.0), clean(100.0 * (1.0 - reliability)), clean(dup_pct), bps,
          bps};
}

void sort_events(std::vector<LinkEvent>& events) {
  std::stable_sort(events.begin(), events.end(), [](const LinkEvent& a, const LinkEvent& b) {
    if (a.time_s != b.time_s) return a.time_s < b.time_s;
    return a.sender != b.sender ? a.sender < b.sender : a.receiver < b.receiver;
  });
}

}  // namespace dissem::scenario
