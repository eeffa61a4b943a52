// A publisher's proactive redundancy: how many coded symbols follow each
// block's fragments on the first pass. Sized from the worst loss the
// receivers report in their beacons (a receiver that expects to lose a
// fraction L of what is sent needs k / (1 - L) symbols to get k), bounded
// by configuration; with no report (a one-way link, or nobody heard yet) the
// configured minimum applies. Fractions carry over between blocks, so a
// stream of one-fragment messages gets one extra copy every so many messages.
#pragma once

#include <cstdint>
#include <map>

#include "core/types.h"

namespace dissem::engine {

class RedundancyPlanner {
 public:
  RedundancyPlanner(double min_fraction, double max_fraction) : min_(min_fraction), max_(max_fraction) {}

  // Receiver `reporter` loses `loss` (0..1) of our first-pass data.
  void on_report(NodeId reporter, double loss, Micros now);
  // Reports older than `max_age` no longer count.
  void expire(Micros now, Micros max_age);
  // Redundancy fraction now: loss / (1 - loss) of the worst report, within bounds.
  double fraction() const;
  // Parity symbols for a block of `k` source symbols, scaled by `allowance`
  // (0..1, what the send queue permits), carrying the fraction left over to
  // the next block.
  std::uint32_t parity_for(std::uint32_t k, double allowance = 1.0);

  // Extra symbols for the last block of a message: about one standard
  // deviation of what a receiver gets of k / (1 - loss) symbols, so that most
  // receivers finish without a request round on the message's critical path.
  std::uint32_t tail_margin(std::uint32_t k) const;

  double worst_loss() const;

 private:
  struct Report {
    double loss = 0;
    Micros at = 0;
  };
  double min_;
  double max_;
  double credit_ = 0;
  std::map<NodeId, Report> reports_;
};

}  // namespace dissem::engine
