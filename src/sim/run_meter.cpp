#include "sim/run_meter.h"

#include <sys/resource.h>

#include <fmt/format.h>

namespace dissem::sim {
namespace {

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; }

rusage self_usage() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u;
}

double cpu_seconds(const rusage& u) { return seconds(u.ru_utime) + seconds(u.ru_stime); }

}  // namespace

RunMeter::RunMeter() : wall_start_(std::chrono::steady_clock::now()), cpu_start_s_(cpu_seconds(self_usage())) {}

RunCost RunMeter::stop(std::uint64_t events) const {
  const rusage u = self_usage();
  RunCost c;
  c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
  c.cpu_s = cpu_seconds(u) - cpu_start_s_;
  c.peak_rss_bytes = static_cast<std::uint64_t>(u.ru_maxrss) * 1024;  // Linux: kilobytes
  c.events = events;
  return c;
}

std::string format_run_cost(const RunCost& c) {
  return fmt::format("run cost: events={} wall_s={:.3f} cpu_s={:.3f} cpu_us_per_event={:.3f} events_per_s={:.0f} "
                     "peak_rss_mb={:.1f}\n",
                     c.events, c.wall_s, c.cpu_s, c.cpu_us_per_event(), c.events_per_s(),
                     static_cast<double>(c.peak_rss_bytes) / (1024.0 * 1024.0));
}

}  // namespace dissem::sim
