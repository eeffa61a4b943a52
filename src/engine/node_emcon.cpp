// Radio silence (EMCON, as ACP 142 calls it): a node that may not transmit
// at all. While silent:
// - poll_datagram gives nothing, so not one byte leaves (no beacons, no
//   requests, no repairs, no rebroadcasts, no summaries, no pushes);
// - nothing is built for the air: the timers that would build beacons,
//   request rounds, answers and summaries are not run (next_deadline leaves
//   them out, so a silent node does not spin), others' requests are heard
//   (their traffic still gates ours) but not answered, and the forwarding
//   controller is not asked;
// - what arrives is received, decoded, cached and delivered as usual: the
//   publisher's first pass and its proactive redundancy (sized for silent
//   receivers by engine.silent_receivers_loss on the publisher), and others'
//   repairs;
// - our own publications are accepted and cached, and wait in the queue.
// When silence ends, the next beacon goes at once, requests are due again
// without the back-off earlier rounds built up, and the queued
// publications go: ordinary requests fetch what silence left missing.
// Silence outlives a restart: a node told to be silent that crashes or is
// restarted comes back silent (kept in the cache's state table), whatever
// engine.silent says, until it is told otherwise.
// A subscription may be silent on its own (SubscriptionOptions::silent):
// then only that group is never asked for aloud.
#include "engine/node_impl.h"

namespace dissem::engine {
namespace {

const std::string kSilenceKey = "emcon";

}  // namespace

bool NodeImpl::silence_kept() const { return store->get_state(kSilenceKey).has_value(); }

void NodeImpl::set_silent(bool on, Micros now) {
  if (on == silent) return;
  silent = on;
  stats.silent = on;
  if (!on) {
    store->erase_state(kSilenceKey);
    store->flush();  // durable before the caller hears it took effect
    tracker.reset_backoff_all();
    beacons.hasten(now);
    return;
  }
  store->set_state(kSilenceKey, "silent");
  store->flush();
  // What waits for the air but our own first pass is dropped: answers and
  // rebroadcasts would be stale when silence ends, and the others answer
  // meanwhile. Control frames (beacons, requests) are rebuilt then.
  queues.control.clear();
  beacon_pending = false;
  queues.repairs = {};
  queues.repair_keys.clear();
  queues.forwards.clear();
  queues.coded = {};
  queues.windows_pending.clear();
  queues.windows = {};
  repair_server.drop_pending();
}

bool NodeImpl::asks_for_group(const std::string& group) const {
  return subscribers.subscriptions().reliable_aloud(group) || forwarding->relays(group, view);
}

}  // namespace dissem::engine
