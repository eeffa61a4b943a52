#include "daemon/config_toml.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "daemon/daemon_keys.h"
#include "config/toml_parse.h"

namespace dissem::daemon {
namespace {

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::none: break;
  }
  return "nothing";
}

[[noreturn]] void wrong_type(const std::string& key, const std::string& expected, const toml::node& n) {
  throw ConfigError(key + ": expected " + expected + ", got " + type_name(n));
}

// Shortest text that reads back as the same double.
std::string float_text(const std::string& key, double v) {
  if (!std::isfinite(v)) throw ConfigError(key + ": must be a finite number");
  std::array<char, 64> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), ptr);
}

// A TOML value in the text form set_value takes, checked against the key's type.
std::string value_text(const std::string& key, ValueType type, const toml::node& n) {
  switch (type) {
    case ValueType::Integer:
      if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
      wrong_type(key, "an integer", n);
    case ValueType::Boolean:
      if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
      wrong_type(key, "true or false", n);
    case ValueType::String:
      if (auto v = n.value_exact<std::string>()) return *v;
      wrong_type(key, "a string", n);
    case ValueType::StringList: {
      const toml::array* a = n.as_array();
      if (a == nullptr) wrong_type(key, "an array of strings such as [\"lo\"]", n);
      std::string joined;
      for (const toml::node& e : *a) {
        auto item = e.value_exact<std::string>();
        if (!item) wrong_type(key, "an array of strings", e);
        // The text form separates items with commas; "" is the empty list.
        if (item->find(',') != std::string::npos) throw ConfigError(key + ": '" + *item + "' contains a comma");
        if (item->empty()) throw ConfigError(key + ": an item is empty");
        joined += (joined.empty() ? "" : ",") + *item;
      }
      return joined;  // the key decides whether an empty list will do
    }
    case ValueType::EngineScalar:
      if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
      if (auto v = n.value_exact<double>()) return float_text(key, *v);
      if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
      if (auto v = n.value_exact<std::string>()) return *v;
      wrong_type(key, "a number, boolean or string", n);
  }
  wrong_type(key, "a value", n);
}

void apply_section(DaemonConfig& config, const std::string& section, const toml::table& table,
                   const std::string& source) {
  for (auto&& [name, node] : table) {
    const std::string key = section + "." + std::string(name.str());
    // [controllers] groups each decision point's keys in a sub-table
    // (forwarding.name = ..., or [controllers.forwarding]).
    if (section.rfind("controllers", 0) == 0 && node.is_table()) {
      apply_section(config, key, *node.as_table(), source);
      continue;
    }
    try {
      const auto type = value_type(key);
      if (!type) throw ConfigError("unknown key '" + key + "'");
      set_value(config, key, value_text(key, *type, node));
    } catch (const ConfigError& e) {
      throw ConfigError(e.what() + config::toml_where(source, node));
    }
  }
}

// The code point of the UTF-8 sequence at s[i] and its length, or 0 length
// if the bytes there are not one.
std::pair<char32_t, std::size_t> utf8_at(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  const std::size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return {0, 0};
  char32_t cp = c & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return {0, 0};
    cp = cp << 6 | (b(i + k) & 0x3f);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) return {0, 0};
  return {cp, n};
}

// A TOML basic string. Everything outside printable ASCII is escaped, so the
// printed file never holds a raw character the input guard refuses
// (config/toml_input_guard.h): a value given as an escape prints back as one.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default: {
        char buf[12];
        if (c < 0x20 || c == 0x7f) {
          std::snprintf(buf, sizeof buf, "\\u%04X", c);
          out += buf;
        } else if (c < 0x80) {
          out += ch;
        } else if (const auto [cp, len] = utf8_at(s, i); len != 0) {
          std::snprintf(buf, sizeof buf, cp > 0xffff ? "\\U%08X" : "\\u%04X", static_cast<unsigned>(cp));
          out += buf;
          i += len - 1;
        } else {
          out += ch;  // not UTF-8: TOML cannot hold it, and the reader says so
        }
      }
    }
  }
  out += '"';
  return out;
}

// Scans a TOML decimal number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// (no std::regex: GCC 12 warns inside it under the sanitizer build).
struct NumberShape {
  bool valid = false;
  bool integer = false;  // no fraction and no exponent
};

NumberShape number_shape(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  const std::size_t int_start = i;
  const std::size_t int_digits = digits();
  if (int_digits == 0 || (int_digits > 1 && s[int_start] == '0')) return {};
  bool integer = true;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return {};
    integer = false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return {};
    integer = false;
  }
  return {i == s.size(), integer};
}

// Engine values come as text; print each as the TOML type it reads as, and
// as a string what TOML cannot hold (an unsigned above the int64 range).
std::string engine_value_toml(const std::string& text) {
  if (text == "true" || text == "false") return text;
  const auto shape = number_shape(text);
  if (!shape.valid) return quoted(text);
  if (shape.integer) {
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc{} ? text : quoted(text);
  }
  return text;
}

std::string value_toml(const KeyValue& kv) {
  switch (kv.type) {
    case ValueType::Integer:
    case ValueType::Boolean: return kv.text;
    case ValueType::String: return quoted(kv.text);
    case ValueType::StringList: {
      if (kv.text.empty()) return "[]";
      std::string out = "[";
      std::size_t start = 0;
      while (start <= kv.text.size()) {
        const auto comma = kv.text.find(',', start);
        const auto end = comma == std::string::npos ? kv.text.size() : comma;
        out += (out.size() > 1 ? ", " : "") + quoted(kv.text.substr(start, end - start));
        start = end + 1;
      }
      return out + "]";
    }
    case ValueType::EngineScalar: return engine_value_toml(kv.text);
  }
  return quoted(kv.text);
}

}  // namespace


void apply_toml(DaemonConfig& config, std::string_view text, const std::string& source) {
  toml::table root;
  if (auto problem = config::parse_toml(text, source, root)) throw ConfigError(*problem);
  const auto& sections = section_names();
  for (auto&& [name, node] : root) {
    const std::string section(name.str());
    const bool known = std::find(sections.begin(), sections.end(), section) != sections.end();
    if (!known) {
      const std::string what = node.is_table() ? "unknown table [" + section + "]" : "unknown key '" + section + "'";
      throw ConfigError(what + config::toml_where(source, node));
    }
    const toml::table* table = node.as_table();
    if (table == nullptr)
      throw ConfigError(section + ": expected a table [" + section + "], got " + type_name(node) + config::toml_where(source, node));
    apply_section(config, section, *table, source);
  }
}

void apply_toml_file(DaemonConfig& config, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open configuration file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ConfigError(path + ": cannot read configuration file");
  apply_toml(config, text, path);
}

namespace {

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

std::string to_toml(const DaemonConfig& config) {
  std::string out = "# dissemd configuration: every key with its effective value (dissemd --print-config)\n";
  std::string current;
  for (const auto& kv : describe(config)) {
    const auto dot = kv.key.find('.');
    const std::string section = kv.key.substr(0, dot);
    if (section != current) {
      out += "\n[" + section + "]\n";
      current = section;
    }
    // A path left empty means "the default from the environment", which is
    // resolved at start-up; an empty string would not read back.
    if (kv.type == ValueType::String && kv.text.empty() && !reads_back(kv)) {
      out += "# " + kv.key.substr(dot + 1) + ": not set, the default from the environment applies\n";
      continue;
    }
    out += kv.key.substr(dot + 1) + " = " + value_toml(kv) + "\n";
  }
  return out;
}

}  // namespace dissem::daemon
