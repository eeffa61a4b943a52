// A running node's configuration changed by its host (node.h: set_security,
// reconfigure): new keys and revocations, and the tunables that parts of the
// node read afresh at each use.
#include "engine/config_keys.h"
#include "engine/node.h"
#include "engine/node_impl.h"

namespace dissem::engine {
void Node::set_security(SecurityConfig next, Micros now) {
  NodeImpl& n = *impl_;
  if (const auto why = security_change_problem(n.config.security, next); !why.empty()) throw ConfigError(why);
  // The replay guard was sized with the running window.
  next.replay_window_us = n.config.security.replay_window_us;
  n.config.security = std::move(next);
  // Streams of publishers revoked now: what is missing of them is given up
  // (its partial data dropped); what is held stays.
  std::vector<StreamId> revoked;
  for (const auto& [stream, state] : n.tracker.streams())
    if (n.config.security.revoked_publisher(stream.publisher)) revoked.push_back(stream);
  for (const StreamId& stream : revoked) {
    const StreamState* st = n.tracker.stream(stream);
    if (st == nullptr) continue;
    for (const MessageId& id : n.tracker.settle_below(stream, st->newest + 1)) {
      if (n.store->contains(id)) n.cache_write([&] { n.store->erase(id); }, now);
      n.on_message_settled(id, false, now);
    }
  }
}

std::vector<std::string> Node::reconfigure(const EngineConfig& next) {
  NodeImpl& n = *impl_;
  std::vector<std::string> changed;
  const auto running = describe_config(n.config);
  const auto wanted = describe_config(next);
  for (std::size_t i = 0; i < running.size() && i < wanted.size(); ++i) {
    if (running[i].second == wanted[i].second || !live_config_key(running[i].first)) continue;
    set_config_value(n.config, wanted[i].first, wanted[i].second);
    changed.push_back(wanted[i].first);
  }
  return changed;
}

}  // namespace dissem::engine
