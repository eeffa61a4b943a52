// Classic BPF programs on the kernel UDP socket OpenPGM receives on
// (PGM_RECV_SOCK). Neither needs privileges.
#pragma once

namespace dissem::pgm_baseline {

// --rx-loss: OpenPGM 5.3 simulates receive loss only in debug builds
// (PGM_LOSS_RATE), which Debian's is not. Instead a socket filter makes the
// kernel drop a random share of the arriving data packets (ODATA and RDATA)
// before PGM reads them, so the receiver must NAK and the sender repair.
// Control packets (SPM, NCF, NAK) always pass. Throws PgmError if refused.
void attach_rx_loss_filter(int udp_socket, double percent);

// --loopback: every PGM process binds its receive socket to 0.0.0.0:PORT with
// SO_REUSEPORT, and the kernel spreads unicast datagrams (the NAKs, sent to
// the sender's address) over those sockets by a hash, so most NAKs would
// reach some receiver instead of the sender. This steers every unicast
// datagram for the port to the group's first socket: the sender's, when it
// was started first. (Multicast still reaches every socket.) Throws PgmError
// if refused.
void steer_unicast_to_first_socket(int udp_socket);

}  // namespace dissem::pgm_baseline
