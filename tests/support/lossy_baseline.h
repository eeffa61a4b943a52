// The simulated baseline the traffic-driven mechanisms are measured on:
// one sender, three receivers with radios of their own (or one shared
// channel), 256 kbit/s, 70 % links, 819,200 bytes, with engine settings for
// every node. Each test sums it over several seeds, comparing a mechanism
// on and off.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/experiments.h"

namespace dissem::test {

inline sim::BaselineResult run_lossy_baseline(std::uint64_t seed, const std::vector<std::string>& settings,
                                              bool shared_channel = false) {
  sim::BaselineParams p;
  p.receivers = 3;
  p.capacity_kbps = 256;
  p.reliability_pct = 70;
  p.shared_channel = shared_channel;
  p.seed = seed;
  p.engine_settings = settings;
  return sim::run_baseline(p);
}

}  // namespace dissem::test
