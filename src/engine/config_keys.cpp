#include "engine/config_keys.h"

#include <charconv>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace dissem::engine {
namespace {

template <typename T>
T parse_number(const std::string& key, const std::string& text, T lo, T hi) {
  T v{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || ptr != end || text.empty() || v != v)  // v != v: NaN
    throw ConfigError("config key '" + key + "': '" + text + "' is not a valid number");
  if (v < lo || v > hi) {
    std::ostringstream os;
    os << "config key '" << key << "': " << text << " is out of range [" << lo << ", " << hi << "]";
    throw ConfigError(os.str());
  }
  return v;
}

bool parse_bool(const std::string& key, const std::string& text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  throw ConfigError("config key '" + key + "': '" + text + "' is not true or false");
}

struct Field {
  std::function<void(EngineConfig&, const std::string& key, const std::string&)> set;
  std::function<std::string(const EngineConfig&)> get;
};

// Shortest text that reads back to the same value (print-config round-trips).
template <typename T>
std::string exact_text(T v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, ptr) : std::string();
}

template <typename T>
Field number(T EngineConfig::*member, T lo, T hi) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) { c.*member = parse_number<T>(k, v, lo, hi); },
          [=](const EngineConfig& c) { return exact_text(c.*member); }};
}

// 0 (sized to the link by the host) or a real fragment size.
Field payload_size_field() {
  return {[](EngineConfig& c, const std::string& k, const std::string& v) {
            const auto size = parse_number<std::uint32_t>(k, v, 0, 65000);
            if (size != 0 && size < 64)
              throw ConfigError("config key '" + k + "': " + v + " is out of range: 0 (from the MTU) or [64, 65000]");
            c.payload_size = size;
          },
          [](const EngineConfig& c) { return exact_text(c.payload_size); }};
}

// Durations are given in milliseconds (fractions allowed) and held in Micros.
Field millis(Micros EngineConfig::*member, double lo_ms, double hi_ms) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) {
            c.*member = static_cast<Micros>(parse_number<double>(k, v, lo_ms, hi_ms) * 1000.0);
          },
          [=](const EngineConfig& c) { return exact_text(static_cast<double>(c.*member) / 1000.0); }};
}

// 0 (derived from the link: engine/link_timers.h) or a duration in [lo_ms, hi_ms].
Field derived_millis(Micros EngineConfig::*member, double lo_ms, double hi_ms) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) {
            const double ms = parse_number<double>(k, v, 0.0, hi_ms);
            if (ms != 0.0 && ms < lo_ms)
              throw ConfigError("config key '" + k + "': " + v + " is out of range: 0 (derived from the link) or [" +
                                exact_text(lo_ms) + ", " + exact_text(hi_ms) + "]");
            c.*member = static_cast<Micros>(ms * 1000.0);
          },
          [=](const EngineConfig& c) { return exact_text(static_cast<double>(c.*member) / 1000.0); }};
}

Field flag(bool EngineConfig::*member) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) { c.*member = parse_bool(k, v); },
          [=](const EngineConfig& c) { return std::string(c.*member ? "true" : "false"); }};
}

// A link event threshold (EngineConfig::link_thresholds).
Field link_threshold(double LinkThresholds::*member, double lo, double hi) {
  return {[=](EngineConfig& c, const std::string& k, const std::string& v) {
            c.link_thresholds.*member = parse_number<double>(k, v, lo, hi);
          },
          [=](const EngineConfig& c) { return exact_text(c.link_thresholds.*member); }};
}

