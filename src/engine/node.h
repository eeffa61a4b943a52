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
#include <span>
#include <string>
#include <vector>

#include "cache/store.h"
#include "engine/config.h"
#include "engine/link_watch.h"
#include "engine/stats.h"
#include "core/types.h"

namespace dissem::controllers {
class ForwardingController;
class ReplicationController;
class DeletionController;
}  // namespace dissem::controllers

namespace dissem::engine {

using SubscriptionId = std::uint64_t;

struct SubscriptionOptions {
  bool reliable = true;  // request missing fragments
  bool ordered = false;  // deliver in sequence order per publisher
  // Prior messages to fetch when a publisher is first heard from. With
  // use_publisher_history the header's history_window is used when larger.
  std::uint32_t history = 0;
  bool use_publisher_history = false;
  // Filters: only messages of at least this priority, and (when not empty)
  // only those whose tag is one of `tags`. The others are still fetched
  // and cached (other subscribers and nodes may want them), not delivered;
  // an ordered subscription moves past them.
  std::uint32_t min_priority = 0;
  std::vector<std::string> tags;
  // Durable: a subscription named so outlives its client and the daemon
  // (engine/durable_subscriptions.h). The node keeps fetching its group
  // while no client is attached; the client acknowledges what it has
  // handled, and whoever subscribes under the name again gets every cached
  // message it has not acknowledged, then the rest as they come. Empty:
  // an anonymous subscription, gone with its client.
  std::string name;
};

// What list() gives of a cached message: its metadata (total_length is the
// length on the air: sealed groups add the seal), whether it is whole here,
// and how many of its bytes are held.
struct CachedMessage {
  MessageMeta meta;
  bool complete = false;
  std::uint64_t stored_bytes = 0;
};

// Which cached messages list() returns: one group, optionally one publisher
// and a range of sequence numbers, ascending by (publisher, seq), at most `limit`.
struct ListRequest {
  std::string group;           // "" = every group
  NodeId publisher = 0;        // 0 = every publisher
  std::uint64_t from_seq = 0;  // inclusive; 0 = from the first
  std::uint64_t to_seq = 0;    // inclusive; 0 = to the last
  std::size_t limit = 1000;
  bool incomplete_only = false;  // only messages not yet held whole
};

struct PublishRequest {
  std::string group;
  std::vector<std::uint8_t> payload;
  // Higher is sent first: the send queues are strict between priority
  // levels (first come, first served within one), repairs of a message go
  // at its priority, and EngineConfig::priority_floor keeps a share of the
  // rate for lower levels that wait.
  std::uint32_t priority = 0;
  std::uint64_t expiry_ms = 0;    // absolute Unix milliseconds; 0 = never
  std::uint32_t lifetime_ms = 0;  // or relative to publication (when expiry_ms is 0); 0 = never
  std::uint32_t history_window = 0;
  std::string tag;
  // Supersedes this node's older messages of the group with the same tag
  // (which must not be empty): they leave the send queues and every cache
  // that learns of this one, and are never delivered after it.
  bool replace = false;
};

// Ends this node's own messages of `group` without a replacement: those
// numbered `seqs`, and (when `tag` is not empty) every older one with that
// tag. Goes on the air as a small cancel message (wire `cancel`).
struct CancelRequest {
  std::string group;
  std::vector<std::uint64_t> seqs;
  std::string tag;
  std::uint64_t expiry_ms = 0;  // how long the cancellation itself is kept and served; 0 = never
};

struct OutgoingDatagram {
  std::vector<std::uint8_t> bytes;
  TrafficKind kind = TrafficKind::Data;
};

struct Delivery {
  SubscriptionId subscription = 0;
  MessageMeta meta;
  std::vector<std::uint8_t> payload;
};

struct Event {
  // MessageRejected: data of the message failed its integrity check (or
  // was contradicted too often) and was dropped; it is fetched again.
  // ForgedOwnData: data under this node's id that it never published.
  // Both are raised at most once a second; Stats::integrity counts each.
  // EndedClaimContested: `peer` claimed that this node's own stream
  // (`message`: group, our id, the claimed watermark) ended where it has
  // not; our beacons state the true watermark. DataRefusedAsEnded: data of
  // `message` was refused because `peer` claimed its stream ended there
  // (until the publisher contradicts it). Raised at most once a second.
  // LinkChanged: a neighbour's link crossed an engine.link_* threshold, or
  // appeared or fell silent (link_watch.h); hosts hand these only to the
  // applications that watch links.
  enum class Kind {
    PeerAppeared,
    PeerSilent,
    MessageSkipped,
    MessageEvicted,
    MessageRejected,
    ForgedOwnData,
    LinkChanged,
    EndedClaimContested,
    DataRefusedAsEnded
  };
  Kind kind;
  NodeId peer = 0;      // PeerAppeared, PeerSilent, LinkChanged, EndedClaimContested, DataRefusedAsEnded
  MessageId message;    // MessageSkipped (ordered delivery gave up), MessageEvicted, MessageRejected, ForgedOwnData
  LinkEvent link{};     // LinkChanged
};

class PublishError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The send queue's byte budget (engine.send_budget_ms, group_send_budget_ms)
// has no room for the message now: try again once the link has drained
// some (the client library can wait for room, or fail at once).
class QueueFull : public PublishError {
 public:
  using PublishError::PublishError;
};

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
  // before it (engine/manifest_chain.h). The cheaper per datagram the
  // longer the burst: the receive path speeds up as load grows.
  void on_datagrams(std::span<const std::span<const std::uint8_t>> batch, Micros now);
  void on_timer(Micros now);

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
