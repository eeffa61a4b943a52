// Gilbert-Elliott burst loss: a two-state Markov chain per link, stepped once
// for every frame copy offered to that link.
//
// Semantics (documented in README.md):
//  * before each frame the chain moves: good -> bad with p_good_to_bad,
//    bad -> good with p_bad_to_good; a link starts in the good state;
//  * in the good state the frame is lost with the link's own (EEL) loss
//    probability, unchanged;
//  * in the bad state it is lost with 1 - (1 - eel) * (1 - loss_in_bad): the
//    burst loss comes on top of the EEL loss, as two independent causes.
// With EEL loss e, the long-run loss is e + pi_bad * loss_in_bad * (1 - e),
// pi_bad = p_good_to_bad / (p_good_to_bad + p_bad_to_good).
#pragma once

#include <string_view>

#include "core/random.h"

namespace dissem::emu {

struct GilbertParams {
  double p_good_to_bad = 0;  // probabilities in [0, 1]
  double p_bad_to_good = 0;
  double loss_in_bad = 0;

  // Long-run share of frames that see the bad state (0 if the chain never moves).
  double stationary_bad() const;
  // Long-run loss on a link whose EEL loss probability is `base_loss`.
  double mean_loss(double base_loss) const;
};

// "PGB,PBG,LOSSBAD", each a probability in [0, 1]; throws std::invalid_argument
// naming the offending field.
GilbertParams parse_gilbert(std::string_view text);

class GilbertElliott {
 public:
  // Steps the chain for one frame and returns that frame's loss probability.
  double step(Random& rng, const GilbertParams& params, double base_loss);

  bool in_bad_state() const { return bad_; }

 private:
  bool bad_ = false;
};

}  // namespace dissem::emu
