#include "ipc/ipc_server.h"

#include <utility>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "ipc/convert.h"
#include "ipc/convert_links.h"
#include "ipc/dispatch.h"

namespace dissem::ipc {

namespace asio = boost::asio;
using stream = asio::local::stream_protocol;

namespace {
// After a failed accept (EMFILE, ENOBUFS) wait before retrying, so the loop
// does not spin while the condition lasts.
constexpr std::chrono::milliseconds kAcceptRetry{100};
}  // namespace

IpcServer::IpcServer(asio::io_context& io, IpcServerConfig config, Backend& backend)
    : io_(io), config_(std::move(config)), backend_(backend), acceptor_(io), accept_retry_(io) {
  prepare_socket_path(config_.path);
  acceptor_.open(stream());
  acceptor_.bind(stream::endpoint(config_.path));
  socket_identity_ = identify(config_.path);
  try {
    // Before listen(): until then a connect is refused, so nobody gets in
    // under the umask's permissions.
    set_socket_mode(config_.path, config_.mode);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  } catch (...) {
    acceptor_.close();
    remove_if_same(config_.path, socket_identity_);
    throw;
  }
  accept_next();
}

IpcServer::~IpcServer() { stop(); }

void IpcServer::stop() {
  if (stopped_) return;
  stopped_ = true;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  accept_retry_.cancel();
  auto sessions = std::move(sessions_);
  sessions_.clear();
  for (auto& [id, session] : sessions) {
    session->detach();
    backend_.client_closed(id);
  }
  remove_if_same(config_.path, socket_identity_);
}

void IpcServer::accept_next() {
  acceptor_.async_accept([this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec,
                                                                     stream::socket socket) {
    if (alive.expired() || stopped_) return;
    if (ec) {
      if (ec == asio::error::operation_aborted) return;
      accept_retry_.expires_after(kAcceptRetry);
      accept_retry_.async_wait([this, alive](const boost::system::error_code& wait_ec) {
        if (!wait_ec && !alive.expired() && !stopped_) accept_next();
      });
      return;
    }
    const ClientId id = next_client_++;
    SessionLimits limits;
    limits.max_frame_bytes = config_.max_frame_bytes;
    limits.max_queued_bytes = config_.max_queued_bytes_per_client;
    limits.close_linger = config_.close_linger;
    auto session = std::make_shared<Session>(std::move(socket), id, limits, static_cast<SessionOwner&>(*this));
    sessions_.emplace(id, session);
    counters_.clients_accepted++;
    session->start();
    accept_next();
  });
}

void IpcServer::on_request(Session& session, const ClientMessage& request) {
  ServerMessage reply;
  *reply.mutable_response() = dispatch_request(backend_, session.id(), request);
  // Requests with no kind were refused by the session before reaching here,
  // and dispatch_request's switch covers every kind, so each reply is a
  // normal response (possibly an Error) and the connection stays open.
  session.send(reply);
}

bool IpcServer::charge_unfinished(std::size_t released, std::size_t taken) {
  unfinished_bytes_ = unfinished_bytes_ - std::min(released, unfinished_bytes_) + taken;
  return unfinished_bytes_ <= config_.max_unfinished_bytes;
}

void IpcServer::on_closed(ClientId id) {
  // Deferred: a close can happen inside deliver() (queue overflow) while the
  // daemon iterates its subscriptions, or inside a Backend call; calling
  // Backend::client_closed there would pull state from under the caller.
  asio::post(io_, [this, id, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    if (sessions_.erase(id) != 0) backend_.client_closed(id);
  });
}

Session* IpcServer::find_open(ClientId id) {
  const auto it = sessions_.find(id);
  if (it == sessions_.end() || !it->second->open()) return nullptr;
  return it->second.get();
}

bool IpcServer::deliver(ClientId client, engine::SubscriptionId subscription, const engine::Delivery& delivery) {
  Session* session = find_open(client);
  if (session == nullptr) return false;
  ServerMessage m;
  to_proto(delivery, *m.mutable_delivery());
  m.mutable_delivery()->set_subscription_id(subscription);
  return session->send(m);
}

bool IpcServer::event(ClientId client, const engine::Event& e) {
  Session* session = find_open(client);
  if (session == nullptr) return false;
  ServerMessage m;
  to_proto(e, *m.mutable_event());
  return session->send(m);
}

bool IpcServer::link_event(ClientId client, const LinkEventInfo& e) {
  Session* session = find_open(client);
  if (session == nullptr) return false;
  ServerMessage m;
  to_proto(e, *m.mutable_link_event());
  return session->send(m);
}

void IpcServer::broadcast_event(const engine::Event& e) {
  ServerMessage m;
  to_proto(e, *m.mutable_event());
  // Copy the ids first: a send may close a session (overflow), and although
  // the map entry is only erased later, iterating a snapshot keeps this
  // independent of that detail.
  std::vector<std::shared_ptr<Session>> targets;
  targets.reserve(sessions_.size());
  for (const auto& [id, session] : sessions_) targets.push_back(session);
  for (const auto& session : targets) session->send(m);
}

}  // namespace dissem::ipc
