// A number kept as text in the node state (cache::Store::get_state): the
// whole text in base 10, or nothing.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace dissem::engine {

template <class T>
std::optional<T> parse_state_number(std::string_view text) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace dissem::engine
