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

}  // namespace dissem::net
