#include "config/toml_value.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>

#include "config/setting_text.h"

namespace dissem::config {
namespace {

[[noreturn]] void wrong_type(const std::string& key, const std::string& expected, const toml::node& n) {
  refuse(key, "expected " + expected + ", got " + type_name(n));
}

// Shortest text that reads back as the same double.
std::string float_text(const std::string& key, double v) {
  if (!std::isfinite(v)) refuse(key, "must be a finite number");
  std::array<char, 64> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), ptr);
}

std::string list_text(const std::string& key, const toml::node& n) {
  const toml::array* a = n.as_array();
  if (a == nullptr) wrong_type(key, "an array of strings such as [\"lo\"]", n);
  std::string joined;
  for (const toml::node& e : *a) {
    auto item = e.value_exact<std::string>();
    if (!item) wrong_type(key, "an array of strings", e);
    // The text form separates items with commas; "" is the empty list.
    if (item->find(',') != std::string::npos) refuse(key, "'" + *item + "' contains a comma");
    if (item->empty()) refuse(key, "an item is empty");
    joined += (joined.empty() ? "" : ",") + *item;
  }
  return joined;  // the key decides whether an empty list will do
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

// A value known only as text: printed as the TOML type it reads as, and as
// a string what TOML cannot hold (an unsigned above the int64 range).
std::string scalar_toml(const std::string& text) {
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

std::string list_toml(const std::string& text) {
  if (text.empty()) return "[]";
  std::string out = "[";
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto end = comma == std::string::npos ? text.size() : comma;
    out += (out.size() > 1 ? ", " : "") + quoted(text.substr(start, end - start));
    start = end + 1;
  }
  return out + "]";
}

}  // namespace

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

std::string value_text(const std::string& key, ValueType type, const toml::node& n) {
  switch (type) {
    case ValueType::Integer:
      if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
      wrong_type(key, "an integer", n);
    case ValueType::Number:
      if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
      if (auto v = n.value_exact<double>()) return float_text(key, *v);
      wrong_type(key, "a number", n);
    case ValueType::Boolean:
      if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
      wrong_type(key, "true or false", n);
    case ValueType::String:
      if (auto v = n.value_exact<std::string>()) return *v;
      wrong_type(key, "a string", n);
    case ValueType::StringList: return list_text(key, n);
    case ValueType::Scalar:
      if (auto v = n.value_exact<std::int64_t>()) return std::to_string(*v);
      if (auto v = n.value_exact<double>()) return float_text(key, *v);
      if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
      if (auto v = n.value_exact<std::string>()) return *v;
      wrong_type(key, "a number, boolean or string", n);
  }
  wrong_type(key, "a value", n);
}

std::string value_toml(ValueType type, const std::string& text) {
  switch (type) {
    case ValueType::Integer:
    case ValueType::Number:
    case ValueType::Boolean: return text;
    case ValueType::String: return quoted(text);
    case ValueType::StringList: return list_toml(text);
    case ValueType::Scalar: return scalar_toml(text);
  }
  return quoted(text);
}

}  // namespace dissem::config
