// UTF-8 validation for the names and tags of hand-framed data frames, which
// protobuf's string fields would otherwise refuse later (at the IPC API):
// a datagram with a malformed name is refused at the gate instead.
#pragma once

#include <cstdint>
#include <string_view>

namespace dissem::wire {

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
constexpr bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<std::uint8_t>(s[i]);
    std::size_t extra = 0;
    std::uint32_t cp = 0;
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      extra = 1;
      cp = b & 0x1fu;
    } else if (b >= 0xe0 && b <= 0xef) {
      extra = 2;
      cp = b & 0x0fu;
    } else if (b >= 0xf0 && b <= 0xf4) {
      extra = 3;
      cp = b & 0x07u;
    } else {
      return false;
    }
    if (s.size() - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto c = static_cast<std::uint8_t>(s[i + k]);
      if ((c & 0xc0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3fu);
    }
    if ((extra == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (extra == 3 && (cp < 0x10000 || cp > 0x10ffff)))
      return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace dissem::wire
