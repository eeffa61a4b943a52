// dissemd's command line: where the configuration comes from and what to do
// with it. Precedence, later winning: defaults, --config FILE, each --set in
// the order given, then the direct flags (--interface, --port, --cache,
// --socket, --node-id, --log-level).
#pragma once

#include <string>

#include "daemon/daemon_config.h"

namespace dissem::daemon {

enum class StartAction {
  Run,          // start the daemon with `config`
  PrintConfig,  // print to_toml(config) and exit 0
  Help,         // print `help` and exit 0
  Version,      // print version_line("dissemd") and exit 0
};

struct DaemonArgs {
  DaemonConfig config;
  StartAction action = StartAction::Run;
  std::string help;  // the usage text (always filled)
};

// Throws ConfigError with a message for the operator (a bad option, an
// unreadable file, or a key error naming the key).
DaemonArgs parse_daemon_args(int argc, const char* const* argv, const RuntimeEnvironment& env);
// With the process's own environment.
DaemonArgs parse_daemon_args(int argc, const char* const* argv);

}  // namespace dissem::daemon
