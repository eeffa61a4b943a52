// The sans-I/O dissemination node: the entry points of the protocol engine.
//
// A host (the asio daemon, the virtual-time simulator, a test) owns sockets
// and clocks and drives a Node like this:
//
//   node.on_datagram(bytes, now)            for every datagram received
//                                           (or on_datagrams for a burst)
//   node.publish(...), node.subscribe(...)  for API calls
//   if (now >= node.next_deadline()) node.on_timer(now)
//   while (auto d = node.poll_datagram(now)) broadcast(d->bytes)
//   while (auto m = node.poll_delivery())    hand m to the subscriber
//   while (auto e = node.poll_event())       report e
//   sleep until node.next_deadline()
//
// The Node never reads a clock or a socket and draws every random number from
// a generator seeded by EngineConfig::seed, so the same inputs at the same
// times produce the same outputs.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "cache/store.h"
#include "engine/config.h"
#include "engine/node_types.h"
#include "engine/stats.h"
#include "core/types.h"

namespace dissem::controllers {
class ForwardingController;
class ReplicationController;
class DeletionController;
}  // namespace dissem::controllers

namespace dissem::engine {

class NodeImpl;

class Node {
 public:
  // Restores completed and partial messages, and the publisher's sequence
  // counters, from `store`.
  Node(const EngineConfig& config, std::unique_ptr<cache::Store> store, Micros now);
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // --- inputs --------------------------------------------------------------
  void on_datagram(std::span<const std::uint8_t> bytes, Micros now);
  // Datagrams read together (a host draining its socket): the same as
  // on_datagram for each in order, except that the signatures of keyed
  // groups are checked newest first, so one check vouches for the messages
  // before it (engine/security/manifest_chain.h). The cheaper per datagram the
  // longer the burst: the receive path speeds up as load grows.
  void on_datagrams(std::span<const std::span<const std::uint8_t>> batch, Micros now);
  void on_timer(Micros now);
  // The host's system clock reads `system_now` at `now`: the node's wall
  // time (expiry, beacon stamps) follows it, or slews towards it after a
  // step (wall_clock.h; a ClockStepped event says which). A host whose `now`
  // is the system clock itself need not call this.
  void on_system_clock(Micros system_now, Micros now);

  // Fragments, stores durably and queues the message. Returns its id once the
  // cache has committed it. Throws PublishError for invalid requests.
  MessageId publish(const PublishRequest& request, Micros now);
  // Returns the id of the cancel message. Throws PublishError when it names
  // nothing (no seqs, no tag), a seq this node has not published, or more
  // ranges than a message may carry.
  MessageId cancel(const CancelRequest& request, Micros now);
  SubscriptionId subscribe(const std::string& group, const SubscriptionOptions& options, Micros now);
  // Ends an anonymous subscription; detaches a durable one (kept, fetching,
  // until delete_subscription).
  void unsubscribe(SubscriptionId id, Micros now);
  // Durable subscriptions: `message` was handled by the subscriber (durable
  // in the cache when this returns). Throws std::invalid_argument if `id` is
  // not a durable subscription.
  void acknowledge(SubscriptionId id, const MessageId& message, Micros now);
  // Forgets a durable subscription and its cursor; false if there is none.
  bool delete_subscription(const std::string& name, Micros now);
  // Radio silence (EMCON): while silent the node transmits nothing at all,
  // and receives, caches and delivers as usual (node_emcon.cpp). Starts
  // silent when EngineConfig::silent says so or when it was silent when it
  // last ran on this cache; set_silent is durable in the cache on return.
  void set_silent(bool silent, Micros now);
  bool silent() const;
  // --- changes while running (node_reconfigure.cpp) ---------------------------
  // New keys, epochs and revocations (security_config.h). What is missing of
  // a publisher revoked now is given up; what is held stays. Throws
  // ConfigError (security_change_problem) and changes nothing when the
  // change needs a restart or leaves nothing to send or verify with.
  void set_security(SecurityConfig next, Micros now);
  // Takes from `next` the tunables a running node can change
  // (live_config_key) where they differ, and returns their keys; the others
  // stay as they are (the host names them as needing a restart).
  std::vector<std::string> reconfigure(const EngineConfig& next);

  // --- a gateway's networks (a node per network; daemon/link_bridge.h) --------
  // Another publisher's message, held whole by the gateway's node on another
  // network (held_whole there: its meta and stored bytes, sealed groups still
  // sealed), carried into this node's network: stored, and sent as a first
  // pass under its own id at its priority, unless it is held here already or
  // would expire before this link could send it (CarryOutcome).
  // `send` false: kept and delivered to local subscriptions only, not sent
  // (this host's applications want it, nobody on this network does).
  CarryOutcome carry(const MessageMeta& meta, const std::vector<std::uint8_t>& stored, bool send, Micros now);
  // A message this node holds whole and unexpired, as carry takes it.
  std::optional<std::pair<MessageMeta, std::vector<std::uint8_t>>> held_whole(const MessageId& id, Micros now);
  // The groups this node's neighbours subscribe to, as they advertise them
  // (subscription-aware forwarding's interest; empty with other controllers).
  std::set<std::string> groups_wanted_by_neighbours() const;

  // Fetch up to `count` messages before the oldest held, per known publisher.
  void request_history(const std::string& group, std::uint32_t count, Micros now);

  // --- the cache ---------------------------------------------------------------
  // A message held whole in the cache, as a subscriber would get it
  // (subscription 0); nullopt if it is not held whole here (or cannot be
  // opened: a sealed group without its key), or is a cancel.
  std::optional<Delivery> get(const MessageId& id, Micros now);
  // Cached messages (whole or partial, cancels included: meta.cancel) matching `request`.
  std::vector<CachedMessage> list(const ListRequest& request);

  // --- outputs -------------------------------------------------------------
  // The next datagram the rate limiter allows at `now`, if any.
  std::optional<OutgoingDatagram> poll_datagram(Micros now);
  std::optional<Delivery> poll_delivery();
  std::optional<Event> poll_event();
  // Earliest time on_timer() or poll_datagram() has work to do.
  Micros next_deadline() const;

  // --- introspection -------------------------------------------------------
  const Stats& stats() const;
  NodeId id() const;
  const EngineConfig& config() const;
  cache::Store& store();
  // Messages still missing bytes that this node wants (subscribed, reliable).
  std::size_t incomplete_wanted() const;

  struct PeerSummary {
    NodeId node = 0;
    Micros last_heard = 0;
    Micros srtt = 0;            // 0 until measured
    double estimated_loss = 0;  // from gaps in its beacon sequence numbers
  };
  std::vector<PeerSummary> peers() const;
  // Every established neighbour's link quality at `now` (link_quality.h):
  // loss both ways, RTT, received and sent rates, last heard.
  std::vector<LinkSample> links(Micros now) const;

  // Controllers are built from EngineConfig::controllers; these replace one
  // (tests, hosts with their own). Must be called before the first input.
  void set_forwarding_controller(std::unique_ptr<controllers::ForwardingController> c);
  void set_replication_controller(std::unique_ptr<controllers::ReplicationController> c);
  void set_deletion_controller(std::unique_ptr<controllers::DeletionController> c);

 private:
  std::unique_ptr<NodeImpl> impl_;
};

}  // namespace dissem::engine
