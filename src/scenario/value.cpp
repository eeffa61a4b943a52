#include "scenario/value.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <system_error>

namespace dissem::scenario {
namespace {

std::string double_text(double d, bool point) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15)
    return fmt::format("{}", static_cast<std::int64_t>(d)) + (point ? ".0" : "");
  return fmt::format("{}", d);
}

}  // namespace

bool is_number(const Value& v) {
  return std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
}

double as_double(const Value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

bool same_value(const Value& a, const Value& b) {
  if (is_number(a) && is_number(b)) return as_double(a) == as_double(b);
  return a == b;
}

std::string value_text(const Value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return double_text(*d, false);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

std::string value_repr(const Value& v) {
  if (const auto* d = std::get_if<double>(&v)) return double_text(*d, true);
  if (const auto* s = std::get_if<std::string>(&v)) return "'" + *s + "'";
  return value_text(v);
}

Value value_from_text(std::string_view text) {
  if (text == "true") return true;
  if (text == "false") return false;
  std::int64_t i = 0;
  const char* end = text.data() + text.size();
  if (auto r = std::from_chars(text.data(), end, i); r.ec == std::errc() && r.ptr == end) return i;
  double d = 0;
  if (auto r = std::from_chars(text.data(), end, d); r.ec == std::errc() && r.ptr == end && std::isfinite(d)) return d;
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_string()) return parsed.get<std::string>();
  }
  return std::string(text);
}

}  // namespace dissem::scenario
