// When link events fire (link_watch.h): a threshold per measure and the band
// below it that a value must drop under before the event reverses.
#pragma once

namespace dissem::engine {

struct LinkThresholds {
  double loss = 0.2;              // [0, 1]: the worst known direction's loss
  double loss_hysteresis = 0.05;  // [0, 1], absolute
  double rate_bytes_per_s = 0;    // received from the neighbour; 0 = no rate events
  double rate_hysteresis = 0.2;   // [0, 0.95], a fraction of rate_bytes_per_s
};

}  // namespace dissem::engine
