// A one-line progress display on stderr for large transfers: bytes moved so
// far and the current rate, redrawn in place with a carriage return.
//
// The owner samples a byte counter (from dissemd's stats) whenever due()
// says so, about every 500 ms. Anything else written to stderr meanwhile
// should call break_line() first so it does not land on the progress line.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace dissem::cli {

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kInterval{500};

  // `what` names the counter, e.g. "received" or "sent".
  ProgressLine(bool enabled, std::string what);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  bool due() const;
  // `counter` is the daemon's running total; the line shows the increase
  // since the first sample.
  void sample(std::uint64_t counter);
  // Ends the line if one is shown, so the next stderr write starts clean.
  void break_line();

 private:
  bool enabled_;
  std::string what_;
  std::optional<std::uint64_t> first_;
  std::uint64_t last_ = 0;
  Clock::time_point started_;
  Clock::time_point last_at_;
  bool shown_ = false;
};

// "1.5 MiB", "12.0 KiB", "512 B".
std::string human_bytes(double bytes);

}  // namespace dissem::cli
