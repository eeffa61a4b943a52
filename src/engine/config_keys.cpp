#include "engine/config_keys.h"

#include <algorithm>
#include <array>
#include <limits>

namespace dissem::engine {
namespace {

using Field = KeyField<EngineConfig>;

// 0 (sized to the link by the host) or a real fragment size.
Field payload_size_field() {
  return {[](EngineConfig& c, const std::string& k, const std::string& v) {
            const auto size = parse_number<std::uint32_t>(k, v, 0, 65000);
            if (size != 0 && size < 64) refuse(k, v + " is out of range: 0 (from the MTU) or [64, 65000]");
            c.payload_size = size;
          },
          [](const EngineConfig& c) { return exact_text(c.payload_size); }};
}

// 0 (derived from the link: engine/link_timers.h) or a duration in [lo_ms, hi_ms].
Field derived_millis_field(Micros EngineConfig::*member, double lo_ms, double hi_ms) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) {
            const double ms = parse_number<double>(k, v, 0.0, hi_ms);
            if (ms != 0.0 && ms < lo_ms)
              refuse(k, v + " is out of range: 0 (derived from the link) or [" + exact_text(lo_ms) + ", " +
                            exact_text(hi_ms) + "]");
            c.*member = static_cast<Micros>(ms * 1000.0);
          },
          [=](const EngineConfig& c) { return millis_text(c.*member); }};
}

// A link event threshold (EngineConfig::link_thresholds).
Field link_threshold(double LinkThresholds::*member, double lo, double hi) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) {
            c.link_thresholds.*member = parse_number<double>(k, v, lo, hi);
          },
          [=](const EngineConfig& c) { return exact_text(c.link_thresholds.*member); }};
}

// What the node does when the cache cannot write (cache_outage.h).
Field cache_full_field() {
  return {[](EngineConfig& c, const std::string& k, const std::string& v) {
            c.cache_full = one_of(k, v, {"pause", "evict"}) == "evict" ? CacheFullPolicy::Evict : CacheFullPolicy::Pause;
          },
          [](const EngineConfig& c) { return std::string(c.cache_full == CacheFullPolicy::Evict ? "evict" : "pause"); }};
}

