#include "net/batch_receiver.h"

#include <netinet/udp.h>

#include <cerrno>
#include <cstring>

#include "net/udp_transport.h"

namespace dissem::net {
namespace {

constexpr std::size_t kReceiveControlBytes = CMSG_SPACE(sizeof(int));

// The segment size of a coalesced buffer, or 0 if it holds one datagram.
std::size_t segment_size(const msghdr& h) {
  for (const cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(const_cast<msghdr*>(&h), const_cast<cmsghdr*>(c))) {
    if (c->cmsg_level != SOL_UDP || c->cmsg_type != UDP_GRO) continue;
    int size = 0;
    std::memcpy(&size, CMSG_DATA(c), sizeof size);
    return size > 0 ? static_cast<std::size_t>(size) : 0;
  }
  return 0;
}

}  // namespace

BatchReceiver::BatchReceiver(std::size_t slots, std::size_t slot_bytes)
    : slots_(slots),
      slot_bytes_(slot_bytes),
      buffers_(std::make_unique_for_overwrite<std::uint8_t[]>(slots * slot_bytes)),
      iov_(slots),
      names_(slots),
      control_(slots * kReceiveControlBytes),
      headers_(slots) {
  for (std::size_t i = 0; i < slots; ++i) {
    iov_[i].iov_base = buffers_.get() + i * slot_bytes;
    iov_[i].iov_len = slot_bytes;
  }
}

void BatchReceiver::split(std::size_t slot, std::size_t length, TransportCounters& counters) {
  const std::uint8_t* data = buffers_.get() + slot * slot_bytes_;
  const msghdr& h = headers_[slot].msg_hdr;
  std::size_t segment = segment_size(h);
  if (segment == 0 || segment >= length) segment = length;
  if (segment < length) ++counters.coalesced_buffers;
  for (std::size_t at = 0; at < length; at += segment) {
    const std::size_t n = std::min(segment, length - at);
    datagrams_.push_back(ReceivedDatagram{{data + at, n}, names_[slot]});
  }
}

bool BatchReceiver::receive(int fd, TransportCounters& counters) {
  datagrams_.clear();
  for (std::size_t i = 0; i < slots_; ++i) {
    std::memset(&headers_[i], 0, sizeof headers_[i]);
    msghdr& h = headers_[i].msg_hdr;
    h.msg_name = &names_[i];
    h.msg_namelen = sizeof names_[i];
    h.msg_iov = &iov_[i];
    h.msg_iovlen = 1;
    h.msg_control = &control_[i * kReceiveControlBytes];
    h.msg_controllen = kReceiveControlBytes;
  }
  int n = -1;
  do {
    n = ::recvmmsg(fd, headers_.data(), static_cast<unsigned>(slots_), MSG_DONTWAIT, nullptr);
  } while (n < 0 && errno == EINTR);
  ++counters.receive_calls;
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK) ++counters.receive_errors;
    return false;
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    const msghdr& h = headers_[i].msg_hdr;
    if ((h.msg_flags & MSG_TRUNC) != 0) {
      ++counters.receive_errors;  // cannot happen with 64 KiB slots; never hand on a cut datagram
      continue;
    }
    split(i, headers_[i].msg_len, counters);
  }
  return n > 0;
}

}  // namespace dissem::net
