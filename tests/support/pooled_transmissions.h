// Fragment transmissions (first pass, rebroadcasts, repairs) and deliveries
// pooled over several simulated runs, for the forwarding tests' measure:
// transmissions per delivered message (what docs/results/sim-forwarding.md
// reports), and the line that prints it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "sim/scenario_runner.h"

namespace dissem::test {

struct PooledTransmissions {
  std::uint64_t transmissions = 0;
  std::size_t delivered = 0;
  std::size_t expected = 0;

  void add(const sim::ScenarioResult& r) {
    transmissions += r.metrics.fragment_transmissions;
    delivered += r.metrics.delivered;
    expected += r.metrics.expected;
  }
  double per_delivery() const { return static_cast<double>(transmissions) / static_cast<double>(delivered); }
  // "<label>, <forwarding>, seeds 1-3: d/e delivered, N fragment transmissions, x per delivery"
  void print(const char* label, const std::string& forwarding) const {
    std::printf("%s, %s, seeds 1-3: %zu/%zu delivered, %llu fragment transmissions, %.3f per delivery\n", label,
                forwarding.c_str(), delivered, expected, static_cast<unsigned long long>(transmissions),
                per_delivery());
  }
};

}  // namespace dissem::test
