// Blocking C++ client for the local dissemd API (proto/ipc.proto).
//
//   dissem::client::Client c("/run/dissem/dissemd.sock");
//   auto sub = c.subscribe("news");
//   c.publish("news", bytes);                    // returns once durable
//   while (auto d = c.next_delivery(1s)) use(*d);
//
// Each request call sends one frame and waits for its response. Deliveries
// and events the daemon pushes meanwhile are queued, not lost, and handed
// out by next_delivery() / next_event(). The queues are unbounded on this
// side: an application that never calls next_delivery() while subscribed
// grows them (the daemon, in turn, closes a connection that stops reading).
//
// Errors: a request the daemon refuses throws RequestError and leaves the
// connection usable; I/O failure, a timeout, the daemon closing the
// connection or a protocol violation throws ConnectionError and leaves the
// client disconnected.
//
// Not thread-safe: use one Client per thread, or serialise calls.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/node.h"
#include "core/types.h"
#include "ipc/backend.h"

namespace dissem::client {

class ConnectionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Mirrors ipc.Error.Code.
enum class ErrorCode { Unspecified, Rejected, Failed, MalformedFrame, FrameTooLarge, UnknownRequest, QueueFull };

class RequestError : public std::runtime_error {
 public:
  RequestError(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

class Client {
 public:
  Client();
  // Connects at once (see connect()).
  explicit Client(const std::string& socket_path);
  ~Client();
  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;

  // Throws ConnectionError if nobody listens on `socket_path`.
  void connect(const std::string& socket_path);
  bool connected() const;
  void close();

  // How long a request waits for its response (default 60 s; publishing a
  // large message takes the daemon a while to make durable).
  void set_request_timeout(std::chrono::milliseconds timeout);
  // Flow control: when the daemon's send queue has no room (its byte
  // budget, engine.send_budget_ms), publish() waits for room up to this
  // long, asking again with backoff (5 ms doubling to 200 ms), then throws
  // RequestError with ErrorCode::QueueFull. 0 fails at once. Default 60 s.
  void set_publish_wait(std::chrono::milliseconds limit);

  MessageId publish(const std::string& group, std::span<const std::uint8_t> payload, std::uint32_t priority = 0);
  // Every option: expiry or lifetime, history window, tag, replace.
  MessageId publish(const engine::PublishRequest& request);
  // Cancels this node's messages by number and/or tag; returns the id of
  // the cancel message that carries the cancellation to other nodes.
  MessageId cancel(const engine::CancelRequest& request);

  engine::SubscriptionId subscribe(const std::string& group, bool reliable = true, bool ordered = false,
                                   std::uint32_t history = 0);
  engine::SubscriptionId subscribe(const std::string& group, const engine::SubscriptionOptions& options);
  void unsubscribe(engine::SubscriptionId id);
  // Durable subscriptions (SubscriptionOptions::name): `message` was handled.
  void acknowledge(engine::SubscriptionId id, const MessageId& message);
  // Ends a durable subscription; false if there was none by that name.
  bool delete_subscription(const std::string& name);
  void request_history(const std::string& group, std::uint32_t count);

  // A message held whole in the daemon's cache (Delivery::subscription 0);
  // nullopt if it is not held whole there.
  std::optional<engine::Delivery> get(const MessageId& id);
  // Cached messages of a group; `truncated` (if given) tells whether more
  // matched than request.limit.
  std::vector<engine::CachedMessage> list(const engine::ListRequest& request, bool* truncated = nullptr);

  ipc::StatsSnapshot stats();
  // Neighbours and their links: last heard, loss each way, RTT, rates.
  std::vector<ipc::PeerInfo> peers();
  // From now on the daemon pushes link events (a neighbour appeared, fell
  // silent, or its loss or received rate crossed a threshold), starting
  // with every current neighbour as appeared; by `thresholds`, or the
  // daemon's engine.link_* when not given. Asking again replaces the
  // thresholds. RequestError (Rejected) names a threshold out of range.
  void watch_links(const std::optional<engine::LinkThresholds>& thresholds = std::nullopt);
  void unwatch_links();
  // Radio silence (EMCON) for the whole node (engine::Node::set_silent):
  // true, and the daemon transmits nothing at all; false ends it.
  void set_silent(bool silent);
  // The daemon reads its configuration and key files again (as on SIGHUP)
  // and applies what can change while running. RequestError (Failed) names
  // the key when it refuses the new configuration: nothing changed then.
  ipc::ReloadReport reload();

  // The oldest pushed delivery (or event), waiting up to `timeout` for one.
  // nullopt on timeout. Throws ConnectionError once the connection is gone
  // and nothing queued remains.
  std::optional<engine::Delivery> next_delivery(std::chrono::milliseconds timeout);
  std::optional<engine::Event> next_event(std::chrono::milliseconds timeout);
  std::optional<ipc::LinkEventInfo> next_link_event(std::chrono::milliseconds timeout);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dissem::client
