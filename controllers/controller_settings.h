// Which controller decides at each decision point, and their parameters.
// Part of EngineConfig (one set per node, so the simulator can give nodes
// different controllers); named and validated by the key table below, which
// dissemd's [controllers] section and dissem-sim share.
//
// Keys (a decision point is a sub-table; `forwarding = "flooding"` is
// accepted as shorthand for `forwarding.name = "flooding"`):
//   forwarding.name              none | flooding | subscription-aware | subscriber-tree | relay-set
//                                | plugin
//   forwarding.probability       flooding: chance to rebroadcast a new fragment
//   forwarding.hop_limit         rebroadcasts a fragment may accumulate (and, for the
//                                interest-driven two, the radius interest is advertised over)
//   forwarding.delay_max_ms      rebroadcasts wait uniform [0, this]; 0 = 4 packet times
//   replication.name             none | anti-entropy | plugin
//   replication.budget_fraction  share of link capacity pushes may use (a plugin's default)
//   replication.max_push_bytes   bytes pushed in answer to one summary
//   replication.summary_delay_max_ms  summaries wait uniform [0, this]; 0 = derived
//   replication.min_interval_ms  at most one summary per this interval
//   deletion.name                expiry-priority-lru | expiry-priority-oldest | plugin
//   deletion.low_watermark       evict down to this fraction of the quota
//   plugin.path                  shared library loaded at start-up (see plugin/)
//   plugin.params                text handed to the plugin's create()
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/setting_text.h"
#include "core/types.h"

namespace dissem::controllers {

// A refused setting: "<key>: <what>" (config/setting_text.h).
using SettingsError = SettingError;

struct ControllerSettings {
  std::string forwarding = "none";
  double forwarding_probability = 1.0;
  std::uint32_t forwarding_hop_limit = 8;
  Micros forwarding_delay_max = 0;

  std::string replication = "none";
  double replication_budget_fraction = 0.25;
  std::uint64_t replication_max_push_bytes = 16ull << 20;
  Micros replication_summary_delay_max = 0;
  Micros replication_min_interval = 2 * kSeconds;

  std::string deletion = "expiry-priority-lru";
  double deletion_low_watermark = 0.9;

  std::string plugin_path;
  std::string plugin_params;

  bool operator==(const ControllerSettings&) const = default;
};

// Controller names each decision point accepts.
const std::vector<std::string>& forwarding_names();
const std::vector<std::string>& replication_names();
const std::vector<std::string>& deletion_names();

// Sets `key` (as listed above, without a section prefix) from text. Throws
// SettingsError "<key>: <what>" or "unknown key '<key>'".
void set_setting(ControllerSettings& s, const std::string& key, const std::string& text);
// Every key (canonical names, never the shorthands) with its current value, in a stable order.
std::vector<std::pair<std::string, std::string>> describe_settings(const ControllerSettings& s);
// Whether `key` names a setting; shorthands count.
bool is_setting(const std::string& key);
// Whether the value of `key` is a string in its text form (names and paths)
// rather than a number; for printing TOML.
bool is_text_setting(const std::string& key);
// Checks what single keys cannot: a decision point set to "plugin" needs
// plugin.path. Throws SettingsError naming the key.
void check_settings(const ControllerSettings& s);

}  // namespace dissem::controllers
