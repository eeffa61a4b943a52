// A setting's value from its text form, strictly: the whole text is the value
// (no leading '+', no trailing characters), numbers are finite and in range,
// and every refusal names the key. The one parser behind every key table:
// the engine's (engine/config_keys.h), the controllers'
// (controllers/controller_settings.h) and dissemd's (daemon/daemon_keys.h).
//
// Refusals read "<key>: <reason>":
//   "'1.5' is not a whole number"      for an unsigned type: not digits only
//   "'abc' is not a valid number"      for a double: not a number (or junk after it)
//   "'nan' is not a finite number"     for a double: NaN or infinity
//   "70000 is out of range [1, 65535]" beyond the bounds, beyond the type,
//                                      or negative where the type is unsigned
//   "'maybe' is not true or false"
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/types.h"

namespace dissem {

// A refused setting. what() is "<key>: <reason>", or "unknown key '<key>'"
// (then reason() is empty).
class SettingError : public std::runtime_error {
 public:
  SettingError(const std::string& key, const std::string& reason);
  static SettingError unknown(const std::string& key);

  const std::string& key() const { return key_; }
  const std::string& reason() const { return reason_; }

 private:
  SettingError(const std::string& message, std::string key, std::string reason);

  std::string key_;
  std::string reason_;
};

// Throws SettingError(key, reason).
[[noreturn]] void refuse(const std::string& key, const std::string& reason);
// `text` if it is one of `names`; otherwise refuses it, listing them.
const std::string& one_of(const std::string& key, const std::string& text, const std::vector<std::string>& names);

// Digits of `base` (10, or 16: 0-9, a-f, A-F) and nothing else, as a value
// that fits 64 bits; nullopt otherwise (no sign, no spaces, no "0x", no
// overflow). For the pieces of a value with a form of its own
// ("EPOCH=SECONDS", a hexadecimal node id), whose refusal names that form.
std::optional<std::uint64_t> read_whole_number(std::string_view text, int base = 10);
// A finite decimal number (exponent forms too) and nothing else; nullopt
// otherwise (no leading '+', no spaces, no "nan" or "inf", no overflow).
std::optional<double> read_finite_number(std::string_view text);

namespace setting_text_detail {
std::uint64_t parse_unsigned(const std::string& key, const std::string& text, std::uint64_t lo, std::uint64_t hi);
double parse_real(const std::string& key, const std::string& text, double lo, double hi);
}  // namespace setting_text_detail

// A number in [lo, hi]. Unsigned types take whole numbers ("-0" is 0; any
// other negative number is out of range); double takes decimal and
// exponent forms.
template <typename T>
T parse_number(const std::string& key, const std::string& text, std::type_identity_t<T> lo,
               std::type_identity_t<T> hi) {
  static_assert(std::is_same_v<T, double> || (std::is_unsigned_v<T> && !std::is_same_v<T, bool>),
                "settings are unsigned whole numbers or doubles");
  if constexpr (std::is_same_v<T, double>) {
    return setting_text_detail::parse_real(key, text, lo, hi);
  } else {
    return static_cast<T>(setting_text_detail::parse_unsigned(key, text, lo, hi));
  }
}

// true, 1, yes, on / false, 0, no, off.
bool parse_flag(const std::string& key, const std::string& text);

// A duration given in milliseconds (fractions allowed), in [lo_ms, hi_ms].
Micros parse_millis(const std::string& key, const std::string& text, double lo_ms, double hi_ms);

// `text` as it is, refused if it holds a NUL byte (paths, names, parameters).
std::string parse_text(const std::string& key, const std::string& text);

// The shortest text that reads back as the same value, so printed
// settings round-trip.
template <typename T>
std::string exact_text(T v) {
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, ptr) : std::string();
}

// A Micros duration as milliseconds, the form parse_millis reads.
std::string millis_text(Micros v);

}  // namespace dissem
