#include "net/interface_info.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace dissem::net {
namespace {

using boost::asio::ip::address_v4;

address_v4 to_address(const sockaddr* sa) {
  const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
  return address_v4(ntohl(in->sin_addr.s_addr));
}

// A /31 or /32 subnet has no room for a broadcast address (RFC 3021).
std::optional<address_v4> subnet_broadcast(address_v4 address, address_v4 netmask) {
  const auto mask = netmask.to_uint();
  if ((~mask) < 3u) return std::nullopt;
  return address_v4(address.to_uint() | ~mask);
}

InterfaceInfo describe(const ifaddrs& ifa) {
  InterfaceInfo info;
  info.name = ifa.ifa_name;
  info.index = if_nametoindex(ifa.ifa_name);
  info.address = to_address(ifa.ifa_addr);
  if (ifa.ifa_netmask != nullptr) info.netmask = to_address(ifa.ifa_netmask);
  info.up = (ifa.ifa_flags & IFF_UP) != 0;
  info.loopback = (ifa.ifa_flags & IFF_LOOPBACK) != 0;
  if ((ifa.ifa_flags & IFF_BROADCAST) != 0 && ifa.ifa_broadaddr != nullptr &&
      ifa.ifa_broadaddr->sa_family == AF_INET) {
    // An address added without "brd" has no broadcast address, and getifaddrs
    // then reports the interface's own address in its place: sending there
    // would reach nobody else.
    const auto brd = to_address(ifa.ifa_broadaddr);
    if (brd != info.address && !brd.is_unspecified()) info.broadcast = brd;
  } else if (info.loopback) {
    info.broadcast = subnet_broadcast(info.address, info.netmask);
  }
  return info;
}

}  // namespace

std::vector<InterfaceInfo> list_interfaces() {
  ifaddrs* head = nullptr;
  if (getifaddrs(&head) != 0)
    throw std::runtime_error(std::string("getifaddrs: ") + std::strerror(errno));
  std::unique_ptr<ifaddrs, decltype(&freeifaddrs)> guard(head, &freeifaddrs);

  std::vector<InterfaceInfo> out;
  for (const ifaddrs* ifa = head; ifa != nullptr; ifa = ifa->ifa_next) {
    if (ifa->ifa_addr == nullptr || ifa->ifa_addr->sa_family != AF_INET) continue;
    out.push_back(describe(*ifa));
  }
  return out;
}

InterfaceInfo find_interface(const std::string& name) {
  const auto all = list_interfaces();
  for (const auto& info : all)
    if (info.name == name) return info;

  std::string known;
  for (const auto& info : all) {
    if (!known.empty()) known += ", ";
    known += info.name + " (" + info.address.to_string() + ")";
  }
  throw std::runtime_error("network interface '" + name + "' not found or has no IPv4 address; available: " +
                           (known.empty() ? std::string("none") : known));
}

InterfaceInfo find_interface_v6(const std::string& name) {
  ifaddrs* head = nullptr;
  if (getifaddrs(&head) != 0) throw std::runtime_error(std::string("getifaddrs: ") + std::strerror(errno));
  std::unique_ptr<ifaddrs, decltype(&freeifaddrs)> guard(head, &freeifaddrs);
  bool exists = false;
  for (const ifaddrs* ifa = head; ifa != nullptr; ifa = ifa->ifa_next) {
    if (name != ifa->ifa_name) continue;
    exists = true;
    if (ifa->ifa_addr == nullptr || ifa->ifa_addr->sa_family != AF_INET6) continue;
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(ifa->ifa_addr);
    boost::asio::ip::address_v6::bytes_type bytes;
    std::memcpy(bytes.data(), &in6->sin6_addr, bytes.size());
    const boost::asio::ip::address_v6 address(bytes, if_nametoindex(ifa->ifa_name));
    if (!address.is_link_local()) continue;
    InterfaceInfo info;
    info.name = name;
    info.index = static_cast<unsigned>(address.scope_id());
    info.up = (ifa->ifa_flags & IFF_UP) != 0;
    info.loopback = (ifa->ifa_flags & IFF_LOOPBACK) != 0;
    info.link_local = address;
    return info;
  }
  throw std::runtime_error("network interface '" + name + "' " +
                           (exists ? "has no IPv6 link-local address (fe80::/10): is IPv6 disabled on it, or the "
                                     "link down? (Linux routes no IPv6 multicast on lo: use another interface)"
                                   : std::string("not found")));
}

std::uint32_t interface_mtu(const std::string& name) {
  if (name.size() >= IFNAMSIZ) throw std::runtime_error("interface name '" + name + "' is too long");
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  ifreq req{};
  std::memcpy(req.ifr_name, name.c_str(), name.size() + 1);
  const int rc = ::ioctl(fd, SIOCGIFMTU, &req);
  const int err = errno;
  ::close(fd);
  if (rc != 0 || req.ifr_mtu <= 0) {
    std::string msg = "interface '";
    msg += name;
    msg += "': cannot read its MTU: ";
    msg += std::strerror(err);
    throw std::runtime_error(msg);
  }
  return static_cast<std::uint32_t>(req.ifr_mtu);
}

namespace {

// Binding a socket to the address fails with EADDRNOTAVAIL while it is tentative.
std::string bind_probe(const boost::asio::ip::address_v6& link_local) {
  const int fd = ::socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::string("socket: ") + std::strerror(errno);
  sockaddr_in6 at{};
  at.sin6_family = AF_INET6;
  const auto bytes = link_local.to_bytes();
  std::memcpy(&at.sin6_addr, bytes.data(), bytes.size());
  at.sin6_scope_id = static_cast<std::uint32_t>(link_local.scope_id());
  const int rc = ::bind(fd, reinterpret_cast<const sockaddr*>(&at), sizeof at);
  const int err = errno;
  ::close(fd);
  if (rc == 0) return {};
  if (err == EADDRNOTAVAIL)
    return "its link-local address " + link_local.to_string() + " is still tentative (duplicate address detection)";
  return "bind to " + link_local.to_string() + ": " + std::strerror(err);
}

}  // namespace

std::string interface_not_ready(const std::string& name, bool ipv6) {
  try {
    if (!ipv6) {
      find_interface(name);
      return {};
    }
    return bind_probe(*find_interface_v6(name).link_local);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

}  // namespace dissem::net
