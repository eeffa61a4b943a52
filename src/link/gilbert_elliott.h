// Gilbert-Elliott burst loss: a two-state Markov chain per ordered link,
// stepped once for every copy offered to that link.
//
//  * before each copy the chain moves: good -> bad with p_good_to_bad,
//    bad -> good with p_bad_to_good; a link starts in the good state;
//  * in the good state the copy passes with the link's own probability r
//    (1 - its loss), unchanged;
//  * in the bad state it passes with r * (1 - loss_in_bad): the burst loss
//    comes on top of the link's loss, as two independent causes.
// With link loss e = 1 - r, the long-run loss is
// e + pi_bad * loss_in_bad * (1 - e), pi_bad = p_good_to_bad / (p_good_to_bad + p_bad_to_good).
#pragma once

#include <string_view>

#include "core/random.h"

namespace dissem::link {

struct GilbertParams {
  double p_good_to_bad = 0;  // probabilities in [0, 1]
  double p_bad_to_good = 0;
  double loss_in_bad = 0;

  // Long-run share of copies that see the bad state (0 if the chain never moves).
  double stationary_bad() const;
  // Long-run loss on a link whose own loss probability is `base_loss`.
  double mean_loss(double base_loss) const;
  // Throws std::invalid_argument naming the field that is not a probability.
  void check() const;
};

// "PGB,PBG,LOSSBAD", each a probability in [0, 1]; throws std::invalid_argument
// naming the offending field.
GilbertParams parse_gilbert(std::string_view text);

class GilbertElliott {
 public:
  // Steps the chain for one copy (one uniform draw) and returns the
  // probability that this copy passes, on a link that passes `base_pass`.
  double step(Random& rng, const GilbertParams& params, double base_pass);

  bool in_bad_state() const { return bad_; }

 private:
  bool bad_ = false;
};

}  // namespace dissem::link
