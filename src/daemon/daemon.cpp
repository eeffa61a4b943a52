#include "daemon/daemon.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <fmt/format.h>
#include <chrono>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "daemon/interface_wait.h"
#include "daemon/listen_address.h"
#include "daemon/log.h"
#include "daemon/metrics_text.h"
#include "daemon/private_files.h"
#include "daemon/process_memory.h"
#include "ipc/convert_links.h"
#include "net/interface_info.h"

namespace dissem::daemon {
namespace {

constexpr std::size_t kMaxBurst = 512;  // datagrams sent per pump and link before yielding to the event loop
constexpr std::size_t kSendBatch = 64;  // datagrams per send_batch (one sendmmsg)

}  // namespace

Daemon::Daemon(boost::asio::io_context& io, const DaemonConfig& config, ConfigSource reread)
    : io_(io), config_(config), reread_(std::move(reread)), timer_(io) {
  wait_for_interfaces(config.net, net::interface_not_ready);
  links_.push_back(open_link(io, config, std::string(kMainLink), clock_.now()));
  for (const auto& name : own_link_interfaces(config.net)) links_.push_back(open_link(io, config, name, clock_.now()));
  if (links_.size() > 1) {
    std::vector<engine::Node*> nodes;
    for (auto& l : links_) nodes.push_back(l.node.get());
    bridge_ = std::make_unique<LinkBridge>(std::move(nodes));
  }
  const auto& engine_config = main().config();
  // Radio silence holds for the whole host: every link keeps the main one's.
  for (std::size_t i = 1; i < links_.size(); ++i)
    if (links_[i].node->silent() != main().silent()) links_[i].node->set_silent(main().silent(), clock_.now());
  if (main().silent()) {
    log(LogLevel::Warn, "radio silence (EMCON): this node transmits nothing until `dissem emcon off`{}",
        config.engine.silent ? "" : " (kept from its last run)");
    if (config.net.mode == NetMode::Multicast)
      log(LogLevel::Warn, "radio silence: joining {} makes the kernel send IGMP membership reports; under EMCON set "
                          "net.mode = \"broadcast\"", config.net.group);
  }

  prepare_socket_directory(std::filesystem::path(config.ipc.socket).parent_path());
  ipc::IpcServerConfig ic;
  ic.path = config.ipc.socket;
  ic.mode = config.ipc.mode;
  ipc_ = std::make_unique<ipc::IpcServer>(io, ic, *this);
  metrics_ = open_metrics(config.metrics);
  for (const auto& l : links_)
    log(LogLevel::Info, "{} link: {}", links_.size() > 1 ? l.name : std::string("the"), l.described);
  log(LogLevel::Info, "socket {}{}", config.ipc.socket,
      links_.size() > 1 ? "; messages are carried between the links where the other side subscribes" : "");
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

std::unique_ptr<MetricsServer> Daemon::open_metrics(const MetricsSection& metrics) {
  if (!metrics.enabled) return nullptr;
  std::string why;
  const auto at = parse_listen_address(metrics.listen, why);  // checked when the key was read
  if (!at) throw std::runtime_error("metrics.listen: '" + metrics.listen + "': " + why);
  auto server = std::make_unique<MetricsServer>(io_, *at, [this] { return metrics_text(stats(), peers()); });
  log(LogLevel::Info, "metrics: http://{}/metrics", metrics.listen);
  return server;
}

void Daemon::start() {
  for (auto& l : links_)
    for (auto& t : l.transports)
      t->start([this, &l](std::span<const std::uint8_t> bytes, const net::Endpoint&) { on_datagram(l, bytes); },
               [this, &l] { on_burst_end(l); });
  pump();
}

void Daemon::stop() {
  if (stopped_) return;
  stopped_ = true;
  timer_.cancel();
  metrics_.reset();
  ipc_->stop();
  for (auto& l : links_) {
    l.transports.clear();
    l.node->store().flush();
  }
  log(LogLevel::Info, "stopped; cache committed");
}

// The transports drop our own looped-back datagrams (TransportConfig::drop_own).
void Daemon::on_datagram(NodeLink& link, std::span<const std::uint8_t> bytes) {
  if (stopped_) return;
  link.burst.push_back(bytes);
}

void Daemon::on_burst_end(NodeLink& link) {
  if (stopped_ || link.burst.empty()) return;
  link.node->on_datagrams(link.burst, clock_.now());
  link.burst.clear();
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
  // The system clock, a few times a second: the engines' wall time follows
  // it, or slews towards it after a step (engine/wall_clock.h); the bridge
  // follows what each network wants as often.
  const bool quarter = now - system_clock_checked_ >= 250 * kMillis;
  if (quarter) system_clock_checked_ = now;
  for (auto& l : links_) {
    if (quarter) l.node->on_system_clock(unix_now(), now);
    if (now >= l.node->next_deadline()) l.node->on_timer(now);
  }
  if (bridge_ && quarter)
    for (const auto& c : bridge_->refresh(now))
      log(LogLevel::Info, "bridge: {} group '{}' on link {} for the other links{}", c.started ? "hearing" : "no longer hearing",
          c.group, links_[c.link].name, c.started ? " (someone there subscribes)" : "");
  for (std::size_t i = 0; i < links_.size(); ++i) {
    // The clock is read again for every datagram: at high rates the pacer's
    // next slot is microseconds away, and one reading per pump would send
    // one datagram per event-loop turn. The burst is bounded so received
    // datagrams and IPC requests are not kept waiting behind a long send.
    for (std::size_t budget = kMaxBurst; budget > 0;) {
      const std::size_t wanted = std::min(kSendBatch, budget);
      const std::size_t polled = send_due(links_[i], wanted);
      if (polled < wanted) break;
      budget -= polled;
    }
    route_deliveries(i);
    route_events(links_[i]);
  }
  send_link_events(now);
  arm_timer();
}

void Daemon::route_deliveries(std::size_t index) {
  engine::Node& node = *links_[index].node;
  while (auto m = node.poll_delivery()) {
    if (bridge_ && bridge_->on_delivery(index, *m, clock_.now())) continue;  // carried between the links
    auto it = index == 0 ? owner_.find(m->subscription) : owner_.end();
    if (it != owner_.end()) ipc_->deliver(it->second, m->subscription, *m);
  }
}

void Daemon::route_events(NodeLink& link) {
  while (auto e = link.node->poll_event()) {
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
}

std::size_t Daemon::send_due(NodeLink& link, std::size_t limit) {
  outgoing_.clear();
  outgoing_bytes_.clear();
  while (outgoing_.size() < limit) {
    auto d = link.node->poll_datagram(clock_.now());
    if (!d) break;
    outgoing_.push_back(std::move(*d));
  }
  for (const auto& d : outgoing_) outgoing_bytes_.emplace_back(d.bytes);
  if (!outgoing_bytes_.empty())
    for (auto& t : link.transports) t->send_batch(outgoing_bytes_);
  return outgoing_.size();
}

// Re-arming cancels and re-registers the wait (syscalls and an aborted
// handler), which per received datagram is a large share of the daemon's
// work: keep the pending wait unless the engine now needs to wake earlier.
void Daemon::arm_timer() {
  Micros deadline = std::numeric_limits<Micros>::max();
  for (const auto& l : links_) deadline = std::min(deadline, l.node->next_deadline());
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
  const MessageId id = main().publish(request, clock_.now());
  pump_later();
  return id;
}

MessageId Daemon::cancel(ipc::ClientId, const engine::CancelRequest& request) {
  const MessageId id = main().cancel(request, clock_.now());
  pump_later();
  return id;
}

engine::SubscriptionId Daemon::subscribe(ipc::ClientId client, const std::string& group,
                                         const engine::SubscriptionOptions& options) {
  const auto id = main().subscribe(group, options, clock_.now());
  owner_[id] = client;
  group_of_[id] = group;
  update_local_groups();
  // Cached history is delivered after the acknowledgement has gone out.
  pump_later();
  return id;
}

void Daemon::unsubscribe(ipc::ClientId client, engine::SubscriptionId id) {
  auto it = owner_.find(id);
  if (it == owner_.end() || it->second != client)
    throw std::invalid_argument("subscription " + std::to_string(id) + " is not one of this client's");
  main().unsubscribe(id, clock_.now());
  owner_.erase(it);
  group_of_.erase(id);
  update_local_groups();
}

void Daemon::acknowledge(ipc::ClientId client, engine::SubscriptionId id, const MessageId& message) {
  auto it = owner_.find(id);
  if (it == owner_.end() || it->second != client)
    throw std::invalid_argument("subscription " + std::to_string(id) + " is not one of this client's");
  main().acknowledge(id, message, clock_.now());
}

bool Daemon::delete_subscription(ipc::ClientId, const std::string& name) {
  return main().delete_subscription(name, clock_.now());
}

void Daemon::request_history(ipc::ClientId, const std::string& group, std::uint32_t count) {
  main().request_history(group, count, clock_.now());
  pump_later();
}

std::optional<engine::Delivery> Daemon::get(ipc::ClientId, const MessageId& id) { return main().get(id, clock_.now()); }

std::vector<engine::CachedMessage> Daemon::list(ipc::ClientId, const engine::ListRequest& request) {
  return main().list(request);
}

ipc::StatsSnapshot Daemon::stats() {
  ipc::StatsSnapshot s;
  s.engine = main().stats();
  s.cache_bytes = main().store().total_bytes();
  s.cache_messages = main().store().message_count();
  for (std::size_t i = 1; i < links_.size(); ++i) {
    ipc::LinkStats own{links_[i].name, links_[i].node->stats(), links_[i].node->store().total_bytes(),
                       links_[i].node->store().message_count()};
    s.links.push_back(std::move(own));
  }
  const ProcessMemory m = process_memory();
  s.rss_bytes = m.rss_bytes;
  s.peak_rss_bytes = m.peak_rss_bytes;
  return s;
}

std::vector<ipc::PeerInfo> Daemon::peers() {
  std::vector<ipc::PeerInfo> out;
  const Micros now = clock_.now();
  for (const auto& [sample, link] : neighbours(now)) {
    out.push_back(ipc::peer_info(sample, now));
    out.back().link = link;
  }
  return out;
}

void Daemon::watch_links(ipc::ClientId client, bool watch, const std::optional<engine::LinkThresholds>& thresholds) {
  if (!watch) {
    link_watchers_.forget(client);
    return;
  }
  link_watchers_.watch(client, thresholds.value_or(main().config().link_thresholds));
  pump_later();  // the neighbours as they are, after the Ok has gone out
}

void Daemon::send_link_events(Micros now) {
  if (!link_watchers_.due(now)) return;
  std::vector<engine::LinkSample> samples;
  std::unordered_map<NodeId, std::string> on_link;
  for (auto& [sample, link] : neighbours(now)) {
    if (!link.empty()) on_link[sample.node] = link;
    samples.push_back(std::move(sample));
  }
  for (const auto& [client, e] : link_watchers_.evaluate(samples, now)) {
    ipc::PeerInfo peer = ipc::peer_info(e.link, now);
    if (const auto it = on_link.find(peer.node); it != on_link.end()) peer.link = it->second;
    ipc_->link_event(client, ipc::LinkEventInfo{e.kind, std::move(peer)});
  }
}

std::vector<std::pair<engine::LinkSample, std::string>> Daemon::neighbours(Micros now) const {
  std::vector<std::pair<engine::LinkSample, std::string>> out;
  for (std::size_t i = 0; i < links_.size(); ++i)
    for (auto& sample : links_[i].node->links(now)) out.emplace_back(std::move(sample), i > 0 ? links_[i].name : "");
  return out;
}

void Daemon::set_silent(ipc::ClientId, bool silent) {
  for (auto& l : links_) l.node->set_silent(silent, clock_.now());
  pump_later();  // silence ended: the beacon and the requests due now go
}

void Daemon::update_local_groups() {
  if (!bridge_) return;
  std::set<std::string> groups;
  for (const auto& [id, group] : group_of_) groups.insert(group);
  bridge_->set_local_groups(std::move(groups));
}

void Daemon::client_closed(ipc::ClientId client) {
  link_watchers_.forget(client);
  for (auto it = owner_.begin(); it != owner_.end();) {
    if (it->second == client) {
      main().unsubscribe(it->first, clock_.now());
      group_of_.erase(it->first);
      it = owner_.erase(it);
    } else {
      ++it;
    }
  }
  update_local_groups();
}

}  // namespace dissem::daemon
