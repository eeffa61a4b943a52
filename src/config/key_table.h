// A table of settings by name: each key has a setter from text (which
// validates, and refuses with a SettingError naming the key) and a getter
// back to text, so a configuration can be set key by key and printed so that
// it reads back. The engine's, the controllers' and dissemd's keys are such
// tables; the fields below cover plain members of the configured struct,
// and a table writes its own for anything else.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "config/setting_text.h"

namespace dissem {

template <typename Target>
struct KeyField {
  // `key` is the name the value was given under, for the refusal.
  std::function<void(Target&, const std::string& key, const std::string& text)> set;
  std::function<std::string(const Target&)> get;
};

// `Info` is what else a table records per key (dissemd: the TOML type).
template <typename Target, typename Info = std::monostate>
class KeyTable {
 public:
  struct Entry {
    Entry(std::string entry_name, KeyField<Target> entry_field, Info entry_info = {})
        : name(std::move(entry_name)), field(std::move(entry_field)), info(std::move(entry_info)) {}
    std::string name;
    KeyField<Target> field;
    Info info;
  };

  // Described in this order.
  explicit KeyTable(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  const Entry* find(std::string_view name) const {
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }

  // Throws SettingError: "unknown key '<name>'", or the key's own refusal.
  void set(Target& target, const std::string& name, const std::string& text) const {
    const Entry* e = find(name);
    if (e == nullptr) throw SettingError::unknown(name);
    e->field.set(target, name, text);
  }

  // Every key with its current value.
  std::vector<std::pair<std::string, std::string>> describe(const Target& target) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : entries_) out.emplace_back(e.name, e.field.get(target));
    return out;
  }

  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// A number member in [lo, hi] (setting_text.h: unsigned or double).
template <typename Target, typename T>
KeyField<Target> number_field(T Target::*member, std::type_identity_t<T> lo, std::type_identity_t<T> hi) {
  return {[=](Target& t, const std::string& key, const std::string& text) {
            t.*member = parse_number<T>(key, text, lo, hi);
          },
          [=](const Target& t) { return exact_text(t.*member); }};
}

// A Micros member, given in milliseconds in [lo_ms, hi_ms].
template <typename Target>
KeyField<Target> millis_field(Micros Target::*member, double lo_ms, double hi_ms) {
  return {[=](Target& t, const std::string& key, const std::string& text) {
            t.*member = parse_millis(key, text, lo_ms, hi_ms);
          },
          [=](const Target& t) { return millis_text(t.*member); }};
}

// A bool member.
template <typename Target>
KeyField<Target> flag_field(bool Target::*member) {
  return {[=](Target& t, const std::string& key, const std::string& text) { t.*member = parse_flag(key, text); },
          [=](const Target& t) { return std::string(t.*member ? "true" : "false"); }};
}

// A string member, any text without a NUL byte.
template <typename Target>
KeyField<Target> text_field(std::string Target::*member) {
  return {[=](Target& t, const std::string& key, const std::string& text) { t.*member = parse_text(key, text); },
          [=](const Target& t) { return t.*member; }};
}

}  // namespace dissem
