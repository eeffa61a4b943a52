#include "socket_filters.h"

#include <fmt/format.h>
#include <linux/filter.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "pgm_socket.h"

namespace dissem::pgm_baseline {
namespace {

// A UDP socket's filter sees the datagram from its UDP header: 8 bytes of
// UDP, then the PGM header, whose type is its fifth byte.
constexpr std::uint32_t kPgmTypeOffset = 8 + 4;
constexpr std::uint32_t kPgmOdata = 0x04;
constexpr std::uint32_t kPgmRdata = 0x05;

sock_filter statement(std::uint16_t code, std::uint32_t k) { return sock_filter{code, 0, 0, k}; }
sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t jt, std::uint8_t jf) {
  return sock_filter{code, jt, jf, k};
}

}  // namespace

void attach_rx_loss_filter(int udp_socket, double percent) {
  // Drop when a random 32-bit number is below percent% of 2^32.
  double scaled = std::floor(percent / 100.0 * 4294967296.0);
  auto threshold = static_cast<std::uint32_t>(std::min(scaled, 4294967295.0));
  std::array<sock_filter, 7> program = {
      statement(BPF_LD | BPF_B | BPF_ABS, kPgmTypeOffset),                      // 0: A = PGM type
      jump(BPF_JMP | BPF_JEQ | BPF_K, kPgmOdata, 1, 0),                         // 1: ODATA -> 3
      jump(BPF_JMP | BPF_JEQ | BPF_K, kPgmRdata, 0, 3),                         // 2: RDATA -> 3, else -> 6
      statement(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(SKF_AD_OFF + SKF_AD_RANDOM)),  // 3: A = random
      jump(BPF_JMP | BPF_JGE | BPF_K, threshold, 1, 0),                         // 4: A >= threshold -> 6
      statement(BPF_RET | BPF_K, 0),                                            // 5: drop
      statement(BPF_RET | BPF_K, 0xFFFFFFFFu),                                  // 6: keep all of it
  };
  sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
  if (setsockopt(udp_socket, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof fprog) != 0) {
    throw PgmError(fmt::format("SO_ATTACH_FILTER: {}", std::strerror(errno)));
  }
}

void steer_unicast_to_first_socket(int udp_socket) {
  // A reuseport program returns the index of the socket to deliver to.
  std::array<sock_filter, 1> program = {statement(BPF_RET | BPF_K, 0)};
  sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
  if (setsockopt(udp_socket, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &fprog, sizeof fprog) != 0) {
    throw PgmError(fmt::format("SO_ATTACH_REUSEPORT_CBPF: {}", std::strerror(errno)));
  }
}

}  // namespace dissem::pgm_baseline
