// The --subnet option: node i gets address <network> + i.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dissem::emu {

struct Ipv4Subnet {
  std::uint32_t network = 0;  // host byte order, host bits zero
  int prefix_length = 24;

  // Highest node id that gets an address below the broadcast address.
  std::uint64_t max_host_id() const { return (std::uint64_t{1} << (32 - prefix_length)) - 2; }
  std::uint32_t broadcast() const {
    return network | static_cast<std::uint32_t>((std::uint64_t{1} << (32 - prefix_length)) - 1);
  }
  std::uint32_t host(std::uint64_t id) const { return network + static_cast<std::uint32_t>(id); }
  std::string to_string() const;
};

std::string format_ipv4(std::uint32_t address);

// "a.b.c.d/len" with len in 8..30 and no host bits set; throws
// std::invalid_argument saying what is wrong.
Ipv4Subnet parse_ipv4_subnet(std::string_view text);

}  // namespace dissem::emu
