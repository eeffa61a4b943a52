// What one ordered link (sender -> receiver) does to each copy sent over it:
// the random half of the link-effects model (link_draws.h draws from it).
// Rates and queues are the other half (channel.h).
#pragma once

#include <optional>

#include "link/gilbert_elliott.h"
#include "link/link_time.h"

namespace dissem::link {

struct LinkSpec {
  double reliability = 1.0;  // probability that one copy passes the loss draw (1 - loss)
  Time latency = 0;
  Time jitter = 0;  // extra delay, uniform in [0, jitter]
  bool enabled = true;  // false: the link passes nothing and draws nothing
  double duplicate = 0;  // probability of one extra copy (its own delay, no capacity)
  std::optional<GilbertParams> burst = std::nullopt;  // burst loss on top of `reliability`

  // Throws std::invalid_argument naming the field out of range.
  void check() const;
};

}  // namespace dissem::link
