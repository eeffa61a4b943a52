// What a reload (SIGHUP, `dissem reload`) does with the configuration read
// again from the same command line and file: which changed keys a running
// daemon takes, and which wait for a restart.
//
// Taken while running:
// - log.level;
// - every security.* key, and the key files are read again even when their
//   names did not change: new epochs, send_from times, revoked epochs and
//   publishers (engine::Node::set_security);
// - metrics.enabled and metrics.listen (the endpoint is opened anew);
// - ipc.mode (the socket file's permissions);
// - the engine keys a running node reads at each use
//   (engine::live_config_key: request_probability, cache_full, ...).
// Every other key keeps its running value and is named as needing a
// restart. A file that does not parse, a key file that does not read, or keys
// the node cannot change to (turning the network key on or off) refuse the
// reload whole: nothing changes, and the error names the key.
#pragma once

#include <string>
#include <vector>

#include "daemon/daemon_config.h"

namespace dissem::daemon {

// Whether a running daemon takes a new value of `key` (its full name).
bool reloadable_key(const std::string& key);

struct ReloadPlan {
  std::vector<std::string> live;     // changed keys the running daemon takes
  std::vector<std::string> restart;  // changed keys that keep their running value until a restart
};

// The keys whose values differ between `running` and `next`, in print order.
ReloadPlan plan_reload(const DaemonConfig& running, const DaemonConfig& next);

// `running` with the reloadable keys of `next` (what the daemon runs with
// after a reload).
DaemonConfig reloaded_config(const DaemonConfig& running, const DaemonConfig& next);

}  // namespace dissem::daemon
