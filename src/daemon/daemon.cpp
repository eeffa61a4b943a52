#include "daemon/daemon.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>

#include "daemon/listen_address.h"
#include "daemon/log.h"
#include "daemon/metrics_text.h"
#include "daemon/private_files.h"
#include "daemon/process_memory.h"
#include "ipc/convert_links.h"
#include "net/interface_info.h"

namespace dissem::daemon {
namespace {

constexpr const char* kNodeIdKey = "node_id";
constexpr std::size_t kMaxBurst = 512;  // datagrams sent per pump before yielding to the event loop
constexpr std::size_t kSendBatch = 64;  // datagrams per send_batch (one sendmmsg)

std::uint64_t os_random64() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

NodeId settle_node_id(cache::Store& store, NodeId configured) {
  if (configured != 0) {
    store.set_state(kNodeIdKey, std::to_string(configured));
    store.flush();
    return configured;
  }
  if (auto saved = store.get_state(kNodeIdKey)) {
    NodeId id = 0;
    auto [ptr, ec] = std::from_chars(saved->data(), saved->data() + saved->size(), id);
    if (ec == std::errc{} && id != 0) return id;
  }
  NodeId id = 0;
  while (id == 0) id = static_cast<NodeId>(os_random64());
  store.set_state(kNodeIdKey, std::to_string(id));
  store.flush();
  return id;
}

}  // namespace

Daemon::Daemon(boost::asio::io_context& io, const DaemonConfig& config)
    : io_(io), config_(config), timer_(io) {
  prepare_cache_files(config.cache.path);
  auto store = cache::Store::open(config.cache.path, store_options(config));
  const NodeId id = settle_node_id(*store, config.node.node_id);
  std::uint32_t smallest_mtu = std::numeric_limits<std::uint32_t>::max();
  for (const auto& name : config.net.interfaces) smallest_mtu = std::min(smallest_mtu, net::interface_mtu(name));
  const auto engine_config = engine_config_for(config, id, os_random64(), smallest_mtu);
  node_ = std::make_unique<engine::Node>(engine_config, std::move(store), clock_.now());
  if (node_->silent()) {
    log(LogLevel::Warn, "radio silence (EMCON): this node transmits nothing until `dissem emcon off`{}",
        engine_config.silent ? "" : " (kept from its last run)");
    if (config.net.mode == NetMode::Multicast)
      log(LogLevel::Warn, "radio silence: joining {} makes the kernel send IGMP membership reports; under EMCON set "
                          "net.mode = \"broadcast\"", config.net.group);
  }

  for (const auto& name : config.net.interfaces) {
    net::TransportConfig t;
    t.interface = name;
    t.mode = config.net.mode == NetMode::Broadcast ? net::Mode::Broadcast : net::Mode::Multicast;
    t.group = config.net.group;
    t.port = config.net.port;
    t.ttl = static_cast<int>(config.net.ttl);
    t.socket_buffer_bytes = config.net.socket_buffer_bytes;
    t.offload = config.net.offload;
    transports_.push_back(std::make_unique<net::UdpTransport>(io, t));
  }

  prepare_socket_directory(std::filesystem::path(config.ipc.socket).parent_path());
  ipc::IpcServerConfig ic;
  ic.path = config.ipc.socket;
  ic.mode = config.ipc.mode;
  ipc_ = std::make_unique<ipc::IpcServer>(io, ic, *this);
  if (config.metrics.enabled) {
    std::string why;
    const auto at = parse_listen_address(config.metrics.listen, why);  // checked when the key was read
    if (!at) throw std::runtime_error("metrics.listen: '" + config.metrics.listen + "': " + why);
    metrics_ = std::make_unique<MetricsServer>(io, *at, [this] { return metrics_text(stats(), peers()); });
    log(LogLevel::Info, "metrics: http://{}/metrics", config.metrics.listen);
  }
  log(LogLevel::Info, "node {:08x} on {} interface(s), port {}, fragments of {} bytes, cache {}, socket {}", id,
      transports_.size(), config.net.port, engine_config.payload_size, config.cache.path, config.ipc.socket);
  const auto& c = engine_config.controllers;
  log(LogLevel::Info, "controllers: forwarding {}, replication {}, deletion {}{}{}", c.forwarding, c.replication,
      c.deletion, c.plugin_path.empty() ? "" : ", plugin ", c.plugin_path);
  const auto& keys = engine_config.security;
  if (keys.empty()) {
    log(LogLevel::Info, "open network: no keys configured ([security])");
  } else {
    log(LogLevel::Info, "keys: {} network epoch(s), {} keyed group(s)", keys.network.size(), keys.groups.size());
  }
}

Daemon::~Daemon() { stop(); }

void Daemon::start() {
  for (auto& t : transports_)
    t->start([this](std::span<const std::uint8_t> bytes, const net::Endpoint&) { on_datagram(bytes); },
             [this] { on_burst_end(); });
  pump();
}

void Daemon::stop() {
  if (stopped_) return;
  stopped_ = true;
  timer_.cancel();
  metrics_.reset();
  ipc_->stop();
  transports_.clear();
  node_->store().flush();
  log(LogLevel::Info, "stopped; cache committed");
}

// The transports drop our own looped-back datagrams (TransportConfig::drop_own).
void Daemon::on_datagram(std::span<const std::uint8_t> bytes) {
  if (stopped_) return;
  burst_.push_back(bytes);
}

void Daemon::on_burst_end() {
  if (stopped_ || burst_.empty()) return;
  node_->on_datagrams(burst_, clock_.now());
  burst_.clear();
  pump_later();
}

// Datagrams often arrive in bursts: one pump after the burst, not one per datagram.
void Daemon::pump_later() {
  if (pump_posted_) return;
  pump_posted_ = true;
  boost::asio::post(io_, [this] {
    pump_posted_ = false;
    pump();
  });
}

void Daemon::pump() {
  if (stopped_) return;
  const Micros now = clock_.now();
  // The system clock, a few times a second: the engine's wall time follows
  // it, or slews towards it after a step (engine/wall_clock.h).
  if (now - system_clock_checked_ >= 250 * kMillis) {
    system_clock_checked_ = now;
    node_->on_system_clock(unix_now(), now);
  }
  if (now >= node_->next_deadline()) node_->on_timer(now);
  // The clock is read again for every datagram: at high rates the pacer's
  // next slot is microseconds away, and one reading per pump would send one
  // datagram per event-loop turn. The burst is bounded so received datagrams
  // and IPC requests are not kept waiting behind a long send.
  for (std::size_t budget = kMaxBurst; budget > 0;) {
    const std::size_t wanted = std::min(kSendBatch, budget);
    const std::size_t polled = send_due(wanted);
    if (polled < wanted) break;
    budget -= polled;
  }
  while (auto m = node_->poll_delivery()) {
    auto it = owner_.find(m->subscription);
    if (it != owner_.end()) ipc_->deliver(it->second, m->subscription, *m);
  }
  while (auto e = node_->poll_event()) {
    // Link events go to the clients watching links, by their own watches.
    if (e->kind == engine::Event::Kind::LinkChanged) continue;
    if (e->kind == engine::Event::Kind::ForgedOwnData) {
      log(LogLevel::Warn, "data under this node's id {:08x} that it never published: group '{}' seq {} (forged; "
          "refused; counted in stats integrity.own_id)", e->message.publisher, e->message.group, e->message.seq);
    } else if (e->kind == engine::Event::Kind::EndedClaimContested) {
      log(LogLevel::Warn, "node {:08x} claims our stream '{}' ended below {}: it has not (contested in our beacons; "
          "stats ended.own_contested)", e->peer, e->message.group, e->message.seq);
    } else if (e->kind == engine::Event::Kind::DataRefusedAsEnded) {
      log(LogLevel::Warn, "data of {:08x}/{}/{} refused: node {:08x} claims that stream ended there (stats "
          "ended.fragments_refused; taken back if the publisher contradicts it)", e->message.publisher,
          e->message.group, e->message.seq, e->peer);
    } else if (e->kind == engine::Event::Kind::CacheWriteFailed) {
      log(LogLevel::Error, "the cache cannot write: {}; taking no data until it can (engine.cache_full; tried "
          "again after 1 s, then up to every 30 s; stats cache)", e->detail);
    } else if (e->kind == engine::Event::Kind::ClockStepped) {
      log(LogLevel::Warn, "{} (stats clock; timers and pacing run on the monotonic clock and do not jump)", e->detail);
    } else if (e->kind == engine::Event::Kind::CacheResumed) {
      log(LogLevel::Warn, "the cache writes again: taking data and asking for what is missing");
    } else if (e->kind == engine::Event::Kind::MessageRejected) {
      log(LogLevel::Warn, "message {:08x}/{}/{} failed its integrity check or was contradicted: its data was "
          "dropped and it is fetched again (stats integrity)", e->message.publisher, e->message.group, e->message.seq);
    } else {
      log(LogLevel::Debug, "event {} peer {:08x}", static_cast<int>(e->kind), e->peer);
    }
    ipc_->broadcast_event(*e);
  }
  send_link_events(now);
  arm_timer();
}

std::size_t Daemon::send_due(std::size_t limit) {
  outgoing_.clear();
  outgoing_bytes_.clear();
  while (outgoing_.size() < limit) {
    auto d = node_->poll_datagram(clock_.now());
    if (!d) break;
    outgoing_.push_back(std::move(*d));
  }
  for (const auto& d : outgoing_) outgoing_bytes_.emplace_back(d.bytes);
  if (!outgoing_bytes_.empty())
    for (auto& t : transports_) t->send_batch(outgoing_bytes_);
  return outgoing_.size();
}

// Re-arming cancels and re-registers the wait (syscalls and an aborted
// handler), which per received datagram is a large share of the daemon's
// work: keep the pending wait unless the engine now needs to wake earlier.
void Daemon::arm_timer() {
  const Micros deadline = node_->next_deadline();
  if (armed_for_ != 0 && armed_for_ <= deadline) return;
  const Micros now = clock_.now();
  const Micros wait = std::clamp<Micros>(deadline - now, 0, 10 * kSeconds);
  armed_for_ = now + wait;
  timer_.expires_after(std::chrono::microseconds(wait));
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // cancelled: a newer wait replaced this one
    armed_for_ = 0;
    pump();
  });
}

