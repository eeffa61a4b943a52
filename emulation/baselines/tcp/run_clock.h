// Time for results: seconds since the process started (monotonic, for
// durations and deadlines) and Unix time in µs (the wall clock, which
// emulated nodes share, to stamp and measure messages).
#pragma once

#include <chrono>
#include <cstdint>

namespace dissem::tcp_baseline {

class RunClock {
 public:
  double elapsed_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  static std::int64_t now_unix_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

inline double us_to_s(std::int64_t us) { return static_cast<double>(us) / 1e6; }

}  // namespace dissem::tcp_baseline
