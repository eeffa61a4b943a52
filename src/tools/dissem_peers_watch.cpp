// `dissem peers --watch`: a live table of the neighbours' links, redrawn in
// place every interval (on a terminal: clear, then draw; otherwise one table
// after another, so a pipe or a log stays readable), with link events as
// they come. Ends cleanly on SIGINT / SIGTERM (the loop waits in slices of
// at most kSlice, so a signal is noticed within one) or after --duration-s.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>

#include <fmt/format.h>

#include "tools/dissem_common.h"
#include "tools/dissem_peers.h"

namespace dissem::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kSlice = std::chrono::milliseconds(200);
constexpr std::size_t kRecentEvents = 10;  // shown under the table on a terminal

volatile std::sig_atomic_t stop_requested = 0;

extern "C" void on_stop_signal(int) { stop_requested = 1; }

// SIGINT and SIGTERM set the flag (no SA_RESTART: a blocking wait returns);
// the previous handlers come back when this goes out of scope.
class StopSignals {
 public:
  StopSignals() {
    stop_requested = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::optional<engine::LinkThresholds> thresholds_of(const PeersOptions& o) {
  if (!o.loss_threshold && !o.loss_hysteresis && !o.rate_threshold && !o.rate_hysteresis) return std::nullopt;
  engine::LinkThresholds t;
  t.loss = o.loss_threshold.value_or(t.loss);
  t.loss_hysteresis = o.loss_hysteresis.value_or(t.loss_hysteresis);
  t.rate_bytes_per_s = o.rate_threshold.value_or(t.rate_bytes_per_s);
  t.rate_hysteresis = o.rate_hysteresis.value_or(t.rate_hysteresis);
  return t;
}

}  // namespace

void watch_peers(const std::string& socket, const PeersOptions& o) {
  StopSignals signals;
  auto c = connect_or_explain(socket);
  c.watch_links(thresholds_of(o));
  const bool terminal = ::isatty(STDOUT_FILENO) == 1;
  const auto interval = std::chrono::milliseconds(static_cast<long>(o.interval_s * 1000.0));
  const auto start = Clock::now();
  const auto end = o.duration_s > 0 ? start + std::chrono::milliseconds(static_cast<long>(o.duration_s * 1000.0))
                                    : Clock::time_point::max();
  std::deque<std::string> recent;
  while (stop_requested == 0 && Clock::now() < end) {
    std::string frame = terminal ? "\x1b[H\x1b[2J" : "";
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    frame += fmt::format("dissem peers --watch: every {:.1f} s, {:.1f} s so far (Ctrl-C to stop)\n", o.interval_s,
                         elapsed);
    frame += peers_table(c.peers());
    if (terminal && !recent.empty()) {
      frame += "\nlink events (seconds since the start), newest last:\n";
      for (const auto& line : recent) frame += line + '\n';
    }
    if (!terminal) frame += '\n';
    print(frame);
    // Until the next redraw: events as they come (on a terminal, the table
    // is drawn again at once with them underneath).
    const auto next = std::min(Clock::now() + interval, end);
    bool redraw = false;
    while (stop_requested == 0 && !redraw && Clock::now() < next) {
      const auto wait = std::min<Clock::duration>(kSlice, next - Clock::now());
      auto e = c.next_link_event(std::chrono::duration_cast<std::chrono::milliseconds>(wait));
      while (e) {
        const std::string line = link_event_line(*e);
        if (terminal) {
          const double at = std::chrono::duration<double>(Clock::now() - start).count();
          recent.push_back(fmt::format("{:7.1f} s  {}", at, line));
          if (recent.size() > kRecentEvents) recent.pop_front();
          redraw = true;
        } else {
          print("event " + line + '\n');
        }
        e = c.next_link_event(std::chrono::milliseconds(0));
      }
    }
  }
  c.unwatch_links();
}

}  // namespace dissem::cli
