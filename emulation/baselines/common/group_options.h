// Options that dissem-norm and dissem-pgm, both on an IPv4 multicast group,
// take alike: --interface and --time-limit, and the checks of --group and
// --interface that CLI11 cannot make (they throw UsageError).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace dissem::baseline {

// --interface NAME: the multicast interface.
void add_interface_option(CLI::App& cmd, std::string& interface);
// --time-limit SECONDS: a hard bound; exit 1 with a partial result.
void add_time_limit_option(CLI::App& cmd, double& seconds);

// --group: must be an IPv4 address; returns it in host byte order.
std::uint32_t check_ipv4_group(const std::string& group);
// --interface: empty (the routing table decides), or the name of a network
// interface holding none of the characters in `forbidden`.
void check_interface(const std::string& interface, const char* forbidden = "");

}  // namespace dissem::baseline
