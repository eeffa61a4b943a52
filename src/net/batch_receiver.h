// Reads what a UDP socket holds in one recvmmsg(2) call, into buffers it
// owns, and splits buffers the kernel coalesced (UDP generic receive
// offload, UDP_GRO: equal-sized datagrams of one sender delivered as one
// buffer plus their size) back into datagrams. The datagrams it yields stay
// valid until the next receive().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>

namespace dissem::net {

struct TransportCounters;

struct ReceivedDatagram {
  std::span<const std::uint8_t> bytes;
  sockaddr_storage from{};  // sockaddr_in or sockaddr_in6, by the socket's family
};

class BatchReceiver {
 public:
  // `slots` buffers of `slot_bytes` each; memory is touched only as used.
  BatchReceiver(std::size_t slots, std::size_t slot_bytes);

  // Reads, without blocking, up to `slots` buffers from `fd`. Returns false
  // if the socket held nothing (or failed; counted). The datagrams read are
  // in datagrams() until the next call.
  bool receive(int fd, TransportCounters& counters);
  const std::vector<ReceivedDatagram>& datagrams() const { return datagrams_; }

 private:
  void split(std::size_t slot, std::size_t length, TransportCounters& counters);

  std::size_t slots_;
  std::size_t slot_bytes_;
  std::unique_ptr<std::uint8_t[]> buffers_;
  std::vector<iovec> iov_;
  std::vector<sockaddr_storage> names_;
  std::vector<unsigned char> control_;
  std::vector<mmsghdr> headers_;
  std::vector<ReceivedDatagram> datagrams_;
};

}  // namespace dissem::net
