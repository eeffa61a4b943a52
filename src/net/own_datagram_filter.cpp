#include "net/own_datagram_filter.h"

#include <linux/filter.h>
#include <sys/socket.h>

#include <array>

namespace dissem::net {

bool attach_own_datagram_filter(int fd, const boost::asio::ip::address_v4& address, std::uint16_t port) {
  // Loads of packet data are in network order and come out in host order.
  // On a UDP socket the filter sees the packet from the UDP header on;
  // SKF_NET_OFF reaches back to the IPv4 header (source address at 12).
  std::array<sock_filter, 6> code{{
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(SKF_NET_OFF + 12)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, address.to_uint(), 0, 3),  // another address: accept
      BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0),                          // UDP source port
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 1),                // another port: accept
      BPF_STMT(BPF_RET | BPF_K, 0),                                   // ours: drop
      BPF_STMT(BPF_RET | BPF_K, 0xffffffffu),                         // accept whole
  }};
  sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
  return ::setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) == 0;
}

bool attach_own_datagram_filter(int fd, const boost::asio::ip::address_v6& address, std::uint16_t port) {
  // SKF_NET_OFF reaches back to the IPv6 header: the source address is the
  // four words from 8 on. Any word that differs: another sender, accepted.
  const auto bytes = address.to_bytes();
  std::array<sock_filter, 12> code{};
  constexpr std::uint8_t kAccept = 11;
  for (std::uint8_t i = 0; i < 4; ++i) {
    const std::uint32_t word = (std::uint32_t{bytes[4 * i]} << 24) | (std::uint32_t{bytes[4 * i + 1]} << 16) |
                               (std::uint32_t{bytes[4 * i + 2]} << 8) | std::uint32_t{bytes[4 * i + 3]};
    const std::uint8_t at = static_cast<std::uint8_t>(2 * i);
    code[at] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(SKF_NET_OFF + 8 + 4 * i));
    code[at + 1] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, word, 0, static_cast<std::uint8_t>(kAccept - at - 2));
  }
  code[8] = BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0);             // UDP source port
  code[9] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 1);  // another port: accept
  code[10] = BPF_STMT(BPF_RET | BPF_K, 0);                     // ours: drop
  code[kAccept] = BPF_STMT(BPF_RET | BPF_K, 0xffffffffu);      // accept whole
  sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
  return ::setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) == 0;
}

}  // namespace dissem::net
