// The daemon's local API endpoint: a Unix domain stream socket speaking the
// framed protocol of proto/ipc.proto, one Session per connected application.
//
// Start-up creates the socket's parent directory if missing (0755), removes
// a stale socket file left by a crashed daemon, refuses to start when another
// live server answers on the path, binds, sets the configured mode before
// listening (so no client can connect through laxer permissions), and
// listens. The API has no TCP listener, by design (the daemon's only one is
// the read-only metrics endpoint, daemon/metrics_server.h, off by default).
//
// Requests are served on the io_context's thread by calling the Backend
// synchronously (publish returns once durable, then the ack is queued).
// The daemon pushes deliveries and events with deliver()/event(); each
// client has a bounded outgoing queue (see session.h for the overflow
// policy: the slow client is closed, never the server stalled; a reliable
// subscriber recovers through the daemon's cache when it resubscribes).
//
// All methods must be called from the thread running the io_context. The
// Backend must outlive the server.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>

#include "engine/node.h"
#include "ipc/backend.h"
#include "ipc/framing.h"
#include "ipc/session.h"
#include "ipc/socket_file.h"

namespace dissem::ipc {

struct IpcServerConfig {
  std::string path;
  mode_t mode = 0660;
  std::uint32_t max_frame_bytes = kDefaultMaxFrameBytes;
  std::size_t max_queued_bytes_per_client = std::size_t{64} * 1024 * 1024;
  // All clients' unfinished (and not yet handled) frames together: past it
  // the client whose read crossed the cap is closed. Four largest frames.
  std::size_t max_unfinished_bytes = std::size_t{4} * kDefaultMaxFrameBytes;
  // How long a client being closed for a malformed frame gets to take its
  // Error frame before the connection is cut regardless.
  std::chrono::milliseconds close_linger{2000};
};

class IpcServer final : private SessionOwner {
 public:
  // Binds and listens; throws std::runtime_error / std::system_error when the
  // socket cannot be set up (see above).
  IpcServer(boost::asio::io_context& io, IpcServerConfig config, Backend& backend);
  ~IpcServer() override;
  IpcServer(const IpcServer&) = delete;
  IpcServer& operator=(const IpcServer&) = delete;

  // Stops accepting, closes every client (calling Backend::client_closed for
  // each) and removes the socket file. Idempotent; the destructor calls it.
  void stop();

  // Queue a delivery for subscription `subscription` of `client`. False when
  // that client is gone (closed, dropped for overflow, unknown).
  bool deliver(ClientId client, engine::SubscriptionId subscription, const engine::Delivery& delivery);
  bool event(ClientId client, const engine::Event& event);
  void broadcast_event(const engine::Event& event);
  // A link event for a client that watches links (Backend::watch_links).
  bool link_event(ClientId client, const LinkEventInfo& event);

  std::size_t client_count() const { return sessions_.size(); }
  const IpcServerCounters& counters() const { return counters_; }
  std::size_t unfinished_bytes() const { return unfinished_bytes_; }
  const std::string& path() const { return config_.path; }

 private:
  void accept_next();
  void on_request(Session& session, const ClientMessage& request) override;
  void on_closed(ClientId id) override;
  IpcServerCounters& mutable_counters() override { return counters_; }
  bool charge_unfinished(std::size_t released, std::size_t taken) override;
  Session* find_open(ClientId id);

  boost::asio::io_context& io_;
  IpcServerConfig config_;
  Backend& backend_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  boost::asio::steady_timer accept_retry_;
  FileIdentity socket_identity_;
  std::map<ClientId, std::shared_ptr<Session>> sessions_;
  ClientId next_client_ = 1;
  IpcServerCounters counters_;
  std::size_t unfinished_bytes_ = 0;  // held by all sessions' frame decoders
  bool stopped_ = false;
  // Deferred work (client clean-up posted from on_closed) checks this so it
  // does nothing once the server is gone.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace dissem::ipc
