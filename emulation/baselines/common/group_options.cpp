#include "group_options.h"

#include <CLI/CLI.hpp>
#include <arpa/inet.h>
#include <net/if.h>

#include "command_line.h"

namespace dissem::baseline {

void add_interface_option(CLI::App& cmd, std::string& interface) {
  cmd.add_option("--interface", interface, "multicast interface (needed in a namespace without a default route)");
}

void add_time_limit_option(CLI::App& cmd, double& seconds) {
  cmd.add_option("--time-limit", seconds, "hard bound in seconds; exit 1 with a partial result")
      ->capture_default_str()
      ->check(CLI::Range(1e-3, 86400.0));
}

std::uint32_t check_ipv4_group(const std::string& group) {
  in_addr addr{};
  if (inet_pton(AF_INET, group.c_str(), &addr) != 1) {
    throw UsageError("--group: '" + group + "' is not an IPv4 address");
  }
  return ntohl(addr.s_addr);
}

void check_interface(const std::string& interface, const char* forbidden) {
  if (interface.empty()) return;
  if (interface.find_first_of(forbidden) != std::string::npos || if_nametoindex(interface.c_str()) == 0) {
    throw UsageError("--interface: no network interface named '" + interface + "'");
  }
}

}  // namespace dissem::baseline
