#include "tools/norm_gateway/gateway_config.h"

#include <arpa/inet.h>
#include <toml++/toml.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "config/toml_input_guard.h"
#include "config/toml_parse.h"
#include "tools/norm_gateway/bridge_origin.h"

namespace dissem::norm_gateway {
namespace {

struct Key {
  std::string section;
  std::string name;
  std::function<void(GatewayConfig&, const toml::node&, const std::string& full)> read;
  std::function<void(const GatewayConfig&, toml::table&)> write;
};

[[noreturn]] void bad(const std::string& key, const std::string& what) { throw ConfigError(key + ": " + what); }

template <typename T>
Key unsigned_key(std::string section, std::string name, T GatewayConfig::*field, std::uint64_t lo, std::uint64_t hi) {
  Key k{section, name, {}, {}};
  k.read = [field, lo, hi](GatewayConfig& c, const toml::node& n, const std::string& full) {
    auto v = n.value_exact<std::int64_t>();
    if (!v) bad(full, "expected an integer");
    if (*v < 0 || static_cast<std::uint64_t>(*v) < lo || static_cast<std::uint64_t>(*v) > hi) {
      bad(full, std::to_string(*v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    c.*field = static_cast<T>(*v);
  };
  k.write = [name, field](const GatewayConfig& c, toml::table& t) {
    t.insert_or_assign(name, static_cast<std::int64_t>(c.*field));
  };
  return k;
}

Key double_key(std::string section, std::string name, double GatewayConfig::*field, double lo, double hi) {
  Key k{section, name, {}, {}};
  k.read = [field, lo, hi](GatewayConfig& c, const toml::node& n, const std::string& full) {
    std::optional<double> v = n.value_exact<double>();
    if (!v) {
      if (auto i = n.value_exact<std::int64_t>()) v = static_cast<double>(*i);
    }
    if (!v) bad(full, "expected a number");
    if (!std::isfinite(*v) || *v < lo || *v > hi) {
      std::ostringstream s;
      s << *v << " is out of range [" << lo << ", " << hi << "]";
      bad(full, s.str());
    }
    c.*field = *v;
  };
  k.write = [name, field](const GatewayConfig& c, toml::table& t) { t.insert_or_assign(name, c.*field); };
  return k;
}

Key bool_key(std::string section, std::string name, bool GatewayConfig::*field) {
  Key k{section, name, {}, {}};
  k.read = [field](GatewayConfig& c, const toml::node& n, const std::string& full) {
    auto v = n.value_exact<bool>();
    if (!v) bad(full, "expected true or false");
    c.*field = *v;
  };
  k.write = [name, field](const GatewayConfig& c, toml::table& t) { t.insert_or_assign(name, c.*field); };
  return k;
}

// `check` returns what is wrong with a value, or "" when it will do.
Key string_key(std::string section, std::string name, std::string GatewayConfig::*field,
               std::function<std::string(const std::string&)> check) {
  Key k{section, name, {}, {}};
  k.read = [field, check](GatewayConfig& c, const toml::node& n, const std::string& full) {
    auto v = n.value_exact<std::string>();
    if (!v) bad(full, "expected a string");
    if (auto problem = check(*v); !problem.empty()) bad(full, "'" + *v + "' " + problem);
    c.*field = *v;
  };
  k.write = [name, field](const GatewayConfig& c, toml::table& t) { t.insert_or_assign(name, c.*field); };
  return k;
}

// A choice among words, stored as something else.
Key choice_key(std::string section, std::string name, std::vector<std::string> words,
               std::function<void(GatewayConfig&, std::size_t)> set,
               std::function<std::size_t(const GatewayConfig&)> get) {
  Key k{section, name, {}, {}};
  k.read = [words, set](GatewayConfig& c, const toml::node& n, const std::string& full) {
    auto v = n.value_exact<std::string>();
    if (!v) bad(full, "expected a string");
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (*v == words[i]) return set(c, i);
    }
    std::string list;
    for (std::size_t i = 0; i < words.size(); ++i) list += (i ? (i + 1 == words.size() ? " or " : ", ") : "") + words[i];
    bad(full, "'" + *v + "' is not " + list);
  };
  k.write = [name, words, get](const GatewayConfig& c, toml::table& t) { t.insert_or_assign(name, words[get(c)]); };
  return k;
}

std::string any_text(const std::string&) { return {}; }
std::string not_empty(const std::string& s) { return s.empty() ? "must not be empty" : ""; }
std::string domain_check(const std::string& s) { return domain_problem(s); }
std::string multicast_check(const std::string& s) {
  in_addr a{};
  if (inet_pton(AF_INET, s.c_str(), &a) != 1) return "is not an IPv4 address";
  return IN_MULTICAST(ntohl(a.s_addr)) ? "" : "is not a multicast address (224.0.0.0/4)";
}
std::string interface_check(const std::string& s) {
  return s.size() > 15 ? "is longer than an interface name can be (15)" : "";
}

const std::vector<Key>& keys() {
  using C = GatewayConfig;
  constexpr std::uint64_t u32 = std::numeric_limits<std::uint32_t>::max();
  static const std::vector<Key> table = {
      string_key("gateway", "name", &C::name, domain_check),
      string_key("gateway", "status_file", &C::status_file, any_text),
      choice_key("gateway", "log_level", {"error", "warn", "info", "debug"},
                 [](C& c, std::size_t i) { c.log_level = std::vector<std::string>{"error", "warn", "info", "debug"}[i]; },
                 [](const C& c) -> std::size_t {
                   return c.log_level == "error" ? 0 : c.log_level == "warn" ? 1 : c.log_level == "info" ? 2 : 3;
                 }),
      string_key("dissem", "socket", &C::socket, not_empty),
      string_key("dissem", "group", &C::group, not_empty),
      string_key("dissem", "domain", &C::dissem_domain, domain_check),
      unsigned_key("dissem", "priority", &C::priority, 0, u32),
      unsigned_key("dissem", "lifetime_ms", &C::lifetime_ms, 0, u32),
      double_key("dissem", "reconnect_max_s", &C::reconnect_max_s, 0.1, 3600),
      string_key("norm", "address", &C::address, multicast_check),
      unsigned_key("norm", "port", &C::port, 1, 65535),
      string_key("norm", "interface", &C::interface, interface_check),
      unsigned_key("norm", "node_id", &C::node_id, 0, u32 - 1),
      string_key("norm", "domain", &C::norm_domain, domain_check),
      double_key("norm", "tx_rate_bps", &C::tx_rate_bps, 100, 1e11),
      double_key("norm", "grtt_s", &C::grtt_s, 1e-6, 60),
      unsigned_key("norm", "segment_bytes", &C::segment_bytes, 64, 8972),
      unsigned_key("norm", "block", &C::block, 1, 254),
      unsigned_key("norm", "parity", &C::parity, 0, 254),
      unsigned_key("norm", "auto_parity", &C::auto_parity, 0, 254),
      unsigned_key("norm", "tx_buffer_bytes", &C::tx_buffer_bytes, 65536, 1ull << 32),
      unsigned_key("norm", "rx_buffer_bytes", &C::rx_buffer_bytes, 65536, 1ull << 32),
      unsigned_key("norm", "tx_cache_objects", &C::tx_cache_objects, 1, 32767),
      unsigned_key("norm", "ttl", &C::ttl, 1, 255),
      bool_key("norm", "loopback", &C::loopback),
      choice_key("norm", "sync", {"current", "all"}, [](C& c, std::size_t i) { c.sync_all = i == 1; },
                 [](const C& c) -> std::size_t { return c.sync_all ? 1 : 0; }),
      choice_key("bridge", "direction", {"both", "norm-to-dissem", "dissem-to-norm"},
                 [](C& c, std::size_t i) { c.direction = static_cast<Direction>(i); },
                 [](const C& c) { return static_cast<std::size_t>(c.direction); }),
      unsigned_key("bridge", "holdoff_ms", &C::holdoff_ms, 0, 600'000),
      unsigned_key("bridge", "duplicate_window_s", &C::duplicate_window_s, 0, 86'400),
      unsigned_key("bridge", "max_message_bytes", &C::max_message_bytes, 1, 1ull << 32),
      unsigned_key("bridge", "memory", &C::memory, 16, 10'000'000),
  };
  return table;
}

const Key* find_key(const std::string& section, const std::string& name) {
  for (const Key& k : keys()) {
    if (k.section == section && k.name == name) return &k;
  }
  return nullptr;
}

bool known_section(const std::string& section) {
  for (const Key& k : keys()) {
    if (k.section == section) return true;
  }
  return false;
}

}  // namespace

void apply_toml(GatewayConfig& config, std::string_view text, const std::string& source) {
  toml::table doc;
  if (auto problem = config::parse_toml(text, source, doc)) throw ConfigError(*problem);
  for (auto&& [section_name, section_node] : doc) {
    const std::string section(section_name.str());
    const toml::table* table = section_node.as_table();
    if (!known_section(section)) throw ConfigError("unknown section [" + section + "]" + config::toml_where(source, section_node));
    if (table == nullptr) throw ConfigError(section + ": expected a table" + config::toml_where(source, section_node));
    for (auto&& [name_key, node] : *table) {
      const std::string name(name_key.str());
      const std::string full = section + "." + name;
      const Key* key = find_key(section, name);
      try {
        if (key == nullptr) throw ConfigError("unknown key '" + full + "'");
        key->read(config, node, full);
      } catch (const ConfigError& e) {
        throw ConfigError(e.what() + config::toml_where(source, node));
      }
    }
  }
}

void apply_toml_file(GatewayConfig& config, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("cannot read configuration file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  apply_toml(config, text.str(), path);
}

void apply_assignment(GatewayConfig& config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  const auto dot = assignment.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq) {
    throw ConfigError("--set '" + assignment + "': expected section.key=value");
  }
  const std::string section = assignment.substr(0, dot);
  const std::string name = assignment.substr(dot + 1, eq - dot - 1);
  const std::string value = assignment.substr(eq + 1);
  const std::string full = section + "." + name;
  const Key* key = find_key(section, name);
  if (key == nullptr) throw ConfigError("unknown key '" + full + "'");
  if (auto problem = config::toml_input_problem(value, "--set " + full)) throw ConfigError(*problem);
  // The value as TOML (a number, a boolean, a quoted string); anything that
  // does not parse as one is taken as a bare string.
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    parsed = toml::table{{"v", value}};
  }
  key->read(config, *parsed.get("v"), full);
}

void validate(const GatewayConfig& c) {
  if (c.group.empty()) throw ConfigError("dissem.group: required (the dissem group to bridge)");
  if (c.block + c.parity > 255) {
    throw ConfigError("norm.parity: block + parity is " + std::to_string(c.block + c.parity) +
                      ", above 255 (NORM's 8-bit Reed-Solomon)");
  }
  if (c.auto_parity > c.parity) throw ConfigError("norm.auto_parity: above norm.parity");
  if (c.norm_domain == c.dissem_domain) {
    throw ConfigError("norm.domain: must differ from dissem.domain ('" + c.norm_domain + "')");
  }
}

std::string to_toml(const GatewayConfig& config) {
  // Sections and keys in the table's order (toml++ would sort them).
  std::ostringstream out;
  std::string section;
  for (const Key& k : keys()) {
    if (k.section != section) {
      out << (section.empty() ? "" : "\n") << "[" << k.section << "]\n";
      section = k.section;
    }
    toml::table one;
    k.write(config, one);
    out << toml::toml_formatter(one) << "\n";
  }
  return out.str();
}

std::vector<std::string> key_names() {
  std::vector<std::string> out;
  for (const Key& k : keys()) out.push_back(k.section + "." + k.name);
  return out;
}

}  // namespace dissem::norm_gateway
