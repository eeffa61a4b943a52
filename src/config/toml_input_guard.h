// Configuration text the TOML parser cannot be trusted with: checked before
// dissemd's configuration files and dissem-sim's scenario files are parsed.
//
// toml++ 3.3.0 (Debian 12) reaches __builtin_unreachable, undefined
// behaviour, when it asks whether certain non-ASCII characters are
// whitespace (is_non_ascii_horizontal_whitespace: U+00A1..U+0499,
// U+2C5E..U+2FFF, U+3001..U+3057 and U+FB26..U+FEFE fall through its
// lookup table). It asks in many places (between tokens, while recording a
// value, after a line-ending backslash), so those characters are refused
// wherever they stand, with their line, before the parser sees the text.
// Found by the configuration fuzzer (tests/fuzz/config_fuzzer.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dissem::config {

// What is wrong with `text` (naming `source`, the line and the character),
// or nullopt when the parser may have it.
std::optional<std::string> toml_input_problem(std::string_view text, const std::string& source);

}  // namespace dissem::config
