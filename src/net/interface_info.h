// Network interface discovery: the IPv4 address and broadcast address of an
// interface named in the configuration, or its IPv6 link-local address, so
// every socket can be pinned to it instead of following the default route.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/address_v6.hpp>

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
  // IPv6 (find_interface_v6): the link-local address (fe80::/10) with the
  // interface's index as its scope; `address` then is unspecified.
  std::optional<boost::asio::ip::address_v6> link_local;
};

// The interface's MTU (SIOCGIFMTU). Throws std::runtime_error naming it.
std::uint32_t interface_mtu(const std::string& name);

// One entry per IPv4 address, in the kernel's order (an interface's primary
// address comes first).
std::vector<InterfaceInfo> list_interfaces();

// The interface named `name` (its first IPv4 address). Throws
// std::runtime_error naming it and listing the interfaces that do exist.
InterfaceInfo find_interface(const std::string& name);

// The interface named `name` with its IPv6 link-local address. Throws
// std::runtime_error naming it when it does not exist or has no link-local
// address (IPv6 disabled on it, or the link is down).
InterfaceInfo find_interface_v6(const std::string& name);

// Empty when interface `name` can take the sockets now: it exists with an
// IPv4 address, or (ipv6) with a link-local address that is no longer
// tentative (duplicate address detection holds a new one unusable for a
// second or so after the link comes up). Else why not, for the operator.
std::string interface_not_ready(const std::string& name, bool ipv6);

}  // namespace dissem::net
