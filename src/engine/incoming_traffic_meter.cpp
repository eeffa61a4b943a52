#include "engine/incoming_traffic_meter.h"

namespace dissem::engine {

void IncomingTrafficMeter::add(Micros now, std::size_t bytes) {
  prune(now);
  samples_.emplace_back(now, bytes);
  bytes_in_window_ += bytes;
}

double IncomingTrafficMeter::rate_bps(Micros now) { return air_rate_bps(now, 0); }

double IncomingTrafficMeter::air_rate_bps(Micros now, std::size_t per_datagram) {
  prune(now);
  const auto bytes = bytes_in_window_ + static_cast<std::uint64_t>(samples_.size()) * per_datagram;
  return static_cast<double>(bytes) * 8.0 * static_cast<double>(kSeconds) / static_cast<double>(window_);
}

void IncomingTrafficMeter::prune(Micros now) {
  while (!samples_.empty() && samples_.front().first <= now - window_) {
    bytes_in_window_ -= samples_.front().second;
    samples_.pop_front();
  }
}

}  // namespace dissem::engine
