// What nearly every part of a node uses, owned once and handed to each part
// by reference: the configuration (with its derived link timers), the
// counters, what the node knows of each message (the tracker), its cache,
// and its only source of randomness. Time is not here: it arrives with every
// call as `now`, so no part reads a clock and a run replays from its seed.
// `now` never steps; absolute Unix time (expiry, beacon stamps) is
// wall(now) (wall_clock.h).
#pragma once

#include <memory>

#include "cache/store.h"
#include "core/random.h"
#include "engine/cache_outage.h"
#include "engine/config.h"
#include "engine/message_tracker.h"
#include "engine/stats.h"
#include "engine/wall_clock.h"

namespace dissem::engine {

struct NodeContext {
  // `config` must be complete: payload_size resolved, link timers derived.
  NodeContext(EngineConfig config, std::unique_ptr<cache::Store> store);

  EngineConfig config;
  std::unique_ptr<cache::Store> store;
  Random rng;
  Stats stats;
  MessageTracker tracker;
  CacheOutage cache_outage;
  WallClock wall_clock;

  // Unix time at `now`: what expiry is judged against and beacons stamp.
  Micros wall(Micros now) const { return wall_clock.wall(now); }

  // Runs `write` against the cache. If the cache refuses it (a full disk, a
  // failing device: cache::StoreError), the store is back at its last commit;
  // the tracker is cut back to what the cache holds, the outage begins or goes
  // on (cache_outage.h), and false is returned. Nothing else is undone: the
  // caller leaves out what depended on the write.
  template <class Write>
  bool cache_write(Write&& write, Micros now) {
    try {
      write();
      return true;
    } catch (const cache::StoreError& e) {
      on_cache_failure(e.what(), now);
      return false;
    }
  }
  void on_cache_failure(const std::string& error, Micros now);
  // A write went through: an outage, if one lasted, is over, and everything
  // missing is asked for again at once.
  void on_cache_write_succeeded(Micros now);
};

}  // namespace dissem::engine
