// The little JSON the emulator writes (the ready line and the stats file) is
// built by hand with fmt; this quotes and escapes a string for it.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace dissem::emu {

inline std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (char c : text) {
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out.append(fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c))));
        else
          out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace dissem::emu
