// dissem-norm-gateway's configuration: the tables [gateway] [dissem] [norm]
// [bridge] of a TOML file, every key validated and named in errors
// ("norm.port: 70000 is out of range [1, 65535] (gateway.toml:7)"), the
// same keys settable with --set section.key=value, and the whole printed
// back as TOML (--print-config) that parses to the same configuration.
// docs/norm-gateway.example.toml lists every key with its meaning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_error.h"

namespace dissem::norm_gateway {

using ConfigError = dissem::ConfigError;

enum class Direction { Both, NormToDissem, DissemToNorm };

struct GatewayConfig {
  // [gateway]
  std::string name = "norm-gateway";  // the durable subscription's name, in logs
  std::string status_file;            // JSON counters, rewritten every second; "" = none
  std::string log_level = "info";     // error, warn, info, debug
  // [dissem]
  std::string socket = "/run/dissem/dissemd.sock";
  std::string group;  // required
  std::string dissem_domain = "dissem";
  std::uint32_t priority = 0;     // of messages published from NORM
  std::uint32_t lifetime_ms = 0;  // of messages published from NORM; 0 = never expire
  double reconnect_max_s = 5.0;
  // [norm]
  std::string address = "224.1.2.3";
  std::uint16_t port = 6003;
  std::string interface;
  std::uint32_t node_id = 0;  // 0 = NORM takes one from the host's address
  std::string norm_domain = "norm";
  double tx_rate_bps = 1'000'000;
  double grtt_s = 0.1;
  std::uint32_t segment_bytes = 1400;
  std::uint32_t block = 64;
  std::uint32_t parity = 16;
  std::uint32_t auto_parity = 0;
  std::uint64_t tx_buffer_bytes = 16u << 20;
  std::uint64_t rx_buffer_bytes = 16u << 20;
  std::uint32_t tx_cache_objects = 256;
  std::uint32_t ttl = 1;
  bool loopback = false;
  bool sync_all = false;  // norm.sync: "current" or "all"
  // [bridge]
  Direction direction = Direction::Both;
  std::uint32_t holdoff_ms = 0;
  std::uint32_t duplicate_window_s = 60;
  std::uint64_t max_message_bytes = 16u << 20;
  std::uint32_t memory = 65536;
};

// Applies a TOML document. Throws ConfigError naming the key (and the
// source and line) on the first bad or unknown key.
void apply_toml(GatewayConfig& config, std::string_view text, const std::string& source);
void apply_toml_file(GatewayConfig& config, const std::string& path);
// "section.key=value": the value is read as TOML (a bare word as a string).
void apply_assignment(GatewayConfig& config, const std::string& assignment);
// What must hold across keys once everything is applied (group given,
// block + parity <= 255, ...). Throws ConfigError naming the key.
void validate(const GatewayConfig& config);

std::string to_toml(const GatewayConfig& config);
// Every key's full name, in print order.
std::vector<std::string> key_names();

}  // namespace dissem::norm_gateway
