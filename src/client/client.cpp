#include "client/client.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>

#include "client/connection.h"
#include "ipc.pb.h"
#include "ipc/convert.h"
#include "ipc/convert_links.h"
#include "ipc/framing.h"

namespace dissem::client {

namespace {

ErrorCode code_from(ipc::Error::Code c) {
  switch (c) {
    case ipc::Error::REJECTED: return ErrorCode::Rejected;
    case ipc::Error::FAILED: return ErrorCode::Failed;
    case ipc::Error::MALFORMED_FRAME: return ErrorCode::MalformedFrame;
    case ipc::Error::FRAME_TOO_LARGE: return ErrorCode::FrameTooLarge;
    case ipc::Error::UNKNOWN_REQUEST: return ErrorCode::UnknownRequest;
    case ipc::Error::QUEUE_FULL: return ErrorCode::QueueFull;
    default: return ErrorCode::Unspecified;
  }
}

}  // namespace

struct Client::Impl {
  std::unique_ptr<Connection> connection;
  std::chrono::milliseconds request_timeout{60'000};
  std::chrono::milliseconds publish_wait{60'000};
  std::uint64_t next_request_id = 1;
  std::deque<engine::Delivery> deliveries;
  std::deque<engine::Event> events;
  std::deque<ipc::LinkEventInfo> link_events;
  // Why the connection ended, for calls made after it did.
  std::string closed_reason = "not connected";

  Connection& live() {
    if (!connection) throw ConnectionError(closed_reason);
    return *connection;
  }

  void drop(const std::string& reason) {
    connection.reset();
    closed_reason = reason;
  }

  // Reads one frame by `deadline` and files it: pushed messages go to their
  // queues, a response is returned. nullopt on timeout or after a push.
  std::optional<ipc::Response> pump(Connection::Clock::time_point deadline) {
    std::optional<std::string> body;
    try {
      body = live().read(deadline);
    } catch (const ConnectionError& e) {
      drop(e.what());
      throw;
    }
    if (!body) return std::nullopt;
    ipc::ServerMessage m;
    if (!m.ParseFromString(*body)) fail_protocol("unparseable frame from dissemd");
    switch (m.kind_case()) {
      case ipc::ServerMessage::kDelivery:
        deliveries.push_back(ipc::from_proto(m.delivery()));
        return std::nullopt;
      case ipc::ServerMessage::kEvent:
        try {
          events.push_back(ipc::from_proto(m.event()));
        } catch (const std::invalid_argument&) {
          // An event kind newer than this library: nothing to hand out.
        }
        return std::nullopt;
      case ipc::ServerMessage::kLinkEvent:
        try {
          link_events.push_back(ipc::from_proto(m.link_event()));
        } catch (const std::invalid_argument&) {
          // A link event kind newer than this library.
        }
        return std::nullopt;
      case ipc::ServerMessage::kResponse:
        if (m.response().request_id() == 0 && m.response().has_error()) {
          // The daemon refused our stream and is closing the connection.
          fail_protocol("dissemd closed the connection: " + m.response().error().message());
        }
        return std::move(*m.mutable_response());
      case ipc::ServerMessage::KIND_NOT_SET:
        break;
    }
    return std::nullopt;  // a message kind newer than this library
  }

  [[noreturn]] void fail_protocol(const std::string& reason) {
    drop(reason);
    throw ConnectionError(reason);
  }

  ipc::Response call(ipc::ClientMessage& request) {
    const std::uint64_t id = next_request_id++;
    request.set_request_id(id);
    const auto deadline = Connection::Clock::now() + request_timeout;
    try {
      live().write(ipc::encode_frame(request), deadline);
    } catch (const ConnectionError& e) {
      drop(e.what());
      throw;
    }
    for (;;) {
      auto response = pump(deadline);
      if (!response) {
        if (Connection::Clock::now() >= deadline) fail_protocol("timed out waiting for dissemd to answer");
        continue;
      }
      if (response->request_id() != id) fail_protocol("dissemd answered a request that was not asked");
      if (response->has_error()) {
        throw RequestError(code_from(response->error().code()), response->error().message());
      }
      return std::move(*response);
    }
  }

  // A request answered with PublishAck (publish, cancel): the message's id.
  // A full send queue is asked again, with backoff, for up to publish_wait;
  // deliveries and events pushed meanwhile are queued by call() as usual.
  MessageId call_for_ack(ipc::ClientMessage& request, const char* what) {
    const auto give_up = Connection::Clock::now() + publish_wait;
    auto pause = std::chrono::milliseconds(5);
    ipc::Response r;
    for (;;) {
      try {
        r = call(request);
        break;
      } catch (const RequestError& e) {
        if (e.code() != ErrorCode::QueueFull || Connection::Clock::now() + pause > give_up) throw;
      }
      const auto until = Connection::Clock::now() + pause;
      while (Connection::Clock::now() < until)  // pushes are read (and queued) while it waits
        if (pump(until)) fail_protocol("dissemd sent a response nobody asked for");
      pause = std::min(pause * 2, std::chrono::milliseconds(200));
    }
    if (!r.has_publish_ack()) fail_protocol(std::string("dissemd answered ") + what + " with something else");
    return MessageId{r.publish_ack().group(), r.publish_ack().publisher(), r.publish_ack().seq()};
  }

  // Shared by next_delivery/next_event: wait until `queue` has an entry.
  template <typename T>
  std::optional<T> next(std::deque<T>& queue, std::chrono::milliseconds timeout) {
    const auto deadline = Connection::Clock::now() + timeout;
    for (;;) {
      if (!queue.empty()) {
        T item = std::move(queue.front());
        queue.pop_front();
        return item;
      }
      if (auto response = pump(deadline)) fail_protocol("dissemd sent a response nobody asked for");
      if (queue.empty() && Connection::Clock::now() >= deadline) return std::nullopt;
    }
  }
};

Client::Client() : impl_(std::make_unique<Impl>()) {}

Client::Client(const std::string& socket_path) : Client() { connect(socket_path); }

Client::~Client() = default;
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;

void Client::connect(const std::string& socket_path) {
  impl_->connection = std::make_unique<Connection>(socket_path);
  impl_->closed_reason.clear();
}

bool Client::connected() const { return impl_->connection != nullptr; }

void Client::close() { impl_->drop("connection closed by the application"); }

void Client::set_request_timeout(std::chrono::milliseconds timeout) { impl_->request_timeout = timeout; }

void Client::set_publish_wait(std::chrono::milliseconds limit) { impl_->publish_wait = limit; }

MessageId Client::publish(const std::string& group, std::span<const std::uint8_t> payload, std::uint32_t priority) {
  ipc::ClientMessage m;
  auto& p = *m.mutable_publish();
  p.set_group(group);
  p.set_payload(payload.data(), payload.size());
  p.set_priority(priority);
  return impl_->call_for_ack(m, "publish");
}

MessageId Client::publish(const engine::PublishRequest& request) {
  ipc::ClientMessage m;
  ipc::to_proto(request, *m.mutable_publish());
  return impl_->call_for_ack(m, "publish");
}

MessageId Client::cancel(const engine::CancelRequest& request) {
  ipc::ClientMessage m;
  ipc::to_proto(request, *m.mutable_cancel());
  return impl_->call_for_ack(m, "cancel");
}

engine::SubscriptionId Client::subscribe(const std::string& group, bool reliable, bool ordered,
                                         std::uint32_t history) {
  engine::SubscriptionOptions o;
  o.reliable = reliable;
  o.ordered = ordered;
  o.history = history;
  return subscribe(group, o);
}

engine::SubscriptionId Client::subscribe(const std::string& group, const engine::SubscriptionOptions& options) {
  ipc::ClientMessage m;
  ipc::to_proto(group, options, *m.mutable_subscribe());
  const ipc::Response r = impl_->call(m);
  if (!r.has_subscribe_ack()) impl_->fail_protocol("dissemd answered subscribe with something else");
  return r.subscribe_ack().subscription_id();
}

void Client::unsubscribe(engine::SubscriptionId id) {
  ipc::ClientMessage m;
  m.mutable_unsubscribe()->set_subscription_id(id);
  impl_->call(m);
}

void Client::acknowledge(engine::SubscriptionId id, const MessageId& message) {
  ipc::ClientMessage m;
  auto& a = *m.mutable_acknowledge();
  a.set_subscription_id(id);
  a.set_group(message.group);
  a.set_publisher(message.publisher);
  a.set_seq(message.seq);
  impl_->call(m);
}

bool Client::delete_subscription(const std::string& name) {
  ipc::ClientMessage m;
  m.mutable_delete_subscription()->set_name(name);
  try {
    impl_->call(m);
    return true;
  } catch (const RequestError& e) {
    if (e.code() == ErrorCode::Rejected) return false;
    throw;
  }
}

void Client::request_history(const std::string& group, std::uint32_t count) {
  ipc::ClientMessage m;
  m.mutable_request_history()->set_group(group);
  m.mutable_request_history()->set_count(count);
  impl_->call(m);
}

std::optional<engine::Delivery> Client::get(const MessageId& id) {
  ipc::ClientMessage m;
  auto& g = *m.mutable_get();
  g.set_group(id.group);
  g.set_publisher(id.publisher);
  g.set_seq(id.seq);
  try {
    const ipc::Response r = impl_->call(m);
    if (!r.has_message()) impl_->fail_protocol("dissemd answered get with something else");
    return ipc::from_proto(r.message());
  } catch (const RequestError& e) {
    if (e.code() == ErrorCode::Rejected) return std::nullopt;  // not held whole there
    throw;
  }
}

std::vector<engine::CachedMessage> Client::list(const engine::ListRequest& request, bool* truncated) {
  ipc::ClientMessage m;
  auto& l = *m.mutable_list();
  l.set_group(request.group);
  l.set_publisher(request.publisher);
  l.set_from_seq(request.from_seq);
  l.set_to_seq(request.to_seq);
  l.set_limit(static_cast<std::uint32_t>(std::min<std::size_t>(request.limit, UINT32_MAX)));
  l.set_incomplete_only(request.incomplete_only);
  const ipc::Response r = impl_->call(m);
  if (!r.has_messages()) impl_->fail_protocol("dissemd answered list with something else");
  std::vector<engine::CachedMessage> out;
  for (const auto& c : r.messages().messages()) out.push_back(ipc::from_proto(c));
  if (truncated != nullptr) *truncated = r.messages().truncated();
  return out;
}

ipc::StatsSnapshot Client::stats() {
  ipc::ClientMessage m;
  m.mutable_get_stats();
  const ipc::Response r = impl_->call(m);
  if (!r.has_stats()) impl_->fail_protocol("dissemd answered get_stats with something else");
  return ipc::from_proto(r.stats());
}

std::vector<ipc::PeerInfo> Client::peers() {
  ipc::ClientMessage m;
  m.mutable_list_peers();
  const ipc::Response r = impl_->call(m);
  if (!r.has_peers()) impl_->fail_protocol("dissemd answered list_peers with something else");
  std::vector<ipc::PeerInfo> out;
  out.reserve(static_cast<std::size_t>(r.peers().peers_size()));
  for (const auto& p : r.peers().peers()) out.push_back(ipc::from_proto(p));
  return out;
}

void Client::watch_links(const std::optional<engine::LinkThresholds>& thresholds) {
  ipc::ClientMessage m;
  auto& w = *m.mutable_watch_links();
  if (thresholds) ipc::to_proto(*thresholds, *w.mutable_thresholds());
  impl_->call(m);
}

void Client::unwatch_links() {
  ipc::ClientMessage m;
  m.mutable_watch_links()->set_stop(true);
  impl_->call(m);
}

void Client::set_silent(bool silent) {
  ipc::ClientMessage m;
  m.mutable_set_silent()->set_silent(silent);
  if (!impl_->call(m).has_ok()) impl_->fail_protocol("dissemd answered set_silent with something else");
}

ipc::ReloadReport Client::reload() {
  ipc::ClientMessage m;
  m.mutable_reload();
  const auto response = impl_->call(m);
  if (!response.has_reloaded()) impl_->fail_protocol("dissemd answered reload with something else");
  const auto& r = response.reloaded();
  return ipc::ReloadReport{{r.applied().begin(), r.applied().end()},
                           {r.needs_restart().begin(), r.needs_restart().end()},
                           r.keys()};
}

std::optional<ipc::LinkEventInfo> Client::next_link_event(std::chrono::milliseconds timeout) {
  if (!impl_->link_events.empty() || impl_->connection) return impl_->next(impl_->link_events, timeout);
  throw ConnectionError(impl_->closed_reason);
}

std::optional<engine::Delivery> Client::next_delivery(std::chrono::milliseconds timeout) {
  if (!impl_->deliveries.empty() || impl_->connection) return impl_->next(impl_->deliveries, timeout);
  throw ConnectionError(impl_->closed_reason);
}

std::optional<engine::Event> Client::next_event(std::chrono::milliseconds timeout) {
  if (!impl_->events.empty() || impl_->connection) return impl_->next(impl_->events, timeout);
  throw ConnectionError(impl_->closed_reason);
}

}  // namespace dissem::client