MessageId Daemon::publish(ipc::ClientId, const engine::PublishRequest& request) {
  // Node::publish commits the message to the cache before it returns: the
  // acknowledgement the IPC server sends next is for a durable message.
  const MessageId id = node_->publish(request, clock_.now());
  pump_later();
  return id;
}

MessageId Daemon::cancel(ipc::ClientId, const engine::CancelRequest& request) {
  const MessageId id = node_->cancel(request, clock_.now());
  pump_later();
  return id;
}

engine::SubscriptionId Daemon::subscribe(ipc::ClientId client, const std::string& group,
                                         const engine::SubscriptionOptions& options) {
  const auto id = node_->subscribe(group, options, clock_.now());
  owner_[id] = client;
  // Cached history is delivered after the acknowledgement has gone out.
  pump_later();
  return id;
}

void Daemon::unsubscribe(ipc::ClientId client, engine::SubscriptionId id) {
  auto it = owner_.find(id);
  if (it == owner_.end() || it->second != client)
    throw std::invalid_argument("subscription " + std::to_string(id) + " is not one of this client's");
  node_->unsubscribe(id, clock_.now());
  owner_.erase(it);
}

void Daemon::acknowledge(ipc::ClientId client, engine::SubscriptionId id, const MessageId& message) {
  auto it = owner_.find(id);
  if (it == owner_.end() || it->second != client)
    throw std::invalid_argument("subscription " + std::to_string(id) + " is not one of this client's");
  node_->acknowledge(id, message, clock_.now());
}