const std::map<std::string, Field>& fields() {
  using C = EngineConfig;
  constexpr auto u64max = std::numeric_limits<std::uint64_t>::max();
  static const std::map<std::string, Field> f = {
      {"node_id", number<NodeId>(&C::node_id, 1, std::numeric_limits<NodeId>::max())},
      {"seed", number<std::uint64_t>(&C::seed, 0, u64max)},
      {"link_capacity_bps", number<std::uint64_t>(&C::link_capacity_bps, 50, 100'000'000'000ULL)},
      {"rate_limit_bps", number<std::uint64_t>(&C::rate_limit_bps, 0, 100'000'000'000ULL)},
      {"repair_share", number<double>(&C::repair_share, 0.0, 1.0)},
      {"priority_floor", number<double>(&C::priority_floor, 0.0, 0.5)},
      {"bundle_delay_ms", millis(&C::bundle_delay, 0, 1000)},
      {"send_budget_ms", millis(&C::send_budget, 0, 86'400'000)},
      {"group_send_budget_ms", millis(&C::group_send_budget, 0, 86'400'000)},
      {"per_datagram_overhead", number<std::uint32_t>(&C::per_datagram_overhead, 0, 256)},
      {"payload_size", payload_size_field()},
      {"max_queued_datagrams", number<std::size_t>(&C::max_queued_datagrams, 16, 1'000'000)},
      {"configured_rtt_ms", millis(&C::configured_rtt, 0.1, 60'000)},
      {"request_probability", number<double>(&C::request_probability, 0.01, 1.0)},
      {"traffic_gate_fraction", number<double>(&C::traffic_gate_fraction, 0.0, 100.0)},
      {"serve_gate_fraction", number<double>(&C::serve_gate_fraction, 0.0, 100.0)},
      {"traffic_window_ms", derived_millis(&C::traffic_window, 10, 3'600'000)},
      {"max_backoff_exponent", number<std::uint32_t>(&C::max_backoff_exponent, 0, 16)},
      {"mfr_budget_fraction", number<double>(&C::mfr_budget_fraction, 0.001, 1.0)},
      {"reorder_time_ms", millis(&C::reorder_time, 0, 600'000)},
      {"serve_requests", flag(&C::serve_requests)},
      {"cache_unsubscribed", flag(&C::cache_unsubscribed)},
      {"use_traffic_memory", flag(&C::use_traffic_memory)},
      {"ntm_window_ms", millis(&C::ntm_window, 0, 600'000)},
      {"serve_delay_max_ms", millis(&C::serve_delay_max, 0, 600'000)},
      {"serve_member_share", number<double>(&C::serve_member_share, 0.0, 10.0)},
      {"serve_stranger_share", number<double>(&C::serve_stranger_share, 0.0, 10.0)},
      {"serve_burst_ms", millis(&C::serve_burst, 10, 600'000)},
      {"beacon_interval_ms", derived_millis(&C::beacon_interval, 10, 3'600'000)},
      {"peer_silent_after_ms", derived_millis(&C::peer_silent_after, 10, 86'400'000)},
      {"control_share", number<double>(&C::control_share, 0.001, 0.5)},
      {"max_message_size", number<std::uint32_t>(&C::max_message_size, 1, 1u << 30)},
      {"reassembly_memory", number<std::uint64_t>(&C::reassembly_memory, 0, 1ull << 40)},
      {"max_tracked_messages", number<std::size_t>(&C::max_tracked_messages, 16, 100'000'000)},
      {"hearsay_lifetime_ms", derived_millis(&C::hearsay_lifetime, 100, 86'400'000)},
      {"max_streams", number<std::size_t>(&C::max_streams, 1, 10'000'000)},
      {"max_peers", number<std::size_t>(&C::max_peers, 1, 1'000'000)},
      {"max_request_fragments", number<std::size_t>(&C::max_request_fragments, 1, 1'000'000)},
      {"coding", flag(&C::coding)},
      {"channel_aware", flag(&C::channel_aware)},
      {"channel_share_min", number<double>(&C::channel_share_min, 0.0, 1.0)},
      {"rate_adaptation", flag(&C::rate_adaptation)},
      {"block_symbols", number<std::uint32_t>(&C::block_symbols, 1, 255)},
      {"window_messages", number<std::uint32_t>(&C::window_messages, 0, 64)},
      {"redundancy_min", number<double>(&C::redundancy_min, 0.0, 4.0)},
      {"redundancy_max", number<double>(&C::redundancy_max, 0.0, 4.0)},
      {"redundancy_backlog_ms", millis(&C::redundancy_backlog, 0, 600'000)},
      {"coding_memory", number<std::uint64_t>(&C::coding_memory, 0, 1ull << 40)},
      {"link_rate_window_ms", millis(&C::link_rate_window, 100, 600'000)},
      {"link_loss_threshold", link_threshold(&LinkThresholds::loss, 0.0, 1.0)},
      {"link_loss_hysteresis", link_threshold(&LinkThresholds::loss_hysteresis, 0.0, 1.0)},
      {"link_rate_threshold", link_threshold(&LinkThresholds::rate_bytes_per_s, 0.0, 1e12)},
      {"link_rate_hysteresis", link_threshold(&LinkThresholds::rate_hysteresis, 0.0, 0.95)},
  };
  return f;
}

}  // namespace

void set_config_value(EngineConfig& config, const std::string& key, const std::string& value) {
  auto it = fields().find(key);
  if (it == fields().end()) throw ConfigError("unknown config key '" + key + "'");
  it->second.set(config, key, value);
}

void apply_config_assignment(EngineConfig& config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("'" + assignment + "' is not of the form key=value");
  set_config_value(config, assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::vector<std::pair<std::string, std::string>> describe_config(const EngineConfig& config) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [k, f] : fields()) out.emplace_back(k, f.get(config));
  return out;
}

}  // namespace dissem::engine
