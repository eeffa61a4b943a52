// One network the daemon is on, with a node (engine) of its own: the main
// link (the interfaces without a link of their own, and this host's
// applications), or an interface whose [net.interface.NAME] table gives it
// its own link_capacity_bps. Each has its own cache (a link of its own:
// beside cache.path, "cache.hf0.db" for cache.db), node id, pacer, queues,
// neighbours, beacons, requests and repairs; daemon/link_bridge.h carries
// messages between them.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/daemon_config.h"
#include "engine/node.h"
#include "net/udp_transport.h"

namespace dissem::daemon {

// The main link's name (the others are named for their interface).
inline constexpr std::string_view kMainLink = "main";

struct NodeLink {
  std::string name;  // kMainLink, or the interface
  std::unique_ptr<engine::Node> node;
  std::vector<std::unique_ptr<net::UdpTransport>> transports;
  std::vector<std::span<const std::uint8_t>> burst;  // the current receive burst, in the transports' buffers
  std::string described;  // "eth0 239.255.42.99:42424, wlan0 [ff02::4242%wlan0]:42424; fragments of 1380 bytes"
};

// The interfaces of the main link: those without a link of their own, or,
// when every interface has one, the first.
std::vector<std::string> main_link_interfaces(const NetSection& net);
// The interfaces with a link of their own, but for one that is the main link.
std::vector<std::string> own_link_interfaces(const NetSection& net);

// The cache of interface `name`'s own link, beside `main_path`:
// /var/lib/dissem/cache.db -> /var/lib/dissem/cache.hf0.db.
std::string own_link_cache_path(const std::string& main_path, const std::string& name);

// Opens the link's cache (creating its directory), settles its node id
// (configured: only the main link's; else the one persisted in its cache,
// else a new random one, then persisted), builds its engine and binds its
// transports. `name` is kMainLink or the interface. Throws std::runtime_error
// (or cache::StoreError, ConfigError) with a message for the operator.
NodeLink open_link(boost::asio::io_context& io, const DaemonConfig& config, const std::string& name, Micros now);

}  // namespace dissem::daemon
