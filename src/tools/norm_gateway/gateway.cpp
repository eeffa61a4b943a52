#include "tools/norm_gateway/gateway.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/json.h"

namespace dissem::norm_gateway {
namespace {

Micros wall_now() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int level_of(const std::string& name) {
  return name == "error" ? 0 : name == "warn" ? 1 : name == "info" ? 2 : 3;
}

BridgeSettings bridge_settings(const GatewayConfig& c) {
  BridgeSettings s;
  s.norm_domain = c.norm_domain;
  s.dissem_domain = c.dissem_domain;
  s.norm_to_dissem = c.direction != Direction::DissemToNorm;
  s.dissem_to_norm = c.direction != Direction::NormToDissem;
  s.holdoff = static_cast<Micros>(c.holdoff_ms) * kMillis;
  s.duplicate_window = static_cast<Micros>(c.duplicate_window_s) * kSeconds;
  s.max_message_bytes = c.max_message_bytes;
  s.memory = c.memory;
  return s;
}

constexpr Micros kStatusPeriod = kSeconds;
constexpr Micros kFirstBackoff = 100 * kMillis;
constexpr auto kLoopWait = std::chrono::milliseconds(10);

}  // namespace

#define GW_LOG(level, ...)                                                                     \
  do {                                                                                          \
    if (level_of(config_.log_level) >= (level)) {                                               \
      fmt::print(stderr, "dissem-norm-gateway {}: {}\n", config_.name, fmt::format(__VA_ARGS__)); \
    }                                                                                           \
  } while (false)

Gateway::Gateway(const GatewayConfig& config)
    : config_(config), policy_(bridge_settings(config), std::random_device{}()), norm_(config) {
  norm_handlers_.info = [this](std::span<const std::uint8_t> info) { policy_.norm_info(wall_now(), info); };
  norm_handlers_.object = [this](std::uint32_t sender, std::vector<std::uint8_t> info,
                                 std::vector<std::uint8_t> data) {
    policy_.norm_object(wall_now(), sender, std::move(info), std::move(data));
  };
}

void Gateway::connect_dissem(Micros now) {
  if (dissem_.connected() || now < next_connect_) return;
  try {
    dissem_.connect(config_.socket);
    engine::SubscriptionOptions options;
    options.name = config_.name;  // durable: what arrives while we are away is kept for us
    subscription_ = dissem_.subscribe(config_.group, options);
    reconnect_backoff_ = 0;
    GW_LOG(2, "connected to dissemd at {}, bridging group '{}' with NORM {}/{}", config_.socket, config_.group,
           config_.address, config_.port);
  } catch (const std::exception& e) {
    disconnected(now, e.what());
  }
}

void Gateway::disconnected(Micros now, const char* what) {
  dissem_.close();
  const Micros cap = static_cast<Micros>(config_.reconnect_max_s * 1e6);
  reconnect_backoff_ = std::min(cap, reconnect_backoff_ == 0 ? kFirstBackoff : 2 * reconnect_backoff_);
  next_connect_ = now + reconnect_backoff_;
  ++reconnects_;
  GW_LOG(1, "dissemd at {}: {}; trying again in {:.1f} s", config_.socket, what, static_cast<double>(reconnect_backoff_) / 1e6);
}

void Gateway::pump_dissem(std::chrono::milliseconds wait, Micros now) {
  if (!dissem_.connected()) {
    norm_.pump(wait, norm_handlers_);  // nothing to do on this side: wait on NORM instead
    return;
  }
  try {
    for (auto d = dissem_.next_delivery(wait); d; d = dissem_.next_delivery(std::chrono::milliseconds(0))) {
      const MessageId id = d->meta.id;
      const bool pending = policy_.dissem_delivery(wall_now(), d->meta, std::move(d->payload));
      if (!pending) dissem_.acknowledge(subscription_, id);
    }
  } catch (const client::ConnectionError& e) {
    disconnected(now, e.what());
  } catch (const client::RequestError& e) {
    GW_LOG(1, "dissemd refused an acknowledgement: {}", e.what());
  }
}

void Gateway::send_due(Micros now) {
  for (ToNorm& item : policy_.take_due_norm(now)) {
    const MessageId id = item.id;
    if (!norm_.enqueue(item.info, item.data)) {
      policy_.retry_norm(std::move(item), now + 50 * kMillis);  // NORM's cache is full: soon again
      continue;
    }
    GW_LOG(3, "dissem {}:{} ({} bytes) -> NORM", id.publisher, id.seq, norm_.held_objects());
    if (dissem_.connected()) {
      try {
        dissem_.acknowledge(subscription_, id);
      } catch (const client::ConnectionError& e) {
        disconnected(now, e.what());
      } catch (const client::RequestError&) {
        // A redelivery after reconnecting is recognised and acknowledged then.
      }
    }
  }
  if (config_.holdoff_ms > 0 && policy_.dissem_due(now)) learn_copies_in_flight(now);
  for (ToDissem& item : policy_.take_due_dissem(now)) {
    if (!dissem_.connected()) {
      policy_.retry_dissem(std::move(item), std::max(now, next_connect_) + kFirstBackoff);
      continue;
    }
    engine::PublishRequest request;
    request.group = config_.group;
    request.tag = item.tag;
    request.priority = config_.priority;
    request.lifetime_ms = config_.lifetime_ms;
    request.payload = item.payload;
    try {
      const MessageId id = dissem_.publish(request);
      policy_.set_own_publisher(id.publisher);
      GW_LOG(3, "NORM {} ({} bytes) -> dissem {}:{}", item.tag, item.payload.size(), id.publisher, id.seq);
    } catch (const client::ConnectionError& e) {
      disconnected(now, e.what());
      policy_.retry_dissem(std::move(item), next_connect_ + kFirstBackoff);
    } catch (const client::RequestError& e) {
      ++publish_failures_;
      if (e.code() == client::ErrorCode::QueueFull) {
        policy_.retry_dissem(std::move(item), now + kSeconds);
      } else {
        GW_LOG(0, "dissemd refused a message from NORM ({} bytes): {}", item.payload.size(), e.what());
      }
    }
  }
}

// Before publishing what NORM brought, look at the messages dissemd is still
// receiving: another gateway's copy is known from its first fragment, long
// before it is delivered whole.
void Gateway::learn_copies_in_flight(Micros now) {
  if (!dissem_.connected()) return;
  engine::ListRequest request;
  request.group = config_.group;
  request.incomplete_only = true;
  try {
    for (const engine::CachedMessage& m : dissem_.list(request)) {
      policy_.dissem_copy_seen(now, m.meta.id.publisher, m.meta.tag);
    }
  } catch (const client::ConnectionError& e) {
    disconnected(now, e.what());
  } catch (const client::RequestError& e) {
    GW_LOG(1, "dissemd refused a list request: {}", e.what());
  }
}

std::chrono::milliseconds Gateway::wait_budget(Micros now) const {
  auto wait = kLoopWait;
  if (auto next = policy_.next_deadline()) {
    wait = std::min(wait, std::chrono::milliseconds(std::max<Micros>(0, (*next - now) / kMillis)));
  }
  return wait;
}

void Gateway::write_status(Micros now, bool final) {
  if (config_.status_file.empty() || (!final && now < next_status_)) return;
  next_status_ = now + kStatusPeriod;
  const BridgeCounters& b = policy_.counters();
  const NormCounters& n = norm_.counters();
  Json status;
  status["name"] = config_.name;
  status["group"] = config_.group;
  status["norm_domain"] = config_.norm_domain;
  status["dissem_domain"] = config_.dissem_domain;
  status["unix_s"] = round_to_decimals(static_cast<double>(now) / 1e6, 3);
  status["final"] = final;
  status["dissem_connected"] = dissem_.connected();
  status["norm_node_id"] = norm_.local_node_id();
  status["norm_objects"] = b.norm_objects;
  status["dissem_deliveries"] = b.dissem_deliveries;
  status["to_dissem"] = b.to_dissem;
  status["to_norm"] = b.to_norm;
  status["loops_prevented"] = b.loops_prevented;
  status["duplicates_suppressed"] = b.duplicates_suppressed;
  status["too_large"] = b.too_large;
  status["not_bridged"] = b.not_bridged;
  status["pending"] = policy_.pending();
  status["norm_objects_aborted"] = n.objects_aborted;
  status["norm_objects_unsupported"] = n.objects_unsupported;
  status["norm_objects_sent"] = n.objects_sent;
  status["norm_objects_held"] = norm_.held_objects();
  status["norm_enqueue_refused"] = n.enqueue_refused;
  status["norm_send_errors"] = n.send_errors;
  status["dissem_reconnects"] = reconnects_;
  status["dissem_publish_failures"] = publish_failures_;
  const std::string text = json_text(status) + "\n";
  // Written beside and renamed, so readers never see half a file.
  const std::string tmp = config_.status_file + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out) {
      GW_LOG(1, "cannot write {}", tmp);
      return;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, config_.status_file, ec);
  if (ec) GW_LOG(1, "cannot write {}: {}", config_.status_file, ec.message());
}

int Gateway::run(const std::atomic<bool>& stop) {
  GW_LOG(2, "NORM session {}/{} as node {} ({} domain '{}', dissem domain '{}')", config_.address, config_.port,
         norm_.local_node_id(), "NORM", config_.norm_domain, config_.dissem_domain);
  while (!stop.load()) {
    Micros now = wall_now();
    connect_dissem(now);
    norm_.pump(std::chrono::milliseconds(0), norm_handlers_);
    send_due(now);
    pump_dissem(wait_budget(now), now);
    write_status(wall_now(), false);
  }
  write_status(wall_now(), true);
  const BridgeCounters& b = policy_.counters();
  GW_LOG(2, "stopping: {} NORM objects to dissem, {} dissem messages to NORM, {} loops prevented, {} duplicates "
            "suppressed, {} still pending",
         b.to_dissem, b.to_norm, b.loops_prevented, b.duplicates_suppressed, policy_.pending());
  return 0;
}

}  // namespace dissem::norm_gateway