bool Daemon::delete_subscription(ipc::ClientId, const std::string& name) {
  return node_->delete_subscription(name, clock_.now());
}

void Daemon::request_history(ipc::ClientId, const std::string& group, std::uint32_t count) {
  node_->request_history(group, count, clock_.now());
  pump_later();
}

std::optional<engine::Delivery> Daemon::get(ipc::ClientId, const MessageId& id) { return node_->get(id, clock_.now()); }

std::vector<engine::CachedMessage> Daemon::list(ipc::ClientId, const engine::ListRequest& request) {
  return node_->list(request);
}

ipc::StatsSnapshot Daemon::stats() {
  ipc::StatsSnapshot s;
  s.engine = node_->stats();
  s.cache_bytes = node_->store().total_bytes();
  s.cache_messages = node_->store().message_count();
  const ProcessMemory m = process_memory();
  s.rss_bytes = m.rss_bytes;
  s.peak_rss_bytes = m.peak_rss_bytes;
  return s;
}

std::vector<ipc::PeerInfo> Daemon::peers() {
  std::vector<ipc::PeerInfo> out;
  const Micros now = clock_.now();
  for (const auto& link : node_->links(now)) out.push_back(ipc::peer_info(link, now));
  return out;
}

void Daemon::watch_links(ipc::ClientId client, bool watch, const std::optional<engine::LinkThresholds>& thresholds) {
  if (!watch) {
    link_watchers_.forget(client);
    return;
  }
  link_watchers_.watch(client, thresholds.value_or(node_->config().link_thresholds));
  pump_later();  // the neighbours as they are, after the Ok has gone out
}

void Daemon::send_link_events(Micros now) {
  if (!link_watchers_.due(now)) return;
  for (const auto& [client, e] : link_watchers_.evaluate(node_->links(now), now))
    ipc_->link_event(client, ipc::LinkEventInfo{e.kind, ipc::peer_info(e.link, now)});
}

void Daemon::set_silent(ipc::ClientId, bool silent) {
  node_->set_silent(silent, clock_.now());
  pump_later();  // silence ended: the beacon and the requests due now go
}

void Daemon::client_closed(ipc::ClientId client) {
  link_watchers_.forget(client);
  for (auto it = owner_.begin(); it != owner_.end();) {
    if (it->second == client) {
      node_->unsubscribe(it->first, clock_.now());
      it = owner_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace dissem::daemon
