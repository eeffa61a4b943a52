// Names the emulator and the scenario language give to Linux objects
// (interfaces, network namespaces): letters, digits, '_', '.' and '-' only,
// so they need no quoting in an `ip` command or a shell, and never "." or
// "..". The kernel itself takes more (daemon/daemon_keys.cpp checks an
// operator's interface names by its rules).
#pragma once

#include <cstddef>
#include <string_view>

namespace dissem {

// Linux interface names hold at most IFNAMSIZ - 1 characters.
inline constexpr std::size_t kMaxInterfaceName = 15;

inline bool is_plain_name(std::string_view name, std::size_t longest) {
  if (name.empty() || name.size() > longest || name == "." || name == "..") return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
          c == '.'))
      return false;
  return true;
}

inline bool is_plain_interface_name(std::string_view name) { return is_plain_name(name, kMaxInterfaceName); }

}  // namespace dissem
