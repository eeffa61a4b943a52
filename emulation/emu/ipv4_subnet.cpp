#include "ipv4_subnet.h"

#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

namespace dissem::emu {

std::string format_ipv4(std::uint32_t a) {
  return fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
}

std::string Ipv4Subnet::to_string() const {
  std::string out = format_ipv4(network);
  out.append("/").append(std::to_string(prefix_length));
  return out;
}

Ipv4Subnet parse_ipv4_subnet(std::string_view text) {
  const auto fail = [&](std::string_view why) {
    std::string message = "'";
    message.append(text).append("' ").append(why);
    throw std::invalid_argument(message);
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) fail("is not of the form a.b.c.d/prefix_length");

  std::uint32_t address = 0;
  const char* p = text.data();
  const char* const address_end = text.data() + slash;
  for (int octet = 0; octet < 4; ++octet) {
    unsigned value = 0;
    const auto [next, ec] = std::from_chars(p, address_end, value);
    if (ec != std::errc{} || next == p || value > 255) fail("has a bad IPv4 address");
    address = (address << 8) | value;
    p = next;
    if (octet < 3) {
      if (p == address_end || *p != '.') fail("has a bad IPv4 address");
      ++p;
    }
  }
  if (p != address_end) fail("has a bad IPv4 address");

  int length = 0;
  const char* const end = text.data() + text.size();
  const auto [next, ec] = std::from_chars(text.data() + slash + 1, end, length);
  if (ec != std::errc{} || next != end || next == text.data() + slash + 1) fail("has a bad prefix length");
  if (length < 8 || length > 30) fail("needs a prefix length in 8..30");

  Ipv4Subnet subnet;
  subnet.prefix_length = length;
  subnet.network = address;
  const std::uint32_t host_mask = static_cast<std::uint32_t>((std::uint64_t{1} << (32 - length)) - 1);
  if ((address & host_mask) != 0) fail("has host bits set (give the network address)");
  return subnet;
}

}  // namespace dissem::emu
