#include "controllers/controller_settings.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <limits>
#include <sstream>

namespace dissem::controllers {
namespace {

[[noreturn]] void fail(const std::string& key, const std::string& what) { throw SettingsError(key + ": " + what); }

template <typename T>
T parse_number(const std::string& key, const std::string& text, T lo, T hi) {
  T v{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc{} || ptr != end || v != v) fail(key, "'" + text + "' is not a valid number");
  if (v < lo || v > hi) {
    std::ostringstream os;
    os << text << " is out of range [" << lo << ", " << hi << "]";
    fail(key, os.str());
  }
  return v;
}

template <typename T>
std::string exact_text(T v) {
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, ptr) : std::string();
}

std::string one_of(const std::string& key, const std::string& text, const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), text) != names.end()) return text;
  std::string list;
  for (const auto& n : names) {
    if (!list.empty()) list += ", ";
    list += n;
  }
  fail(key, "'" + text + "' is not one of " + list);
}

struct Field {
  std::function<void(ControllerSettings&, const std::string&, const std::string&)> set;
  std::function<std::string(const ControllerSettings&)> get;
  bool text = false;
};

using S = ControllerSettings;

template <typename T>
Field number(T S::*member, T lo, T hi) {
  return {[=](S& s, const std::string& k, const std::string& v) { s.*member = parse_number<T>(k, v, lo, hi); },
          [=](const S& s) { return exact_text(s.*member); }};
}

Field millis(Micros S::*member, double lo_ms, double hi_ms) {
  return {[=](S& s, const std::string& k, const std::string& v) {
            s.*member = static_cast<Micros>(parse_number<double>(k, v, lo_ms, hi_ms) * 1000.0);
          },
          [=](const S& s) { return exact_text(static_cast<double>(s.*member) / 1000.0); }};
}

Field name(std::string S::*member, const std::vector<std::string>& (*names)()) {
  return {[=](S& s, const std::string& k, const std::string& v) { s.*member = one_of(k, v, names()); },
          [=](const S& s) { return s.*member; }, true};
}

Field text(std::string S::*member) {
  return {[=](S& s, const std::string& k, const std::string& v) {
            if (v.find('\0') != std::string::npos) fail(k, "contains a NUL byte");
            s.*member = v;
          },
          [=](const S& s) { return s.*member; }, true};
}

// Ordered as printed: decision point by decision point, the name first.
const std::vector<std::pair<std::string, Field>>& fields() {
  static const std::vector<std::pair<std::string, Field>> f = {
      {"forwarding.name", name(&S::forwarding, forwarding_names)},
      {"forwarding.probability", number<double>(&S::forwarding_probability, 0.0, 1.0)},
      {"forwarding.hop_limit", number<std::uint32_t>(&S::forwarding_hop_limit, 1, 255)},
      {"forwarding.delay_max_ms", millis(&S::forwarding_delay_max, 0, 60'000)},
      {"replication.name", name(&S::replication, replication_names)},
      {"replication.budget_fraction", number<double>(&S::replication_budget_fraction, 0.001, 1.0)},
      {"replication.max_push_bytes", number<std::uint64_t>(&S::replication_max_push_bytes, 1, 1ull << 40)},
      {"replication.summary_delay_max_ms", millis(&S::replication_summary_delay_max, 0, 600'000)},
      {"replication.min_interval_ms", millis(&S::replication_min_interval, 0, 3'600'000)},
      {"deletion.name", name(&S::deletion, deletion_names)},
      {"deletion.low_watermark", number<double>(&S::deletion_low_watermark, 0.0, 1.0)},
      {"plugin.path", text(&S::plugin_path)},
      {"plugin.params", text(&S::plugin_params)},
  };
  return f;
}

// `forwarding = "flooding"` reads as forwarding.name; `plugin = "x.so"` as plugin.path.
std::string canonical(const std::string& key) {
  if (key == "forwarding" || key == "replication" || key == "deletion") return key + ".name";
  if (key == "plugin") return "plugin.path";
  return key;
}

const Field* find(const std::string& key) {
  const std::string k = canonical(key);
  for (const auto& [n, f] : fields())
    if (n == k) return &f;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& forwarding_names() {
  static const std::vector<std::string> n = {"none", "flooding", "subscription-aware", "subscriber-tree", "plugin"};
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
  const Field* f = find(key);
  if (f == nullptr) throw SettingsError("unknown key '" + key + "'");
  f->set(s, key, text);
}

std::vector<std::pair<std::string, std::string>> describe_settings(const ControllerSettings& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [n, f] : fields()) out.emplace_back(n, f.get(s));
  return out;
}

bool is_setting(const std::string& key) { return find(key) != nullptr; }

bool is_text_setting(const std::string& key) {
  const Field* f = find(key);
  return f != nullptr && f->text;
}

void check_settings(const ControllerSettings& s) {
  if (s.forwarding == "plugin" && s.plugin_path.empty())
    throw SettingsError("forwarding.name: \"plugin\" needs plugin.path, the shared library to load");
  if (s.replication == "plugin" && s.plugin_path.empty())
    throw SettingsError("replication.name: \"plugin\" needs plugin.path, the shared library to load");
  if (s.deletion == "plugin" && s.plugin_path.empty())
    throw SettingsError("deletion.name: \"plugin\" needs plugin.path, the shared library to load");
}

}  // namespace dissem::controllers
