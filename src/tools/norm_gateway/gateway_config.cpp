#include "tools/norm_gateway/gateway_config.h"

#include <arpa/inet.h>
#include <toml++/toml.h>

#include <limits>

#include "config/key_table.h"
#include "config/toml_document.h"
#include "config/toml_input_guard.h"
#include "tools/norm_gateway/bridge_origin.h"

namespace dissem::norm_gateway {
namespace {

using C = GatewayConfig;
using config::ValueType;
// Info: the TOML type of the key's value.
using Table = KeyTable<GatewayConfig, ValueType>;

// A whole-number member in [lo, hi], given as a TOML integer.
template <typename T>
Table::Entry whole(std::string key, T C::*member, std::type_identity_t<T> lo, std::type_identity_t<T> hi) {
  return {std::move(key), number_field(member, lo, hi), ValueType::Integer};
}

// A double member in [lo, hi], given as a TOML integer or float.
Table::Entry real(std::string key, double C::*member, double lo, double hi) {
  return {std::move(key), number_field(member, lo, hi), ValueType::Number};
}

Table::Entry flag(std::string key, bool C::*member) { return {std::move(key), flag_field(member), ValueType::Boolean}; }

// `check` returns what is wrong with a value, or "" when it will do.
Table::Entry text(std::string key, std::string C::*member, std::string (*check)(const std::string&)) {
  KeyField<C> f = text_field(member);
  auto set = f.set;
  f.set = [set, check](C& c, const std::string& k, const std::string& v) {
    if (auto problem = check(v); !problem.empty()) refuse(k, "'" + v + "' " + problem);
    set(c, k, v);
  };
  return {std::move(key), std::move(f), ValueType::String};
}

// A choice among words, held as their index by `set` and `get`.
Table::Entry choice(std::string key, std::vector<std::string> words, void (*set)(C&, std::size_t),
                    std::size_t (*get)(const C&)) {
  KeyField<C> f;
  f.set = [words, set](C& c, const std::string& k, const std::string& v) {
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (v == words[i]) return set(c, i);
    }
    std::string list;
    for (std::size_t i = 0; i < words.size(); ++i) list += (i ? (i + 1 == words.size() ? " or " : ", ") : "") + words[i];
    refuse(k, "'" + v + "' is not " + list);
  };
  f.get = [words, get](const C& c) { return words[get(c)]; };
  return {std::move(key), std::move(f), ValueType::String};
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

const std::vector<std::string> kLogLevels = {"error", "warn", "info", "debug"};

// Every key in print order; the sections are the names' first parts.
const Table& keys() {
  constexpr std::uint32_t u32 = std::numeric_limits<std::uint32_t>::max();
  static const Table table({
      text("gateway.name", &C::name, domain_check),
      text("gateway.status_file", &C::status_file, any_text),
      choice(
          "gateway.log_level", kLogLevels, [](C& c, std::size_t i) { c.log_level = kLogLevels[i]; },
          [](const C& c) -> std::size_t {
            for (std::size_t i = 0; i < kLogLevels.size(); ++i)
              if (c.log_level == kLogLevels[i]) return i;
            return 2;
          }),
      text("dissem.socket", &C::socket, not_empty),
      text("dissem.group", &C::group, not_empty),
      text("dissem.domain", &C::dissem_domain, domain_check),
      whole("dissem.priority", &C::priority, 0, u32),
      whole("dissem.lifetime_ms", &C::lifetime_ms, 0, u32),
      real("dissem.reconnect_max_s", &C::reconnect_max_s, 0.1, 3600),
      text("norm.address", &C::address, multicast_check),
      whole("norm.port", &C::port, 1, 65535),
      text("norm.interface", &C::interface, interface_check),
      whole("norm.node_id", &C::node_id, 0, u32 - 1),
      text("norm.domain", &C::norm_domain, domain_check),
      real("norm.tx_rate_bps", &C::tx_rate_bps, 100, 1e11),
      real("norm.grtt_s", &C::grtt_s, 1e-6, 60),
      whole("norm.segment_bytes", &C::segment_bytes, 64, 8972),
      whole("norm.block", &C::block, 1, 254),
      whole("norm.parity", &C::parity, 0, 254),
      whole("norm.auto_parity", &C::auto_parity, 0, 254),
      whole("norm.tx_buffer_bytes", &C::tx_buffer_bytes, 65536, 1ull << 32),
      whole("norm.rx_buffer_bytes", &C::rx_buffer_bytes, 65536, 1ull << 32),
      whole("norm.tx_cache_objects", &C::tx_cache_objects, 1, 32767),
      whole("norm.ttl", &C::ttl, 1, 255),
      flag("norm.loopback", &C::loopback),
      choice(
          "norm.sync", {"current", "all"}, [](C& c, std::size_t i) { c.sync_all = i == 1; },
          [](const C& c) -> std::size_t { return c.sync_all ? 1 : 0; }),
      choice(
          "bridge.direction", {"both", "norm-to-dissem", "dissem-to-norm"},
          [](C& c, std::size_t i) { c.direction = static_cast<Direction>(i); },
          [](const C& c) { return static_cast<std::size_t>(c.direction); }),
      whole("bridge.holdoff_ms", &C::holdoff_ms, 0, 600'000),
      whole("bridge.duplicate_window_s", &C::duplicate_window_s, 0, 86'400),
      whole("bridge.max_message_bytes", &C::max_message_bytes, 1, 1ull << 32),
      whole("bridge.memory", &C::memory, 16, 10'000'000),
  });
  return table;
}

const Table::Entry& known_key(const std::string& key) {
  const Table::Entry* e = keys().find(key);
  if (e == nullptr) throw ConfigError("unknown key '" + key + "'");
  return *e;
}

void set_key(GatewayConfig& c, const std::string& key, const std::string& text) {
  try {
    keys().set(c, key, text);
  } catch (const SettingError& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace

void apply_toml(GatewayConfig& config, std::string_view text, const std::string& source) {
  config::DocumentKeys doc;
  doc.sections = {"gateway", "dissem", "norm", "bridge"};
  doc.type_of = [](const std::string& key) -> std::optional<ValueType> {
    const Table::Entry* e = keys().find(key);
    return e == nullptr ? std::nullopt : std::optional<ValueType>(e->info);
  };
  doc.set = [&config](const std::string& key, const std::string& value) { set_key(config, key, value); };
  config::apply_document(text, source, doc);
}

void apply_toml_file(GatewayConfig& config, const std::string& path) {
  apply_toml(config, config::read_document_file(path), path);
}

void apply_assignment(GatewayConfig& config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  const auto dot = assignment.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq) {
    throw ConfigError("--set '" + assignment + "': expected section.key=value");
  }
  const std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  const Table::Entry& entry = known_key(key);
  if (auto problem = config::toml_input_problem(value, "--set " + key)) throw ConfigError(*problem);
  // The value as TOML (a number, a boolean, a quoted string); anything that
  // does not parse as one is taken as a bare string.
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    parsed = toml::table{{"v", value}};
  }
  try {
    set_key(config, key, config::value_text(key, entry.info, *parsed.get("v")));
  } catch (const SettingError& e) {
    throw ConfigError(e.what());
  }
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
  std::vector<config::PrintedKey> printed;
  for (const auto& e : keys().entries()) printed.push_back({e.name, e.info, e.field.get(config), {}});
  return config::print_document("", printed);
}

std::vector<std::string> key_names() {
  std::vector<std::string> out;
  for (const auto& e : keys().entries()) out.push_back(e.name);
  return out;
}

}  // namespace dissem::norm_gateway
