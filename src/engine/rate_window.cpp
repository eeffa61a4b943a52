#include "engine/rate_window.h"

#include <algorithm>

namespace dissem::engine {

RateWindow::RateWindow(Micros window)
    : slice_(std::max<Micros>(1, (window + static_cast<Micros>(kBuckets) - 1) / static_cast<Micros>(kBuckets))) {
  index_.fill(-1);
}

std::int64_t RateWindow::slice_index(Micros t) const {
  // Floor division: engine time may be negative in tests.
  return t >= 0 ? t / slice_ : -((-t + slice_ - 1) / slice_);
}

void RateWindow::add(Micros now, std::uint64_t bytes) {
  const std::int64_t slice = slice_index(now);
  const auto bucket = static_cast<std::size_t>(((slice % static_cast<std::int64_t>(kBuckets)) +
                                                static_cast<std::int64_t>(kBuckets)) %
                                               static_cast<std::int64_t>(kBuckets));
  if (index_[bucket] != slice) {
    if (index_[bucket] > slice) return;  // older than the window: already left it
    index_[bucket] = slice;
    bytes_[bucket] = 0;
  }
  bytes_[bucket] += bytes;
}

double RateWindow::bytes_per_second(Micros now) const {
  const std::int64_t newest = slice_index(now);
  const std::int64_t oldest = newest - static_cast<std::int64_t>(kBuckets) + 1;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < kBuckets; ++i)
    if (index_[i] >= oldest && index_[i] <= newest) total += bytes_[i];
  return static_cast<double>(total) * static_cast<double>(kSeconds) / static_cast<double>(window());
}

}  // namespace dissem::engine
