#include "daemon/daemon_keys.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <sys/un.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>

#include "config/key_table.h"
#include "daemon/interface_keys.h"
#include "daemon/key_files.h"
#include "daemon/listen_address.h"

namespace dissem::daemon {
namespace {

// Largest integer a TOML file can hold, so whatever is printed parses again.
constexpr std::uint64_t kTomlMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
// sun_path holds the path and its terminating NUL.
constexpr std::size_t kMaxSocketPath = sizeof(sockaddr_un{}.sun_path) - 1;

std::string path_value(const std::string& key, const std::string& text) {
  if (text.empty()) refuse(key, "must not be empty");
  return parse_text(key, text);
}

// Names as the kernel allows them (dev_valid_name): up to IFNAMSIZ-1 bytes,
// no '/' or whitespace. ':' stays allowed: getifaddrs names IPv4 aliases
// "eth0:1".
std::vector<std::string> interfaces_value(const std::string& key, const std::string& text) {
  if (text.empty()) refuse(key, "must list at least one item");
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) refuse(key, "'" + text + "' has an empty interface name");
    if (name.size() >= IFNAMSIZ) refuse(key, "interface name '" + name + "' is longer than " + std::to_string(IFNAMSIZ - 1) + " bytes");
    if (std::any_of(name.begin(), name.end(), [](char c) { return c == '/' || c <= ' ' || c == 0x7f; }))
      refuse(key, "interface name '" + name + "' contains '/', a space or a control character");
    if (std::find(out.begin(), out.end(), name) != out.end()) refuse(key, "interface '" + name + "' is listed twice");
    out.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

// "GROUP=PREFIX,GROUP=PREFIX"; "" is none. Prefixes are checked when the
// files are read, at start-up.
std::vector<GroupKeyFiles> group_keys_value(const std::string& key, const std::string& text) {
  std::vector<GroupKeyFiles> out;
  std::size_t start = 0;
  while (!text.empty()) {
    const auto comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto eq = item.find('=');
    if (eq == std::string::npos) refuse(key, "'" + item + "' is not of the form GROUP=PREFIX");
    GroupKeyFiles g{item.substr(0, eq), item.substr(eq + 1)};
    if (g.group.empty()) refuse(key, "'" + item + "' names no group before '='");
    if (const auto problem = group_name_problem(g.group); !problem.empty()) refuse(key, problem);
    if (g.prefix.empty()) refuse(key, "'" + item + "' names no key file prefix after '='");
    if (g.prefix.find('\0') != std::string::npos) refuse(key, "'" + g.group + "': the prefix contains a NUL byte");
    for (const auto& other : out)
      if (other.group == g.group) refuse(key, "group '" + g.group + "' is listed twice");
    out.push_back(std::move(g));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string group_keys_text(const std::vector<GroupKeyFiles>& items) {
  std::string out;
  for (const auto& g : items) out += (out.empty() ? "" : ",") + g.group + "=" + g.prefix;
  return out;
}

// "EPOCH=SECONDS,..." (send_from); "" is none.
std::map<std::uint32_t, std::uint64_t> send_from_value(const std::string& key, const std::string& text) {
  std::map<std::uint32_t, std::uint64_t> out;
  std::size_t start = 0;
  while (!text.empty()) {
    const auto comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto eq = item.find('=');
    const auto epoch = eq == std::string::npos ? std::nullopt : read_whole_number(std::string_view(item).substr(0, eq));
    const auto seconds = eq == std::string::npos ? std::nullopt : read_whole_number(std::string_view(item).substr(eq + 1));
    if (!epoch || *epoch == 0 || *epoch > std::numeric_limits<std::uint32_t>::max() || !seconds)
      refuse(key, "'" + item + "' is not of the form EPOCH=UNIX_SECONDS (epoch 1 or more)");
    if (!out.emplace(static_cast<std::uint32_t>(*epoch), *seconds).second)
      refuse(key, "epoch " + std::to_string(*epoch) + " is listed twice");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string send_from_text(const std::map<std::uint32_t, std::uint64_t>& items) {
  std::string out;
  for (const auto& [epoch, seconds] : items) {
    if (!out.empty()) out += ',';
    out.append(std::to_string(epoch)).append(1, '=').append(std::to_string(seconds));
  }
  return out;
}

// "1,2,0x2a": whole numbers from 1 to `max`, each once, decimal or 0x hex
// (node ids are shown in hex); "" is none.
std::set<std::uint32_t> number_set_value(const std::string& key, const std::string& text, const std::string& what) {
  std::set<std::uint32_t> out;
  std::size_t start = 0;
  while (!text.empty()) {
    const auto comma = text.find(',', start);
    const std::string_view item = std::string_view(text).substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const bool hex = item.starts_with("0x") || item.starts_with("0X");
    const auto n = read_whole_number(hex ? item.substr(2) : item, hex ? 16 : 10);
    if (!n || *n == 0 || *n > std::numeric_limits<std::uint32_t>::max())
      refuse(key, "'" + std::string(item) + "' is not " + what + " (1 to 4294967295, or 0x hex)");
    if (!out.insert(static_cast<std::uint32_t>(*n)).second) refuse(key, std::string(item) + " is listed twice");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string number_set_text(const std::set<std::uint32_t>& items) {
  std::string out;
  for (const auto n : items) out += (out.empty() ? "" : ",") + std::to_string(n);
  return out;
}

// Permission bits are octal by convention, so the value is a string of octal
// digits ("0660"): a TOML integer 660 would silently mean something else.
std::uint32_t mode_value(const std::string& key, const std::string& text) {
  std::uint32_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, 8);
  if (text.empty() || text.size() > 4 || ptr != end || ec != std::errc{})
    refuse(key, "'" + text + "' is not an octal permission mode such as 0660");
  if (v > 0777) refuse(key, "'" + text + "' has bits above 0777");
  return v;
}


using C = DaemonConfig;
using S = std::string;

// A whole number in [lo, hi] (config/setting_text.h).
std::uint64_t whole(const S& key, const S& text, std::uint64_t lo, std::uint64_t hi) {
  return parse_number<std::uint64_t>(key, text, lo, hi);
}

// Info: the TOML type of the key's value.
using Table = KeyTable<DaemonConfig, ValueType>;

Table::Entry entry(std::string name, ValueType type, void (*set)(C&, const S& key, const S& text),
                   std::string (*get)(const C&)) {
  return {std::move(name), {set, get}, type};
}

const Table& daemon_keys() {
  static const Table keys({
      entry("node.node_id", ValueType::Integer,
       [](C& c, const S& k, const S& v) {
         c.node.node_id = static_cast<NodeId>(whole(k, v, 0, std::numeric_limits<NodeId>::max()));
       },
       [](const C& c) { return std::to_string(c.node.node_id); }),

      entry("net.interfaces", ValueType::StringList,
       [](C& c, const S& k, const S& v) { c.net.interfaces = interfaces_value(k, v); },
       [](const C& c) { return join(c.net.interfaces); }),
      entry("net.mode", ValueType::String,
       [](C& c, const S& k, const S& v) { c.net.mode = net_mode_value(k, v); },
       [](const C& c) { return S(to_string(c.net.mode)); }),
      entry("net.group", ValueType::String, [](C& c, const S& k, const S& v) { c.net.group = multicast_group_value(k, v); },
       [](const C& c) { return c.net.group; }),
      entry("net.port", ValueType::Integer,
       [](C& c, const S& k, const S& v) { c.net.port = static_cast<std::uint16_t>(whole(k, v, 1, 65535)); },
       [](const C& c) { return std::to_string(c.net.port); }),
      entry("net.ttl", ValueType::Integer,
       [](C& c, const S& k, const S& v) { c.net.ttl = static_cast<std::uint32_t>(whole(k, v, 0, 255)); },
       [](const C& c) { return std::to_string(c.net.ttl); }),
      entry("net.socket_buffer_bytes", ValueType::Integer,
       [](C& c, const S& k, const S& v) { c.net.socket_buffer_bytes = whole(k, v, 0, 1u << 30); },
       [](const C& c) { return std::to_string(c.net.socket_buffer_bytes); }),
      entry("net.offload", ValueType::Boolean, [](C& c, const S& k, const S& v) { c.net.offload = parse_flag(k, v); },
       [](const C& c) { return S(c.net.offload ? "true" : "false"); }),
      entry("net.interface_wait_s", ValueType::Integer,
       [](C& c, const S& k, const S& v) { c.net.interface_wait_s = static_cast<std::uint32_t>(whole(k, v, 0, 3600)); },
       [](const C& c) { return std::to_string(c.net.interface_wait_s); }),

      entry("cache.path", ValueType::String, [](C& c, const S& k, const S& v) { c.cache.path = path_value(k, v); },
       [](const C& c) { return c.cache.path; }),
      entry("cache.quota_bytes", ValueType::Integer,
       [](C& c, const S& k, const S& v) { c.cache.quota_bytes = whole(k, v, 1, kTomlMax); },
       [](const C& c) { return std::to_string(c.cache.quota_bytes); }),
      entry("cache.sync_full", ValueType::Boolean, [](C& c, const S& k, const S& v) { c.cache.sync_full = parse_flag(k, v); },
       [](const C& c) { return S(c.cache.sync_full ? "true" : "false"); }),
      entry("cache.payload_file_min_bytes", ValueType::Integer,
       [](C& c, const S& k, const S& v) {
         c.cache.payload_file_min_bytes =
             static_cast<std::uint32_t>(whole(k, v, 0, std::numeric_limits<std::uint32_t>::max()));
       },
       [](const C& c) { return std::to_string(c.cache.payload_file_min_bytes); }),

      entry("ipc.socket", ValueType::String,
       [](C& c, const S& k, const S& v) {
         if (v.size() > kMaxSocketPath)
           refuse(k, "'" + v + "' is " + std::to_string(v.size()) + " bytes; a Unix socket path holds at most " +
                       std::to_string(kMaxSocketPath));
         c.ipc.socket = path_value(k, v);
       },
       [](const C& c) { return c.ipc.socket; }),
      entry("ipc.mode", ValueType::String, [](C& c, const S& k, const S& v) { c.ipc.mode = mode_value(k, v); },
       [](const C& c) { return mode_text(c.ipc.mode); }),

      entry("metrics.enabled", ValueType::Boolean,
       [](C& c, const S& k, const S& v) { c.metrics.enabled = parse_flag(k, v); },
       [](const C& c) { return S(c.metrics.enabled ? "true" : "false"); }),
      entry("metrics.listen", ValueType::String,
       [](C& c, const S& k, const S& v) {
         std::string why;
         if (!parse_listen_address(v, why)) refuse(k, "'" + v + "': " + why);
         c.metrics.listen = v;
       },
       [](const C& c) { return c.metrics.listen; }),

      entry("log.level", ValueType::String,
       [](C& c, const S& k, const S& v) {
         if (v == "error") c.log.level = LogLevel::Error;
         else if (v == "warn") c.log.level = LogLevel::Warn;
         else if (v == "info") c.log.level = LogLevel::Info;
         else if (v == "debug") c.log.level = LogLevel::Debug;
         else refuse(k, "'" + v + "' is not error, warn, info or debug");
       },
       [](const C& c) { return S(to_string(c.log.level)); }),

      entry("security.network_key_file", ValueType::String,
       [](C& c, const S& k, const S& v) { c.security.network_key_file = parse_text(k, v); },
       [](const C& c) { return c.security.network_key_file; }),
      entry("security.group_keys", ValueType::StringList,
       [](C& c, const S& k, const S& v) { c.security.group_keys = group_keys_value(k, v); },
       [](const C& c) { return group_keys_text(c.security.group_keys); }),
      entry("security.send_from", ValueType::StringList,
       [](C& c, const S& k, const S& v) { c.security.send_from = send_from_value(k, v); },
       [](const C& c) { return send_from_text(c.security.send_from); }),
      entry("security.revoked_epochs", ValueType::StringList,
       [](C& c, const S& k, const S& v) { c.security.revoked_epochs = number_set_value(k, v, "a key epoch"); },
       [](const C& c) { return number_set_text(c.security.revoked_epochs); }),
      entry("security.revoked_publishers", ValueType::StringList,
       [](C& c, const S& k, const S& v) { c.security.revoked_publishers = number_set_value(k, v, "a node id"); },
       [](const C& c) { return number_set_text(c.security.revoked_publishers); }),
  });
  return keys;
}

constexpr std::string_view kEnginePrefix = "engine.";
constexpr std::string_view kControllersPrefix = "controllers.";

// [controllers] keys are the controllers' own table (controller_settings.h),
// held in the engine configuration; refusals are restated under the full key.
void set_controllers_value(DaemonConfig& config, const std::string& name, const std::string& text) {
  const std::string full = std::string(kControllersPrefix) + name;
  if (!controllers::is_setting(name)) throw SettingError::unknown(full);
  try {
    controllers::set_setting(config.engine.controllers, name, text);
  } catch (const SettingError& e) {
    refuse(full, e.reason());
  }
}

// The engine's table (engine/config_keys.h), node_id aside: the node id is
// set once, as node.node_id.
void set_engine_value(DaemonConfig& config, const std::string& name, const std::string& text) {
  const std::string full = std::string(kEnginePrefix) + name;
  if (name == "node_id") refuse(full, "the node id is set as node.node_id");
  const auto* key = engine::config_key_table().find(name);
  if (key == nullptr) throw SettingError::unknown(full);
  try {
    key->field.set(config.engine, name, text);
  } catch (const SettingError& e) {
    refuse(full, e.reason());
  }
}

// Includes node_id, which set_engine_value refuses with a pointer to node.node_id.
bool is_engine_key(const std::string& name) { return engine::config_key_table().find(name) != nullptr; }

void set_any_value(DaemonConfig& config, const std::string& key, const std::string& text) {
  if (key.starts_with(kInterfacePrefix)) return set_interface_value(config, key, text);
  if (key.rfind(kEnginePrefix, 0) == 0) return set_engine_value(config, key.substr(kEnginePrefix.size()), text);
  if (key.rfind(kControllersPrefix, 0) == 0)
    return set_controllers_value(config, key.substr(kControllersPrefix.size()), text);
  daemon_keys().set(config, key, text);
}

}  // namespace

const std::vector<std::string_view>& section_names() {
  static const std::vector<std::string_view> names = {"node", "net",      "cache",  "ipc",        "metrics",
                                                       "log",  "security", "engine", "controllers"};
  return names;
}

void set_value(DaemonConfig& config, const std::string& key, const std::string& text) {
  try {
    set_any_value(config, key, text);
  } catch (const SettingError& e) {
    throw ConfigError(e.what());
  }
}

void apply_assignment(DaemonConfig& config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("'" + assignment + "' is not of the form section.key=value");
  set_value(config, assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::optional<ValueType> value_type(const std::string& key) {
  if (key.starts_with(kInterfacePrefix)) return interface_key_type(key);
  if (key.rfind(kEnginePrefix, 0) == 0) {
    if (is_engine_key(key.substr(kEnginePrefix.size()))) return ValueType::Scalar;
    return std::nullopt;
  }
  if (key.rfind(kControllersPrefix, 0) == 0) {
    const std::string name = key.substr(kControllersPrefix.size());
    if (!controllers::is_setting(name)) return std::nullopt;
    return controllers::is_text_setting(name) ? ValueType::String : ValueType::Scalar;
  }
  if (const auto* k = daemon_keys().find(key)) return k->info;
  return std::nullopt;
}

std::vector<KeyValue> describe(const DaemonConfig& config) {
  std::vector<KeyValue> out;
  bool interfaces_described = false;
  for (const auto& k : daemon_keys().entries()) {
    // The [net.interface.NAME] tables print within [net], after its keys.
    if (!interfaces_described && !k.name.starts_with("net.") && !out.empty() && out.back().key.starts_with("net.")) {
      for (auto& kv : describe_interface_links(config)) out.push_back(std::move(kv));
      interfaces_described = true;
    }
    out.push_back({k.name, k.info, k.field.get(config)});
  }
  for (const auto& [name, text] : engine::describe_config(config.engine)) {
    if (name == "node_id") continue;
    out.push_back({std::string(kEnginePrefix) + name, ValueType::Scalar, text});
  }
  for (const auto& [name, text] : controllers::describe_settings(config.engine.controllers)) {
    const ValueType type = controllers::is_text_setting(name) ? ValueType::String : ValueType::Scalar;
    out.push_back({std::string(kControllersPrefix) + name, type, text});
  }
  return out;
}

}  // namespace dissem::daemon
