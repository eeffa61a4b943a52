// What nearly every part of a node uses, owned once and handed to each part
// by reference: the configuration (with its derived link timers), the
// counters, what the node knows of each message (the tracker), its cache,
// and its only source of randomness. Time is not here: it arrives with every
// call as `now`, so no part reads a clock and a run replays from its seed.
#pragma once

#include <memory>

#include "cache/store.h"
#include "core/random.h"
#include "engine/config.h"
#include "engine/message_tracker.h"
#include "engine/stats.h"

namespace dissem::engine {

struct NodeContext {
  // `config` must be complete: payload_size resolved, link timers derived.
  NodeContext(EngineConfig config, std::unique_ptr<cache::Store> store);

  EngineConfig config;
  std::unique_ptr<cache::Store> store;
  Random rng;
  Stats stats;
  MessageTracker tracker;
};

}  // namespace dissem::engine
