// Every dissemd configuration key by its full name ("net.port",
// "engine.repair_share"), set from and printed as text. The TOML file, --set
// and the direct flags all go through set_value, so a key is validated the
// same way wherever it comes from, and errors always name the full key.
//
// The [engine] keys are engine/config_keys.h's, minus node_id (node.node_id
// is the only place the node id is set). The [controllers] keys are
// controllers/controller_settings.h's ("controllers.forwarding.name", with
// "controllers.forwarding" accepted for it); decision points are sub-tables
// in the file.
//
// The [security] keys name key files (daemon/key_files.h), never keys: key
// material is not in the configuration, nor in what --print-config prints.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/toml_value.h"
#include "daemon/daemon_config.h"

namespace dissem::daemon {

// The TOML type a key takes (config/toml_value.h). Engine keys take any
// scalar: the engine's own table parses their text form.
using ValueType = config::ValueType;

struct KeyValue {
  std::string key;  // full name
  ValueType type;
  std::string text;  // StringList: items joined by ','
};

// The sections, in print order.
const std::vector<std::string_view>& section_names();

// Sets `key` from its text form (a StringList as comma-separated items).
// Throws ConfigError naming the key: "unknown key 'engine.foo'",
// "net.mode: 'bogus' is not broadcast or multicast".
void set_value(DaemonConfig& config, const std::string& key, const std::string& text);

// "section.key=value", as given to --set.
void apply_assignment(DaemonConfig& config, const std::string& assignment);

// The type `key` expects; nullopt for an unknown key.
std::optional<ValueType> value_type(const std::string& key);

// Every key with its current value: node, net, cache, ipc, log, security,
// engine, then controllers.
std::vector<KeyValue> describe(const DaemonConfig& config);

}  // namespace dissem::daemon
