#include "engine/node_context.h"

#include <utility>

namespace dissem::engine {

NodeContext::NodeContext(EngineConfig c, std::unique_ptr<cache::Store> s)
    : config(std::move(c)),
      store(std::move(s)),
      rng(config.seed),
      tracker(config.max_tracked_messages, config.reassembly_memory, config.max_streams) {}

}  // namespace dissem::engine
