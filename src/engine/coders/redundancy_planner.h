// A publisher's proactive redundancy: how many coded symbols follow each
// block's fragments on the first pass. Sized from the loss the receivers
// report in their beacons (a receiver that expects to lose a fraction L of
// what is sent needs k / (1 - L) symbols to get k), bounded by
// configuration; with no report (a one-way link, or nobody heard yet) the
// configured minimum applies.
//
// Whose loss: not always the worst receiver's. Any node holding a block can
// repair it (DisService), so where the receivers have radios of their own
// (allow_cover; radio_model.h) the first pass needs only to leave enough
// holders: it is sized for the receiver at rank ceil(cover * reports), at
// least the second best (so a holder besides the publisher remains), and
// the worst when there are fewer than three reports. Receivers worse than
// that rank fetch their rest from the holders, whose radios (or idle air)
// serve them while the publisher's goes on with the next block. cover = 1
// sizes for the worst, as a protocol in which only the source repairs must. Fractions carry over between blocks, so a
// stream of one-fragment messages gets one extra copy every so many messages.
//
// Receivers that cannot report (silent under EMCON, or one-way links) get
// their own floor (set_silent_receivers): a block of k carries at least the
// parity r with which a receiver losing a fraction L of symbols at random
// still gets k of the k + r with the configured probability (a binomial
// tail, exact), and the fraction never falls below L / (1 - L). Silent
// receivers cannot ask for the rest, so this floor is not cut for the
// backlog.
#pragma once

#include <cstdint>
#include <map>

#include "core/types.h"

namespace dissem::engine {

class RedundancyPlanner {
 public:
  RedundancyPlanner(double min_fraction, double max_fraction, double cover = 1.0)
      : min_(min_fraction), max_(max_fraction), cover_(cover) {}

  // Receiver `reporter` loses `loss` (0..1) of our first-pass data.
  void on_report(NodeId reporter, double loss, Micros now);
  // Reports older than `max_age` no longer count.
  void expire(Micros now, Micros max_age);
  // Redundancy fraction now: loss / (1 - loss) of the sizing report, within bounds.
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
  // Whether the cover applies now: only when the receivers are known to
  // have radios of their own (radio_model.h); otherwise the worst receiver's
  // loss sizes it.
  void allow_cover(bool allowed) { cover_allowed_ = allowed; }
  // The loss the first pass is sized for (see above); 0 with no report.
  double sizing_loss() const;

  // Receivers we cannot hear expect `loss` (0: none known) and should decode
  // each block from the first pass with probability `target`.
  void set_silent_receivers(double loss, double target);
  // Parity a block of `k` source symbols needs for them (0 with none known):
  // the least r with P(Binomial(k + r, 1 - loss) >= k) >= target, at most 255.
  std::uint32_t silent_parity(std::uint32_t k) const;

 private:
  struct Report {
    double loss = 0;
    Micros at = 0;
  };
  double min_;
  double max_;
  double cover_;
  bool cover_allowed_ = false;
  double credit_ = 0;
  std::map<NodeId, Report> reports_;
  double silent_loss_ = 0;
  double silent_target_ = 0;
  mutable std::map<std::uint32_t, std::uint32_t> silent_parity_;  // by k, computed once
};

}  // namespace dissem::engine
