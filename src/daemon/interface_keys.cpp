#include "daemon/interface_keys.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "config/setting_text.h"
#include "engine/config_keys.h"

namespace dissem::daemon {
namespace {

struct InterfaceKey {
  std::string name;     // the interface
  std::string setting;  // mode, group, port, ttl
};

// "net.interface.NAME.SETTING", NAME bare or "quoted" (it may hold dots).
std::optional<InterfaceKey> split(const std::string& key) {
  if (!key.starts_with(kInterfacePrefix)) return std::nullopt;
  const std::string rest = key.substr(kInterfacePrefix.size());
  const auto dot = rest.rfind('.');
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  std::string name = rest.substr(0, dot);
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
  if (name.empty()) return std::nullopt;
  return InterfaceKey{name, rest.substr(dot + 1)};
}

bool bare_key(const std::string& name) {
  return std::all_of(name.begin(), name.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '-'; });
}

// "net.interface.NAME", NAME quoted unless it is a bare TOML key.
std::string table_of(const std::string& name) {
  return std::string(kInterfacePrefix) + (bare_key(name) ? name : "\"" + name + "\"");
}

std::string key_of(const std::string& name, const char* setting) { return table_of(name) + "." + setting; }

}  // namespace

NetMode net_mode_value(const std::string& key, const std::string& text) {
  if (text == "broadcast") return NetMode::Broadcast;
  if (text == "multicast") return NetMode::Multicast;
  refuse(key, "'" + text + "' is not broadcast or multicast");
}

std::string multicast_group_value(const std::string& key, const std::string& text) {
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    if ((ntohl(v4.s_addr) >> 28) != 0xE) refuse(key, "'" + text + "' is not a multicast address (224.0.0.0/4)");
    return text;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) != 1) refuse(key, "'" + text + "' is not an IPv4 or IPv6 address");
  // ff, then flags (any) and scope 2: link-local (RFC 4291 2.7).
  if (v6.s6_addr[0] != 0xff || (v6.s6_addr[1] & 0x0f) != 0x02)
    refuse(key, "'" + text + "' is not an IPv6 multicast group of link-local scope (ff02::/16)");
  return text;
}

std::optional<ValueType> interface_key_type(const std::string& key) {
  const auto k = split(key);
  if (!k) return std::nullopt;
  if (k->setting == "mode" || k->setting == "group") return ValueType::String;
  if (k->setting == "port" || k->setting == "ttl" || k->setting == "link_capacity_bps" || k->setting == "payload_size")
    return ValueType::Integer;
  return std::nullopt;
}

void set_interface_value(DaemonConfig& config, const std::string& key, const std::string& text) {
  const auto k = split(key);
  if (!k || !interface_key_type(key)) throw SettingError::unknown(key);
  InterfaceLink& link = config.net.interface_links[k->name];
  if (k->setting == "mode") link.mode = net_mode_value(key, text);
  if (k->setting == "group") link.group = multicast_group_value(key, text);
  if (k->setting == "port") link.port = parse_number<std::uint16_t>(key, text, 1, 65535);
  if (k->setting == "ttl") link.ttl = parse_number<std::uint32_t>(key, text, 0, 255);
  if (k->setting == "link_capacity_bps" || k->setting == "payload_size") {
    // Checked as the engine's own keys are, and named as this one.
    engine::EngineConfig probe;
    engine::config_key_table().find(k->setting)->field.set(probe, key, text);
    if (k->setting == "link_capacity_bps") link.link_capacity_bps = probe.link_capacity_bps;
    if (k->setting == "payload_size") link.payload_size = probe.payload_size;
  }
}

std::vector<KeyValue> describe_interface_links(const DaemonConfig& config) {
  std::vector<KeyValue> out;
  for (const auto& [name, link] : config.net.interface_links) {
    if (link.mode) out.push_back({key_of(name, "mode"), ValueType::String, std::string(to_string(*link.mode))});
    if (link.group) out.push_back({key_of(name, "group"), ValueType::String, *link.group});
    if (link.port) out.push_back({key_of(name, "port"), ValueType::Integer, std::to_string(*link.port)});
    if (link.ttl) out.push_back({key_of(name, "ttl"), ValueType::Integer, std::to_string(*link.ttl)});
    if (link.link_capacity_bps)
      out.push_back({key_of(name, "link_capacity_bps"), ValueType::Integer, std::to_string(*link.link_capacity_bps)});
    if (link.payload_size)
      out.push_back({key_of(name, "payload_size"), ValueType::Integer, std::to_string(*link.payload_size)});
  }
  return out;
}

void check_interface_links(const NetSection& net) {
  for (const auto& [name, link] : net.interface_links) {
    if (std::find(net.interfaces.begin(), net.interfaces.end(), name) == net.interfaces.end())
      throw ConfigError(table_of(name) + ": '" + name + "' is not one of net.interfaces");
    const bool ipv6_group = link.group && link.group->find(':') != std::string::npos;
    if (ipv6_group && net.link(name).mode == NetMode::Broadcast)
      throw ConfigError(key_of(name, "group") + ": IPv6 has no broadcast: set mode = \"multicast\" for it");
  }
}

}  // namespace dissem::daemon
