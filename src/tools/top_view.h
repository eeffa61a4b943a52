// What `dissem top` shows, as plain lines: traffic by category (rates from
// two samples), requests and repairs, cache use, peers and their links, and
// the messages still being received with their progress. No terminal here:
// dissem_top.cpp draws these lines with ncurses, and tests read them.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "engine/node.h"
#include "ipc/backend.h"

namespace dissem::cli {

// One poll of the daemon.
struct TopSample {
  std::chrono::steady_clock::time_point at{};
  ipc::StatsSnapshot stats;
  std::vector<ipc::PeerInfo> peers;
  std::vector<engine::CachedMessage> in_flight;  // incomplete messages, every group
  bool in_flight_truncated = false;
};

// The screen for `now` (rates against `previous`, or none without one), at
// most `height` lines of at most `width` columns each. `title` heads it.
std::vector<std::string> render_top(const std::string& title, const TopSample* previous, const TopSample& now,
                                    int width, int height);

}  // namespace dissem::cli
