// dissemd's core: the asio shell around its engine::Nodes, one per link
// (daemon/node_link.h: the main link, and each interface with a link of its
// own, bridged by daemon/link_bridge.h). It owns the clock, the UDP
// transports, the one timer that follows the engines' next deadline, and
// the IPC server; the protocol itself is all in the engine.
//
// Everything runs on the thread of the io_context, so nothing is locked.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "daemon/daemon_config.h"
#include "daemon/link_bridge.h"
#include "daemon/link_watchers.h"
#include "daemon/metrics_server.h"
#include "daemon/node_clock.h"
#include "daemon/node_link.h"
#include "engine/node.h"
#include "ipc/backend.h"
#include "ipc/ipc_server.h"
#include "net/udp_transport.h"

namespace dissem::daemon {

// Reads the configuration again, as at start-up (the same command line and
// file): what a reload applies. Throws ConfigError naming the key.
using ConfigSource = std::function<DaemonConfig()>;

class Daemon final : public ipc::Backend {
 public:
  // Opens the cache (creating its directory), settles the node id (configured,
  // else the one persisted in the cache, else a new random one that is then
  // persisted), binds the transports and the IPC socket. Throws
  // std::runtime_error (or cache::StoreError) with a message for the operator.
  // `reread`: where reload() gets the configuration (none: reload is refused).
  Daemon(boost::asio::io_context& io, const DaemonConfig& config, ConfigSource reread = {});
  ~Daemon() override;

  void start();
  // Stops timers and sockets and commits the cache. Safe to call twice.
  void stop();

  // The main link's node: this host's applications publish and subscribe there.
  NodeId node_id() const { return main().id(); }
  const engine::Node& node() const { return main(); }
  const ipc::IpcServer& ipc_server() const { return *ipc_; }
  // The metrics endpoint's port; 0 when metrics are off.
  std::uint16_t metrics_port() const { return metrics_ ? metrics_->port() : 0; }

  // ipc::Backend
  MessageId publish(ipc::ClientId client, const engine::PublishRequest& request) override;
  MessageId cancel(ipc::ClientId client, const engine::CancelRequest& request) override;
  engine::SubscriptionId subscribe(ipc::ClientId client, const std::string& group,
                                   const engine::SubscriptionOptions& options) override;
  void unsubscribe(ipc::ClientId client, engine::SubscriptionId id) override;
  void acknowledge(ipc::ClientId client, engine::SubscriptionId id, const MessageId& message) override;
  bool delete_subscription(ipc::ClientId client, const std::string& name) override;
  void request_history(ipc::ClientId client, const std::string& group, std::uint32_t count) override;
  std::optional<engine::Delivery> get(ipc::ClientId client, const MessageId& id) override;
  std::vector<engine::CachedMessage> list(ipc::ClientId client, const engine::ListRequest& request) override;
  ipc::StatsSnapshot stats() override;
  std::vector<ipc::PeerInfo> peers() override;
  void watch_links(ipc::ClientId client, bool watch,
                   const std::optional<engine::LinkThresholds>& thresholds) override;
  void set_silent(ipc::ClientId client, bool silent) override;
  // daemon_reload.cpp (daemon/config_reload.h says what changes); SIGHUP too.
  ipc::ReloadReport reload(ipc::ClientId client) override;
  void client_closed(ipc::ClientId client) override;

 private:
  // Datagrams are collected per burst (the socket's contents at one
  // wake-up) and handed to the engine together at its end; the transport
  // keeps their bytes valid until then, so nothing is copied.
  void on_datagram(NodeLink& link, std::span<const std::uint8_t> bytes);
  void on_burst_end(NodeLink& link);
  // For every link: runs its engine's timer if due, sends what its pacer
  // allows, routes its deliveries (the bridge's, the applications') and
  // events; then re-arms the timer for the earliest deadline.
  void pump();
  void pump_later();
  // Sends what the pacer allows now, up to `limit` datagrams in one batch;
  // returns how many it took from the engine.
  std::size_t send_due(NodeLink& link, std::size_t limit);
  // A link's deliveries (the bridge's, or the applications' on the main
  // link) and events.
  void route_deliveries(std::size_t index);
  void route_events(NodeLink& link);
  // The groups this host's applications subscribe to, for the bridge.
  void update_local_groups();
  engine::Node& main() { return *links_.front().node; }
  const engine::Node& main() const { return *links_.front().node; }
  void arm_timer();
  // Link events to the clients that watch links, when an evaluation is due.
  void send_link_events(Micros now);
  // Every link's neighbours (each is heard on one link only), with the link
  // of its own each is on ("": the main link).
  std::vector<std::pair<engine::LinkSample, std::string>> neighbours(Micros now) const;
  // The metrics endpoint as `metrics` says (off, or listening at its address).
  std::unique_ptr<MetricsServer> open_metrics(const MetricsSection& metrics);

  boost::asio::io_context& io_;
  DaemonConfig config_;  // as running: a reload changes only what it applies
  ConfigSource reread_;
  std::vector<NodeLink> links_;         // [0]: the main link
  std::unique_ptr<LinkBridge> bridge_;  // with links of their own
  std::unique_ptr<ipc::IpcServer> ipc_;
  std::unique_ptr<MetricsServer> metrics_;  // when metrics.enabled
  boost::asio::steady_timer timer_;
  NodeClock clock_;                 // the engine's `now`
  Micros system_clock_checked_ = 0;  // when the system clock was last reported to the engine
  std::unordered_map<engine::SubscriptionId, ipc::ClientId> owner_;
  std::unordered_map<engine::SubscriptionId, std::string> group_of_;  // the applications' subscriptions
  LinkWatchers link_watchers_;
  std::vector<engine::OutgoingDatagram> outgoing_;    // reused: one send batch
  std::vector<std::span<const std::uint8_t>> outgoing_bytes_;
  bool pump_posted_ = false;
  Micros armed_for_ = 0;  // engine deadline the pending timer wait is for; 0 = none
  bool stopped_ = false;
};

}  // namespace dissem::daemon