std::vector<KeyTable<EngineConfig>::Entry> entries() {
  using C = EngineConfig;
  constexpr auto u64max = std::numeric_limits<std::uint64_t>::max();
  return {
      {"node_id", number_field(&C::node_id, 1, std::numeric_limits<NodeId>::max())},
      {"seed", number_field(&C::seed, 0, u64max)},
      {"link_capacity_bps", number_field(&C::link_capacity_bps, 50, 100'000'000'000ULL)},
      {"rate_limit_bps", number_field(&C::rate_limit_bps, 0, 100'000'000'000ULL)},
      {"repair_share", number_field(&C::repair_share, 0.0, 1.0)},
      {"priority_floor", number_field(&C::priority_floor, 0.0, 0.5)},
      {"bundle_delay_ms", millis_field(&C::bundle_delay, 0, 1000)},
      {"send_budget_ms", millis_field(&C::send_budget, 0, 86'400'000)},
      {"group_send_budget_ms", millis_field(&C::group_send_budget, 0, 86'400'000)},
      {"per_datagram_overhead", number_field(&C::per_datagram_overhead, 0, 256)},
      {"payload_size", payload_size_field()},
      {"max_queued_datagrams", number_field(&C::max_queued_datagrams, 16, 1'000'000)},
      {"configured_rtt_ms", millis_field(&C::configured_rtt, 0.1, 60'000)},
      {"request_probability", number_field(&C::request_probability, 0.01, 1.0)},
      {"traffic_gate_fraction", number_field(&C::traffic_gate_fraction, 0.0, 100.0)},
      {"serve_gate_fraction", number_field(&C::serve_gate_fraction, 0.0, 100.0)},
      {"traffic_window_ms", derived_millis_field(&C::traffic_window, 10, 3'600'000)},
      {"max_backoff_exponent", number_field(&C::max_backoff_exponent, 0, 16)},
      {"mfr_budget_fraction", number_field(&C::mfr_budget_fraction, 0.001, 1.0)},
      {"reorder_time_ms", millis_field(&C::reorder_time, 0, 600'000)},
      {"serve_requests", flag_field(&C::serve_requests)},
      {"silent", flag_field(&C::silent)},
      {"cache_unsubscribed", flag_field(&C::cache_unsubscribed)},
      {"cache_full", cache_full_field()},
      {"use_traffic_memory", flag_field(&C::use_traffic_memory)},
      {"ntm_window_ms", millis_field(&C::ntm_window, 0, 600'000)},
      {"serve_delay_max_ms", millis_field(&C::serve_delay_max, 0, 600'000)},
      {"serve_member_share", number_field(&C::serve_member_share, 0.0, 10.0)},
      {"serve_stranger_share", number_field(&C::serve_stranger_share, 0.0, 10.0)},
      {"serve_burst_ms", millis_field(&C::serve_burst, 10, 600'000)},
      {"beacon_interval_ms", derived_millis_field(&C::beacon_interval, 10, 3'600'000)},
      {"peer_silent_after_ms", derived_millis_field(&C::peer_silent_after, 10, 86'400'000)},
      {"max_clock_skew_ms", millis_field(&C::max_clock_skew, 0, 86'400'000)},
      {"control_share", number_field(&C::control_share, 0.001, 0.5)},
      {"max_message_size", number_field(&C::max_message_size, 1, 1u << 30)},
      {"reassembly_memory", number_field(&C::reassembly_memory, 0, 1ull << 40)},
      {"max_tracked_messages", number_field(&C::max_tracked_messages, 16, 100'000'000)},
      {"hearsay_lifetime_ms", derived_millis_field(&C::hearsay_lifetime, 100, 86'400'000)},
      {"max_streams", number_field(&C::max_streams, 1, 10'000'000)},
      {"max_peers", number_field(&C::max_peers, 1, 1'000'000)},
      {"max_request_fragments", number_field(&C::max_request_fragments, 1, 1'000'000)},
      {"coding", flag_field(&C::coding)},
      {"channel_aware", flag_field(&C::channel_aware)},
      {"channel_share_min", number_field(&C::channel_share_min, 0.0, 1.0)},
      {"rate_adaptation", flag_field(&C::rate_adaptation)},
      {"block_symbols", number_field(&C::block_symbols, 1, 255)},
      {"window_messages", number_field(&C::window_messages, 0, 64)},
      {"redundancy_min", number_field(&C::redundancy_min, 0.0, 4.0)},
      {"redundancy_max", number_field(&C::redundancy_max, 0.0, 4.0)},
      {"redundancy_cover", number_field(&C::redundancy_cover, 0.0, 1.0)},
      {"redundancy_backlog_ms", millis_field(&C::redundancy_backlog, 0, 600'000)},
      {"silent_receivers_loss", number_field(&C::silent_receivers_loss, 0.0, 0.9)},
      {"silent_delivery_target", number_field(&C::silent_delivery_target, 0.5, 0.999999)},
      {"coding_memory", number_field(&C::coding_memory, 0, 1ull << 40)},
      {"link_rate_window_ms", millis_field(&C::link_rate_window, 100, 600'000)},
      {"link_loss_threshold", link_threshold(&LinkThresholds::loss, 0.0, 1.0)},
      {"link_loss_hysteresis", link_threshold(&LinkThresholds::loss_hysteresis, 0.0, 1.0)},
      {"link_rate_threshold", link_threshold(&LinkThresholds::rate_bytes_per_s, 0.0, 1e12)},
      {"link_rate_hysteresis", link_threshold(&LinkThresholds::rate_hysteresis, 0.0, 0.95)},
  };
}

}  // namespace

const KeyTable<EngineConfig>& config_key_table() {
  static const KeyTable<EngineConfig> table = [] {
    auto e = entries();
    std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return KeyTable<EngineConfig>(std::move(e));
  }();
  return table;
}

void set_config_value(EngineConfig& config, const std::string& key, const std::string& value) {
  const auto* entry = config_key_table().find(key);
  if (entry == nullptr) throw ConfigError("unknown config key '" + key + "'");
  try {
    entry->field.set(config, key, value);
  } catch (const SettingError& e) {
    throw ConfigError("config key '" + key + "': " + e.reason());
  }
}

void apply_config_assignment(EngineConfig& config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("'" + assignment + "' is not of the form key=value");
  set_config_value(config, assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::vector<std::pair<std::string, std::string>> describe_config(const EngineConfig& config) {
  return config_key_table().describe(config);
}

bool live_config_key(std::string_view key) {
  // Read from the configuration at each use, never derived into state at
  // start-up (checked where each is used): a running node takes them as
  // they come.
  static constexpr std::array<std::string_view, 9> kLive = {
      "request_probability", "traffic_gate_fraction", "serve_gate_fraction", "mfr_budget_fraction",
      "serve_requests",      "use_traffic_memory",    "cache_unsubscribed",  "cache_full",
      "max_clock_skew_ms"};
  return std::find(kLive.begin(), kLive.end(), key) != kLive.end();
}

}  // namespace dissem::engine
