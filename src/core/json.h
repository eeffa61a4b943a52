// How the project's programs write JSON: one library, nlohmann-json. Objects
// are nlohmann::ordered_json, so members appear in the order they were added
// (people read these results, and tests compare some of them as text). Header
// only; a target that includes it links nlohmann_json::nlohmann_json.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

namespace dissem {

using Json = nlohmann::ordered_json;

// The text of `j`: one line when indent < 0. Strings are written as UTF-8,
// with quotes, backslashes and control characters escaped; bytes that are not
// UTF-8 become U+FFFD rather than an error. Non-finite numbers become null.
inline std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// An empty optional is null.
template <typename T>
Json json_or_null(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

namespace json_detail {

// `v` written with std::to_chars in `format` at `precision`, read back.
inline double read_back(double v, std::chars_format format, int precision) {
  char text[400];  // enough for any double in fixed notation with 6 decimals
  const auto written = std::to_chars(text, text + sizeof text, v, format, precision);
  if (written.ec != std::errc()) return v;
  double out = v;
  std::from_chars(text, written.ptr, out);
  return out;
}

}  // namespace json_detail

// The number that `v` written with `places` decimals ("%.6f") reads back as:
// results keep the precision they always had (microseconds, say), whatever
// shortest form the writer then picks for it.
inline double round_to_decimals(double v, int places) {
  return json_detail::read_back(v, std::chars_format::fixed, places);
}

// The number that `v` written with `digits` significant digits ("%.6g") reads
// back as.
inline double round_to_significant(double v, int digits) {
  return json_detail::read_back(v, std::chars_format::general, digits);
}

}  // namespace dissem
