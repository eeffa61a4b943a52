#include "config/toml_input_guard.h"

#include <fmt/format.h>

namespace dissem::config {
namespace {

// The code points toml++ 3.3.0's whitespace lookup does not cover.
bool mishandled(char32_t c) {
  return (c >= 0xA1 && c <= 0x499) || (c >= 0x2C5E && c <= 0x2FFF) || (c >= 0x3001 && c <= 0x3057) ||
         (c >= 0xFB26 && c <= 0xFEFE);
}

}  // namespace

std::optional<std::string> toml_input_problem(std::string_view text, const std::string& source) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    if (b0 == '\n') ++line;
    // Two- and three-byte UTF-8 sequences hold every such code point;
    // anything malformed is left to the parser, which refuses it.
    char32_t c = 0;
    if ((b0 & 0xE0) == 0xC0 && i + 1 < text.size()) {
      c = (b0 & 0x1Fu) << 6 | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu);
    } else if ((b0 & 0xF0) == 0xE0 && i + 2 < text.size()) {
      c = (b0 & 0x0Fu) << 12 | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6 |
          (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
    }
    if (mishandled(c))
      return fmt::format("{}:{}: character U+{:04X} is not supported in configuration files (the TOML parser, "
                         "toml++ 3.3.0, mishandles it); remove it",
                         source, line, static_cast<unsigned>(c));
  }
  return std::nullopt;
}

}  // namespace dissem::config
