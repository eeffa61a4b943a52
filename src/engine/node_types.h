// What goes into and comes out of a Node: the requests of its API, the
// datagrams, deliveries and events it hands its host, and the errors a
// publication can meet. The public API is engine/node.h, which includes this;
// the engine's own parts include only this, for the types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/types.h"
#include "engine/link_watch.h"
#include "engine/stats.h"

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
  // Silent (EMCON for one group): this subscription never makes the node
  // transmit: no requests, no interest advertised, no summary naming the
  // group. It gets what the first pass and others' repairs bring.
  bool silent = false;
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

// What became of a message offered to Node::carry.
enum class CarryOutcome {
  Carried,  // stored, and queued for a first pass into this node's network
  Held,     // this node holds it (or settled it) already
  TooLate,  // it would expire before this link could send it (or has expired)
  Refused,  // our own id, a body that does not match its meta, or the cache cannot write
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
  // applications that watch links. ClockSkew: `peer`'s clock is
  // `clock_offset` ahead of ours (negative: behind), past
  // engine.max_clock_skew_ms (clock_offset.h); once per peer until its offset
  // comes back under half the limit.
  enum class Kind {
    PeerAppeared,
    PeerSilent,
    MessageSkipped,
    MessageEvicted,
    MessageRejected,
    ForgedOwnData,
    LinkChanged,
    EndedClaimContested,
    DataRefusedAsEnded,
    ClockSkew,
    CacheWriteFailed,  // the cache refused a write (detail: why); the node pauses (cache_outage.h)
    CacheResumed,      // a write went through again
    ClockStepped       // the system clock stepped (wall_clock.h; detail, clock_offset: the step)
  };
  Kind kind;
  NodeId peer = 0;      // PeerAppeared, PeerSilent, LinkChanged, EndedClaimContested, DataRefusedAsEnded, ClockSkew
  MessageId message;    // MessageSkipped (ordered delivery gave up), MessageEvicted, MessageRejected, ForgedOwnData
  LinkEvent link{};     // LinkChanged
  Micros clock_offset = 0;  // ClockSkew; ClockStepped: the system clock minus our wall time
  std::string detail{};     // CacheWriteFailed: the cache's error; ClockStepped: what was done
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

}  // namespace dissem::engine
