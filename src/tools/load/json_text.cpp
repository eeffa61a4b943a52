#include "tools/load/json_text.h"

#include <fmt/format.h>

namespace dissem::load {

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(u));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace dissem::load
