#include "daemon/config_toml.h"

#include "config/toml_document.h"
#include "daemon/daemon_keys.h"

namespace dissem::daemon {
namespace {

config::DocumentKeys document_keys(DaemonConfig& config) {
  config::DocumentKeys keys;
  keys.sections = section_names();
  keys.type_of = [](const std::string& key) { return value_type(key); };
  keys.set = [&config](const std::string& key, const std::string& text) { set_value(config, key, text); };
  // [controllers] groups each decision point's keys in a sub-table
  // (forwarding.name = ..., or [controllers.forwarding]); [net] each
  // interface's own link settings ([net.interface.wlan0]).
  keys.nested = {"controllers", "net"};
  return keys;
}

// Whether a key's printed value is accepted when read again.
bool reads_back(const KeyValue& kv) {
  DaemonConfig probe;
  try {
    set_value(probe, kv.key, kv.text);
    return true;
  } catch (const ConfigError&) {
    return false;
  }
}

}  // namespace

void apply_toml(DaemonConfig& config, std::string_view text, const std::string& source) {
  config::apply_document(text, source, document_keys(config));
}

void apply_toml_file(DaemonConfig& config, const std::string& path) {
  apply_toml(config, config::read_document_file(path), path);
}

std::string to_toml(const DaemonConfig& config) {
  std::vector<config::PrintedKey> printed;
  for (const auto& kv : describe(config)) {
    config::PrintedKey p{kv.key, kv.type, kv.text, {}};
    // A path left empty means "the default from the environment", which is
    // resolved at start-up; an empty string would not read back.
    if (kv.type == ValueType::String && kv.text.empty() && !reads_back(kv)) {
      p.unset_note = "not set, the default from the environment applies";
    }
    printed.push_back(std::move(p));
  }
  return config::print_document(
      "# dissemd configuration: every key with its effective value (dissemd --print-config)\n", printed);
}

}  // namespace dissem::daemon
