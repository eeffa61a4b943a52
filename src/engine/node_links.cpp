// Link events from the engine's own thresholds (engine.link_*): evaluated at
// housekeeping, after silent neighbours have been expired.
#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::evaluate_links(Micros now) {
  std::vector<LinkEvent> changed;
  link_watch.evaluate(links.samples(peers, reception, now), changed);
  for (auto& e : changed) {
    Event event{Event::Kind::LinkChanged, e.link.node, {}};
    event.link = std::move(e);
    events.push(std::move(event));
  }
}

}  // namespace dissem::engine
