#include "daemon/daemon_config.h"

#include "daemon/key_files.h"
#include "ipc/socket_file.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace dissem::daemon {

std::string_view to_string(NetMode mode) { return mode == NetMode::Broadcast ? "broadcast" : "multicast"; }

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warn: return "warn";
    case LogLevel::Info: return "info";
    case LogLevel::Debug: return "debug";
  }
  return "info";
}

engine::EngineConfig daemon_engine_defaults() {
  engine::EngineConfig e;
  e.seed = 0;
  e.payload_size = 0;  // sized to the interfaces' MTU at start-up
  return e;
}

bool operator==(const DaemonConfig& a, const DaemonConfig& b) {
  return a.node == b.node && a.net == b.net && a.cache == b.cache && a.ipc == b.ipc && a.metrics == b.metrics &&
         a.log == b.log &&
         a.security == b.security &&
         engine::describe_config(a.engine) == engine::describe_config(b.engine) &&
         a.engine.controllers == b.engine.controllers;
}

RuntimeEnvironment RuntimeEnvironment::current() {
  RuntimeEnvironment env;
  env.uid = static_cast<std::uint32_t>(::geteuid());
  env.root = env.uid == 0;
  if (const char* xdg = std::getenv("XDG_RUNTIME_DIR")) env.xdg_runtime_dir = xdg;
  return env;
}

DaemonConfig default_config(const RuntimeEnvironment& env) {
  DaemonConfig config;
  // The socket follows the rule the clients use too (ipc/socket_file.h).
  const std::string dir = ipc::default_runtime_dir(env.root, env.xdg_runtime_dir, env.uid);
  config.ipc.socket = dir + "/dissemd.sock";
  // The cache is state, not runtime: root keeps it under /var/lib.
  config.cache.path = env.root ? "/var/lib/dissem/cache.db" : dir + "/cache.db";
  return config;
}

std::uint32_t payload_for_mtu(std::uint32_t mtu, bool keyed) {
  constexpr std::uint32_t kMin = 64;
  constexpr std::uint32_t kMax = 65000;
  const std::uint32_t reserve = kDatagramReserve + (keyed ? kSecurityReserve : 0);
  if (mtu < reserve + kMin) return kMin;
  return std::min(mtu - reserve, kMax);
}

LinkSettings NetSection::link(const std::string& name) const {
  LinkSettings out{mode, group, port, ttl};
  const auto it = interface_links.find(name);
  if (it == interface_links.end()) return out;
  const InterfaceLink& own = it->second;
  if (own.mode) out.mode = *own.mode;
  if (own.group) out.group = *own.group;
  if (own.port) out.port = *own.port;
  if (own.ttl) out.ttl = *own.ttl;
  return out;
}

bool NetSection::separate(const std::string& name) const {
  const auto it = interface_links.find(name);
  return it != interface_links.end() && it->second.link_capacity_bps.has_value();
}

engine::SecurityConfig load_security(const SecuritySection& section) {
  engine::SecurityConfig out;
  if (!section.network_key_file.empty())
    out.network = read_network_keys(section.network_key_file, "security.network_key_file");
  for (const auto& g : section.group_keys)
    out.groups.emplace(g.group, read_group_keys(g.group, g.prefix, "security.group_keys"));
  out.send_from = section.send_from;
  out.revoked_epochs = section.revoked_epochs;
  out.revoked_publishers.insert(section.revoked_publishers.begin(), section.revoked_publishers.end());
  if (const auto why = engine::security_problem(out); !why.empty()) throw ConfigError("security.revoked_epochs: " + why);
  return out;
}

engine::EngineConfig engine_config_for(const DaemonConfig& config, NodeId node_id, std::uint64_t fresh_seed,
                                       std::uint32_t smallest_mtu) {
  if (node_id == 0) throw ConfigError("node id 0 is reserved: pass the configured or generated id");
  engine::EngineConfig e = config.engine;
  e.node_id = node_id;
  if (e.seed == 0) e.seed = fresh_seed;
  engine::SecurityConfig loaded = load_security(config.security);  // revocations hold in an open network too
  loaded.replay_window_us = e.security.replay_window_us;
  e.security = std::move(loaded);
  if (e.payload_size == 0) e.payload_size = payload_for_mtu(smallest_mtu, !e.security.empty());
  return e;
}

cache::StoreOptions store_options(const DaemonConfig& config) {
  cache::StoreOptions options;
  options.quota_bytes = config.cache.quota_bytes;
  options.sync_full = config.cache.sync_full;
  options.payload_file_min_bytes = config.cache.payload_file_min_bytes;
  return options;
}

}  // namespace dissem::daemon
