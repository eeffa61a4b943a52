#include "config/setting_text.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dissem {

SettingError::SettingError(const std::string& key, const std::string& reason)
    : SettingError(key + ": " + reason, key, reason) {}

SettingError::SettingError(const std::string& message, std::string key, std::string reason)
    : std::runtime_error(message), key_(std::move(key)), reason_(std::move(reason)) {}

SettingError SettingError::unknown(const std::string& key) { return SettingError("unknown key '" + key + "'", key, ""); }

void refuse(const std::string& key, const std::string& reason) { throw SettingError(key, reason); }

const std::string& one_of(const std::string& key, const std::string& text, const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), text) != names.end()) return text;
  std::string list;
  for (const auto& n : names) {
    if (!list.empty()) list += ", ";
    list += n;
  }
  refuse(key, "'" + text + "' is not one of " + list);
}

namespace {

template <typename T>
[[noreturn]] void out_of_range(const std::string& key, const std::string& text, T lo, T hi) {
  std::ostringstream os;
  os << text << " is out of range [" << lo << ", " << hi << "]";
  refuse(key, os.str());
}

}  // namespace

std::optional<std::uint64_t> read_whole_number(std::string_view text, int base) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, base);
  if (text.empty() || ptr != end || ec != std::errc{}) return std::nullopt;
  return v;
}

std::optional<double> read_finite_number(std::string_view text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ptr != end || ec != std::errc{} || !std::isfinite(v)) return std::nullopt;
  return v;
}

namespace setting_text_detail {

std::uint64_t parse_unsigned(const std::string& key, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  // A negative number is a number, just not one in range.
  const bool negative = !text.empty() && text.front() == '-';
  const char* begin = text.data() + (negative ? 1 : 0);
  const char* end = text.data() + text.size();
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, v);
  if (begin == end || ptr != end || ec == std::errc::invalid_argument)
    refuse(key, "'" + text + "' is not a whole number");
  if (ec == std::errc::result_out_of_range || (negative && v != 0) || v < lo || v > hi)
    out_of_range(key, text, lo, hi);
  return v;
}

double parse_real(const std::string& key, const std::string& text, double lo, double hi) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ptr != end || ec != std::errc{}) refuse(key, "'" + text + "' is not a valid number");
  // std::from_chars reads "nan" and "inf"; no setting means either.
  if (!std::isfinite(v)) refuse(key, "'" + text + "' is not a finite number");
  if (v < lo || v > hi) out_of_range(key, text, lo, hi);
  return v;
}

}  // namespace setting_text_detail

bool parse_flag(const std::string& key, const std::string& text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  refuse(key, "'" + text + "' is not true or false");
}

Micros parse_millis(const std::string& key, const std::string& text, double lo_ms, double hi_ms) {
  return static_cast<Micros>(parse_number<double>(key, text, lo_ms, hi_ms) * 1000.0);
}

std::string parse_text(const std::string& key, const std::string& text) {
  if (text.find('\0') != std::string::npos) refuse(key, "contains a NUL byte");
  return text;
}

std::string millis_text(Micros v) { return exact_text(static_cast<double>(v) / 1000.0); }

}  // namespace dissem
