// Start-up on a host whose radios are still coming up: at boot a USB radio
// may not have enumerated yet, an IPv4 address may not be assigned yet, and
// a new IPv6 link-local address is unusable for a second or so while
// duplicate address detection runs. Rather than fail (and, under systemd,
// restart into its start limit), dissemd waits for its interfaces for at
// most net.interface_wait_s, saying which one it waits for and why.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "daemon/daemon_config.h"

namespace dissem::daemon {

// Empty when interface `name` can take the sockets now, else why not
// (net::interface_not_ready).
using ReadinessProbe = std::function<std::string(const std::string& name, bool ipv6)>;

// Returns once every interface of `net` is ready; checks every `poll`, for
// at most net.interface_wait_s (0: once), logging what an interface it
// waits for lacks, and again when that changes. Throws std::runtime_error
// naming the interface, what it lacks and, when it waited, the key.
void wait_for_interfaces(const NetSection& net, const ReadinessProbe& probe,
                         std::chrono::milliseconds poll = std::chrono::milliseconds(250));

}  // namespace dissem::daemon
