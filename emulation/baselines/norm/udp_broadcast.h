// Broadcast sessions: NORM 1.5.9 never sets SO_BROADCAST on its sockets, so
// every send to a broadcast address (e.g. 10.0.0.255) fails with EACCES
// (NORM_SEND_ERROR; seen with strace). The API does not expose the sockets.
#pragma once

#include <string>

namespace dissem::norm_baseline {

// True when `address` is an IPv4 address outside 224.0.0.0/4, i.e. a
// broadcast (or unicast) session address.
bool needs_broadcast_permission(const std::string& address);

// Sets SO_BROADCAST on every IPv4 UDP socket of this process, which in
// dissem-norm are all NORM's own; call after NormStartSender/Receiver, which
// open them. Returns how many sockets were changed.
int allow_broadcast_on_udp_sockets();

}  // namespace dissem::norm_baseline
