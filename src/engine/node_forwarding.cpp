// Forwarding release: the forwarding controller judges each fragment held
// for the first time; a rebroadcast it chooses waits in queues.forwards for
// its delay, then joins the repair queue (unless already queued, or the
// queue is full), where the NTM drops it if a copy is heard meanwhile
// (unless the controller wants it sent anyway: a named relay).
#include <algorithm>

#include "engine/node_impl.h"

namespace dissem::engine {

void NodeImpl::offer_to_forwarding(const MessageMeta& meta, std::uint32_t offset, std::uint32_t length,
                                   bool subscribed, const ArrivedFrom& from, Micros now) {
  if (silent) return;  // EMCON: nothing to rebroadcast (node_emcon.cpp)
  const auto decision = forwarding->on_new_fragment(
      controllers::ReceivedFragment{meta, offset, length, from.hops, subscribed, from.transmitter, from.repair}, view,
      now, rng);
  if (!decision.forward) return;
  queues.forwards.emplace(now + std::max<Micros>(decision.delay, 0),
                          QueuedFragment{FragmentKey{meta.id, offset}, from.hops + 1, FragmentOrigin::Forward, now,
                                         length, !decision.yield_to_copies});
  ++stats.forwards_queued;
}

void NodeImpl::release_due_forwards(Micros now) {
  while (!queues.forwards.empty() && queues.forwards.begin()->first <= now) {
    QueuedFragment f = queues.forwards.begin()->second;
    queues.forwards.erase(queues.forwards.begin());
    if (queues.repair_keys.contains(f.key) || queues.repairs.size() >= config.max_queued_datagrams) continue;
    queues.repair_keys.insert(f.key);
    queues.repairs.push(tracker.priority_of(f.key.message), f);
  }
}

}  // namespace dissem::engine
