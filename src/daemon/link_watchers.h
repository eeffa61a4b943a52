// Which IPC clients watch links, each with its own engine::LinkWatch: by the
// thresholds it asked for, or else the engine's (engine.link_*). Each watch
// is evaluated on the engine's link samples every kEvaluateEvery (the
// engine's housekeeping pace); a new watch's first evaluation reports every
// current neighbour as appeared (and over a threshold, if it is), so a
// client starts from the whole picture. Memory: one LinkWatch per watching
// client, each bounded by the engine's max_peers.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "engine/link_watch.h"
#include "ipc/backend.h"

namespace dissem::daemon {

class LinkWatchers {
 public:
  static constexpr Micros kEvaluateEvery = 250 * kMillis;

  // Starts (or restarts, with new thresholds) `client`'s watch. Throws
  // std::invalid_argument naming a threshold out of range.
  void watch(ipc::ClientId client, const engine::LinkThresholds& thresholds);
  void forget(ipc::ClientId client) { watchers_.erase(client); }
  bool empty() const { return watchers_.empty(); }

  // Whether an evaluation is due (a new watch is due at once).
  bool due(Micros now) const { return !watchers_.empty() && now >= next_evaluation_; }
  // Evaluates every watch on `links`; each event with its client.
  std::vector<std::pair<ipc::ClientId, engine::LinkEvent>> evaluate(const std::vector<engine::LinkSample>& links,
                                                                    Micros now);

 private:
  std::map<ipc::ClientId, engine::LinkWatch> watchers_;
  Micros next_evaluation_ = 0;
};

}  // namespace dissem::daemon
