// A classic BPF socket filter that drops, inside the kernel, the datagrams
// this transport sent itself and the host looped back to its receive socket
// (source address and port equal to the send socket's). On a busy node they
// are half of what the receive socket would otherwise wake up for.
#pragma once

#include <cstdint>

#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/address_v6.hpp>

namespace dissem::net {

// Attaches the filter to `fd`. Returns false if the kernel refused it (the
// transport then recognises its own datagrams in user space).
bool attach_own_datagram_filter(int fd, const boost::asio::ip::address_v4& address, std::uint16_t port);
// The same for an IPv6 socket.
bool attach_own_datagram_filter(int fd, const boost::asio::ip::address_v6& address, std::uint16_t port);

}  // namespace dissem::net
