// A minimal streaming JSON writer for the one-line result object (the project
// has no JSON dependency, and the result needs only objects, arrays, strings,
// numbers and booleans). Misuse (a value without a key in an object,
// unbalanced ends) is a programming error and is not diagnosed.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dissem::baseline {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  // Non-finite numbers are not JSON; they are written as null.
  JsonWriter& value(double number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number);
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  JsonWriter& value(T number) {
    if constexpr (std::is_signed_v<T>) return value(static_cast<std::int64_t>(number));
    else return value(static_cast<std::uint64_t>(number));
  }
  // An empty optional is written as null.
  template <typename T>
  JsonWriter& value(const std::optional<T>& v) {
    return v ? value(*v) : null();
  }
  JsonWriter& null();

  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  const std::string& str() const { return out_; }

 private:
  void before_value();

  std::string out_;
  std::vector<bool> has_element_;  // one entry per open object/array
  bool after_key_ = false;
};

}  // namespace dissem::baseline
