#include "tools/dissem_progress.h"

#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace dissem::cli {

ProgressLine::ProgressLine(bool enabled, std::string what)
    : enabled_(enabled), what_(std::move(what)), started_(Clock::now()), last_at_(started_) {}

ProgressLine::~ProgressLine() { break_line(); }

bool ProgressLine::due() const { return enabled_ && Clock::now() - last_at_ >= kInterval; }

void ProgressLine::sample(std::uint64_t counter) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (!first_ || counter < last_) {
    // The baseline: the daemon's counters include traffic from before we
    // started (and restart from zero if it restarted meanwhile).
    first_ = counter;
    last_ = counter;
    last_at_ = now;
    return;
  }
  const double seconds = std::chrono::duration<double>(now - last_at_).count();
  const double rate = seconds > 0 ? static_cast<double>(counter - last_) / seconds : 0.0;
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  // Trailing spaces wipe what a longer previous line left behind.
  const std::string line = fmt::format("\r{} {} at {}/s, {:.1f} s    ", what_,
                                       human_bytes(static_cast<double>(counter - *first_)), human_bytes(rate), elapsed);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  shown_ = true;
  last_ = counter;
  last_at_ = now;
}

void ProgressLine::break_line() {
  if (!shown_) return;
  std::fputc('\n', stderr);
  std::fflush(stderr);
  shown_ = false;
}

std::string human_bytes(double bytes) {
  constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (bytes >= 1024.0 && unit + 1 < std::size(units)) {
    bytes /= 1024.0;
    ++unit;
  }
  if (unit == 0) return fmt::format("{:.0f} B", bytes);
  return fmt::format("{:.1f} {}", bytes, units[unit]);
}

}  // namespace dissem::cli
