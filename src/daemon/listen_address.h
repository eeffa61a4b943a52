// The address a daemon's TCP endpoint listens on, as an operator writes it:
// "127.0.0.1:9464", "[::1]:9464", "0.0.0.0:9464". Literal addresses only (no
// names to resolve at start-up); the port 1-65535.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <boost/asio/ip/address.hpp>

namespace dissem::daemon {

struct ListenAddress {
  boost::asio::ip::address address;
  std::uint16_t port = 0;
};

// nullopt, with `why` set, when `text` is not such an address.
std::optional<ListenAddress> parse_listen_address(const std::string& text, std::string& why);

}  // namespace dissem::daemon
