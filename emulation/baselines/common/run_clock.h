// Time for results: seconds since the run started (monotonic, for durations)
// and Unix time (wall clock, to compare processes on the same machine).
#pragma once

#include <chrono>
#include <cstdint>

namespace dissem::baseline {

class RunClock {
 public:
  RunClock() : start_(std::chrono::steady_clock::now()), start_unix_us_(now_unix_us()) {}

  double elapsed_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  std::int64_t start_unix_us() const { return start_unix_us_; }

  static std::int64_t now_unix_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
  std::int64_t start_unix_us_;
};

inline double us_to_s(std::int64_t us) { return static_cast<double>(us) / 1e6; }

}  // namespace dissem::baseline
