#include "engine/node_context.h"

#include <utility>
#include <vector>

namespace dissem::engine {

NodeContext::NodeContext(EngineConfig c, std::unique_ptr<cache::Store> s)
    : config(std::move(c)),
      store(std::move(s)),
      rng(config.seed),
      tracker(config.max_tracked_messages, config.reassembly_memory, config.max_streams) {}

void NodeContext::on_cache_failure(const std::string& error, Micros now) {
  ++stats.cache_write_failures;
  std::vector<MessageRecord> held;
  try {
    held = store->load_index();
  } catch (const cache::StoreError&) {
    // Not even readable: the tracker keeps what it believes, and the next
    // probe of the cache reports the failure again.
  }
  tracker.cut_back_to(held);
  cache_outage.write_failed(error, store->total_bytes(), config.cache_full, now);
  stats.cache_paused = true;
}

void NodeContext::on_cache_write_succeeded(Micros now) {
  if (!cache_outage.write_succeeded(now)) return;
  stats.cache_paused = false;
  tracker.reset_backoff_all(now);
}

}  // namespace dissem::engine
