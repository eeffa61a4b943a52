// What a simulator run cost the host: wall time, CPU time of the process and
// its peak resident memory (the RSS high-water mark, getrusage ru_maxrss),
// against the number of simulated events. dissem-sim prints it for every
// run, on stderr, so stdout stays the same for the same arguments.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace dissem::sim {

struct RunCost {
  double wall_s = 0;
  double cpu_s = 0;           // user + system
  std::uint64_t peak_rss_bytes = 0;
  std::uint64_t events = 0;

  double events_per_s() const { return wall_s > 0 ? static_cast<double>(events) / wall_s : 0.0; }
  double cpu_us_per_event() const { return events > 0 ? cpu_s * 1e6 / static_cast<double>(events) : 0.0; }
};

class RunMeter {
 public:
  RunMeter();  // starts measuring
  RunCost stop(std::uint64_t events) const;

 private:
  std::chrono::steady_clock::time_point wall_start_;
  double cpu_start_s_ = 0;
};

// One line: "run cost: events=... wall_s=... cpu_s=... cpu_us_per_event=...
// events_per_s=... peak_rss_mb=..." (key=value, for scripts).
std::string format_run_cost(const RunCost& cost);

}  // namespace dissem::sim
