// What the IPC server needs from the daemon. The server calls every method on
// the thread running its io_context, one request at a time, so an
// implementation that drives the engine on that same thread needs no locks.
//
// Pushing to clients goes the other way: the daemon calls
// IpcServer::deliver / event / broadcast_event.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/node.h"
#include "engine/stats.h"
#include "core/types.h"

namespace dissem::ipc {

// Names one connection to the server; never reused within a server's life.
using ClientId = std::uint64_t;

struct PeerInfo {
  NodeId node = 0;
  Micros last_heard_ago = 0;
  double estimated_loss = 0.0;  // fraction in [0, 1]
  Micros srtt = 0;
  // Link quality (engine::LinkSample): loss each way once measured, rates.
  std::optional<double> loss_in{};
  std::optional<double> loss_out{};
  double received_bytes_per_s = 0;
  double sent_bytes_per_s = 0;
  std::optional<Micros> clock_offset{};  // its clock minus ours, once beacon echoes measured it
  std::string link{};  // heard on the daemon's link of its own on this interface; "" the main link
};

// A neighbour's link event with its figures (proto LinkEvent).
struct LinkEventInfo {
  engine::LinkEvent::Kind kind = engine::LinkEvent::Kind::PeerAppeared;
  PeerInfo peer;
};

// A daemon link of its own (daemon/node_link.h): its node's figures.
struct LinkStats {
  std::string name;  // its interface
  engine::Stats engine;
  std::uint64_t cache_bytes = 0;
  std::uint64_t cache_messages = 0;
};

struct StatsSnapshot {
  engine::Stats engine;  // the main link's node
  std::uint64_t cache_bytes = 0;
  std::uint64_t cache_messages = 0;
  // The daemon process's resident memory now and at its peak (0 where the
  // host cannot tell): what bounded state under hostile traffic is measured by.
  std::uint64_t rss_bytes = 0;
  std::uint64_t peak_rss_bytes = 0;
  std::vector<LinkStats> links;  // the links of their own, if any
};

// A link's figures as a snapshot of their own (no process figures, no links).
inline StatsSnapshot snapshot_of(const LinkStats& link) {
  StatsSnapshot s;
  s.engine = link.engine;
  s.cache_bytes = link.cache_bytes;
  s.cache_messages = link.cache_messages;
  return s;
}

// What a reload took (daemon/config_reload.h): the changed keys now in
// effect, the changed keys that wait for a restart, and the keys now held.
struct ReloadReport {
  std::vector<std::string> applied;
  std::vector<std::string> needs_restart;
  std::string keys;  // "2 network epoch(s), 1 keyed group(s), 1 revoked epoch(s), 0 revoked publisher(s)"
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Throws engine::PublishError (or another std::exception) with a message
  // for bad requests; returns once the message is durable.
  virtual MessageId publish(ClientId client, const engine::PublishRequest& request) = 0;
  // Returns the cancel message's id (engine::Node::cancel).
  virtual MessageId cancel(ClientId client, const engine::CancelRequest& request) = 0;
  virtual engine::SubscriptionId subscribe(ClientId client, const std::string& group,
                                           const engine::SubscriptionOptions& options) = 0;
  virtual void unsubscribe(ClientId client, engine::SubscriptionId id) = 0;
  // Durable subscriptions (engine::Node::acknowledge, delete_subscription).
  virtual void acknowledge(ClientId client, engine::SubscriptionId id, const MessageId& message) = 0;
  virtual bool delete_subscription(ClientId client, const std::string& name) = 0;
  virtual void request_history(ClientId client, const std::string& group, std::uint32_t count) = 0;
  // engine::Node::get and list.
  virtual std::optional<engine::Delivery> get(ClientId client, const MessageId& id) = 0;
  virtual std::vector<engine::CachedMessage> list(ClientId client, const engine::ListRequest& request) = 0;
  virtual StatsSnapshot stats() = 0;
  virtual std::vector<PeerInfo> peers() = 0;
  // From now on `client` gets link events (IpcServer::link_event), by the
  // engine's thresholds or by its own; watch = false stops them. Throws
  // std::invalid_argument naming a threshold out of range.
  virtual void watch_links(ClientId client, bool watch, const std::optional<engine::LinkThresholds>& thresholds) = 0;
  // Radio silence (EMCON) for the whole node: engine::Node::set_silent.
  virtual void set_silent(ClientId client, bool silent) = 0;
  // Reads the configuration and the key files again and applies what can
  // change while running. Throws ConfigError (naming the key) and changes
  // nothing when the new configuration is refused.
  virtual ReloadReport reload(ClientId client) = 0;
  // The connection is gone: drop its subscriptions. Called once per client,
  // never from inside another Backend call or IpcServer::deliver/event.
  virtual void client_closed(ClientId client) = 0;
};

}  // namespace dissem::ipc
