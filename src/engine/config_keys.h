// EngineConfig by name: one table of every tunable, used by dissem-sim
// (`--engine key=value`), scenario files and the daemon's configuration, so a
// key is spelt and validated the same way everywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/config_error.h"
#include "config/key_table.h"
#include "engine/config.h"

namespace dissem::engine {

using ConfigError = dissem::ConfigError;

// Sets `key` from its text form. Throws ConfigError naming the key when the
// key is unknown or the value is malformed or out of range.
void set_config_value(EngineConfig& config, const std::string& key, const std::string& value);
// "key=value"
void apply_config_assignment(EngineConfig& config, const std::string& assignment);
// Every key with its current value, in a stable order (for --print-config).
std::vector<std::pair<std::string, std::string>> describe_config(const EngineConfig& config);

// Whether a running node takes a new value of `key` (Node::reconfigure):
// the keys its parts read at each use rather than derive from at start-up.
bool live_config_key(std::string_view key);

// The table itself, in name order, for hosts that name the keys their own way
// (dissemd's "engine.<key>"): its refusals are SettingErrors.
const KeyTable<EngineConfig>& config_key_table();

}  // namespace dissem::engine
