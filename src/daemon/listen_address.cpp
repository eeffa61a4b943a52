#include "daemon/listen_address.h"

#include <charconv>

namespace dissem::daemon {

std::optional<ListenAddress> parse_listen_address(const std::string& text, std::string& why) {
  std::string host, port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      why = "an IPv6 address is written [ADDRESS]:PORT";
      return std::nullopt;
    }
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || text.find(':') != colon) {
      why = "not ADDRESS:PORT (an IPv6 address goes in brackets: [::1]:9464)";
      return std::nullopt;
    }
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  boost::system::error_code ec;
  ListenAddress out;
  out.address = boost::asio::ip::make_address(host, ec);
  if (ec || (text.front() == '[') != out.address.is_v6()) {
    why = "'" + host + "' is not an IP address literal";
    return std::nullopt;
  }
  unsigned value = 0;
  const auto [end, err] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || err != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
    why = "port '" + port + "' is not in [1, 65535]";
    return std::nullopt;
  }
  out.port = static_cast<std::uint16_t>(value);
  return out;
}

}  // namespace dissem::daemon
