// Network interface discovery: the IPv4 address and broadcast address of an
// interface named in the configuration, so every socket can be pinned to it
// instead of following the default route.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/ip/address_v4.hpp>

namespace dissem::net {

struct InterfaceInfo {
  std::string name;
  unsigned index = 0;  // kernel interface index (if_nametoindex)
  boost::asio::ip::address_v4 address;
  boost::asio::ip::address_v4 netmask;
  // Where broadcast mode sends. Set for interfaces with IFF_BROADCAST (the
  // kernel's broadcast address) and for loopback, which has no IFF_BROADCAST
  // but for which Linux installs a broadcast route to the top of its subnet
  // (127.255.255.255). Point-to-point and /32 interfaces have none, nor has
  // an address added without a broadcast address ("ip addr add A/24" without
  // "brd +"): the kernel then treats the subnet's top address as unicast.
  std::optional<boost::asio::ip::address_v4> broadcast;
  bool up = false;
  bool loopback = false;
};

// The interface's MTU (SIOCGIFMTU). Throws std::runtime_error naming it.
std::uint32_t interface_mtu(const std::string& name);

// One entry per IPv4 address, in the kernel's order (an interface's primary
// address comes first).
std::vector<InterfaceInfo> list_interfaces();

// The interface named `name` (its first IPv4 address). Throws
// std::runtime_error naming it and listing the interfaces that do exist.
InterfaceInfo find_interface(const std::string& name);

}  // namespace dissem::net
