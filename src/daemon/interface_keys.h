// Per-interface link settings: a table [net.interface.NAME] with any of
// mode, group, port and ttl, overriding [net]'s for that interface only, and
// link_capacity_bps (and payload_size), which make it a link of its own
// ("net.interface.wlan0.group" on the command line; a name that is not a
// bare TOML key, such as a VLAN's "eth0.100", is quoted:
// [net.interface."eth0.100"]). The settings themselves are
// daemon_config.h's InterfaceLink.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/daemon_config.h"
#include "daemon/daemon_keys.h"

namespace dissem::daemon {

inline constexpr std::string_view kInterfacePrefix = "net.interface.";

// A multicast group: IPv4 (224.0.0.0/4) or IPv6 of link-local scope
// (ff02::/16, or ffX2::/16 with flags); refused naming `key` otherwise.
std::string multicast_group_value(const std::string& key, const std::string& text);

// "broadcast" or "multicast"; refused naming `key` otherwise.
NetMode net_mode_value(const std::string& key, const std::string& text);

// The type of a "net.interface.NAME.SETTING" key; nullopt for an unknown setting.
std::optional<ValueType> interface_key_type(const std::string& key);
// Sets a "net.interface.NAME.SETTING" key (NAME quoted or bare).
void set_interface_value(DaemonConfig& config, const std::string& key, const std::string& text);
// The per-interface settings that are set, one key each.
std::vector<KeyValue> describe_interface_links(const DaemonConfig& config);

// What the keys alone cannot tell: each table names an interface of
// net.interfaces, and IPv6 groups are used in multicast mode. Throws
// ConfigError naming the key.
void check_interface_links(const NetSection& net);

}  // namespace dissem::daemon
