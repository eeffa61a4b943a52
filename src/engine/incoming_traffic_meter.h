// Incoming traffic over a sliding window, for the MFR traffic gate: requests
// (and answers) are only sent while the channel is not close to saturated.
#pragma once

#include <cstdint>
#include <deque>

#include "core/types.h"

namespace dissem::engine {

class IncomingTrafficMeter {
 public:
  explicit IncomingTrafficMeter(Micros window) : window_(window) {}

  void add(Micros now, std::size_t bytes);
  // Bits per second observed over the last window.
  double rate_bps(Micros now);
  // The same with `per_datagram` bytes added to every datagram (the framing
  // that takes air time too: the channel occupancy the traffic caused).
  double air_rate_bps(Micros now, std::size_t per_datagram);

 private:
  void prune(Micros now);

  Micros window_;
  std::deque<std::pair<Micros, std::size_t>> samples_;
  std::uint64_t bytes_in_window_ = 0;
};

}  // namespace dissem::engine
