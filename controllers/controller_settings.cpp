#include "controllers/controller_settings.h"

#include "config/key_table.h"

namespace dissem::controllers {
namespace {

using S = ControllerSettings;
// Info: whether the value is text (names and paths) rather than a number.
using Table = KeyTable<S, bool>;

KeyField<S> name(std::string S::*member, const std::vector<std::string>& (*names)()) {
  return {[=](S& s, const std::string& k, const std::string& v) { s.*member = one_of(k, v, names()); },
          [=](const S& s) { return s.*member; }};
}

// Ordered as printed: decision point by decision point, the name first.
const Table& table() {
  static const Table t({
      {"forwarding.name", name(&S::forwarding, forwarding_names), true},
      {"forwarding.probability", number_field(&S::forwarding_probability, 0.0, 1.0)},
      {"forwarding.hop_limit", number_field(&S::forwarding_hop_limit, 1, 255)},
      {"forwarding.delay_max_ms", millis_field(&S::forwarding_delay_max, 0, 60'000)},
      {"replication.name", name(&S::replication, replication_names), true},
      {"replication.budget_fraction", number_field(&S::replication_budget_fraction, 0.001, 1.0)},
      {"replication.max_push_bytes", number_field(&S::replication_max_push_bytes, 1, 1ull << 40)},
      {"replication.summary_delay_max_ms", millis_field(&S::replication_summary_delay_max, 0, 600'000)},
      {"replication.min_interval_ms", millis_field(&S::replication_min_interval, 0, 3'600'000)},
      {"deletion.name", name(&S::deletion, deletion_names), true},
      {"deletion.low_watermark", number_field(&S::deletion_low_watermark, 0.0, 1.0)},
      {"plugin.path", text_field(&S::plugin_path), true},
      {"plugin.params", text_field(&S::plugin_params), true},
  });
  return t;
}

// `forwarding = "flooding"` reads as forwarding.name; `plugin = "x.so"` as plugin.path.
std::string canonical(const std::string& key) {
  if (key == "forwarding" || key == "replication" || key == "deletion") return key + ".name";
  if (key == "plugin") return "plugin.path";
  return key;
}

const Table::Entry* find(const std::string& key) { return table().find(canonical(key)); }

}  // namespace

const std::vector<std::string>& forwarding_names() {
  static const std::vector<std::string> n = {"none",      "flooding",  "subscription-aware",
                                              "subscriber-tree", "relay-set", "plugin"};
  return n;
}

const std::vector<std::string>& replication_names() {
  static const std::vector<std::string> n = {"none", "anti-entropy", "plugin"};
  return n;
}

const std::vector<std::string>& deletion_names() {
  static const std::vector<std::string> n = {"expiry-priority-lru", "expiry-priority-oldest", "plugin"};
  return n;
}

void set_setting(ControllerSettings& s, const std::string& key, const std::string& text) {
  const Table::Entry* e = find(key);
  if (e == nullptr) throw SettingsError::unknown(key);
  e->field.set(s, key, text);
}

std::vector<std::pair<std::string, std::string>> describe_settings(const ControllerSettings& s) {
  return table().describe(s);
}

bool is_setting(const std::string& key) { return find(key) != nullptr; }

bool is_text_setting(const std::string& key) {
  const Table::Entry* e = find(key);
  return e != nullptr && e->info;
}

void check_settings(const ControllerSettings& s) {
  if (s.forwarding == "plugin" && s.plugin_path.empty())
    refuse("forwarding.name", "\"plugin\" needs plugin.path, the shared library to load");
  if (s.replication == "plugin" && s.plugin_path.empty())
    refuse("replication.name", "\"plugin\" needs plugin.path, the shared library to load");
  if (s.deletion == "plugin" && s.plugin_path.empty())
    refuse("deletion.name", "\"plugin\" needs plugin.path, the shared library to load");
}

}  // namespace dissem::controllers
