// Minimal levelled logging to stderr (systemd's journal takes it from there).
// No per-packet logging happens at the default level.
#pragma once

#include <cstdio>
#include <fmt/core.h>

#include "daemon/daemon_config.h"

namespace dissem::daemon {

// Set once at start-up from the configuration.
inline LogLevel& log_threshold() {
  static LogLevel level = LogLevel::Info;
  return level;
}

template <typename... Args>
void log(LogLevel level, fmt::format_string<Args...> format, Args&&... args) {
  if (static_cast<int>(level) > static_cast<int>(log_threshold())) return;
  fmt::print(stderr, "dissemd {}: {}\n", to_string(level), fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace dissem::daemon
