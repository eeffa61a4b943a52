// What an expanded scenario says of one ordered link: EMANE's comm effect
// (latency, jitter, loss and duplicates in percent, rates; loss >= 100 %
// is a link that passes nothing), and a change of it at a moment of the run.
#pragma once

#include <compare>
#include <cstdint>
#include <utility>
#include <vector>

namespace dissem::scenario {

using Pair = std::pair<int, int>;  // (sender, receiver), 1-based node ids

struct LinkParams {
  double latency_s = 0;
  double jitter_s = 0;
  double loss_pct = 0;
  double dup_pct = 0;
  std::int64_t unicast_bps = 0;  // 0: no rate limit (EMANE's meaning)
  std::int64_t broadcast_bps = 0;

  bool disabled() const { return loss_pct >= 100.0; }
  LinkParams disable() const {
    LinkParams p = *this;
    p.loss_pct = 100.0;
    return p;
  }
  bool operator==(const LinkParams&) const = default;

  // From the scenario's keys (capacity_bps, reliability 0..1, latency_ms,
  // jitter_ms, dup_pct), rounded to 9 decimals: 100 * (1 - 0.9) is 10, not
  // 9.999999999999998 (EEL files are read by people).
  static LinkParams from_scenario(double capacity_bps, double reliability, double latency_ms, double jitter_ms,
                                  double dup_pct);
};

struct LinkEvent {
  double time_s = 0;
  int sender = 0;
  int receiver = 0;
  LinkParams params;
};

// Sorted by time, then sender, then receiver (stable: equal keys keep their order).
void sort_events(std::vector<LinkEvent>& events);

}  // namespace dissem::scenario
