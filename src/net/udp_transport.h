// UDP transport for one network interface: local broadcast or multicast,
// always pinned to that interface (never the default route). Multicast is
// IPv4 or, with an IPv6 group of link-local scope (ff02::/16), IPv6 from the
// interface's link-local address; broadcast is IPv4 only.
//
// Each transport owns two sockets:
//  * a receiver bound to the shared port (on the group address in multicast
//    mode, on the interface's broadcast address in broadcast mode) with
//    SO_REUSEADDR and SO_REUSEPORT, so several daemons on one host all bind
//    it and each gets a copy of every datagram;
//  * a sender bound to the interface address and an ephemeral port. Because
//    every daemon on a host shares the receive port, a datagram's source port
//    is what tells them apart: our own looped-back datagrams come from
//    local_endpoint(), and is_own() recognises them. A socket filter drops
//    them in the kernel (drop_own), so the handler sees only other nodes'.
//
// Both directions are batched: a wake-up reads what the socket holds with
// one recvmmsg(2), and send_batch() hands a batch to one sendmmsg(2). With
// `offload`, runs of equal-sized datagrams are sent as one segmented buffer
// (UDP GSO) and the receive socket accepts coalesced ones (UDP GRO); both
// change only the cost per datagram, never the datagrams on the wire.
//
// Sending never blocks: the socket is non-blocking and a datagram the kernel
// cannot take right now is dropped and counted (the engine's pacer is the
// rate control, and the protocol repairs losses).
//
// All methods must be called from the thread running the io_context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>

#include "net/interface_info.h"

namespace dissem::net {

using Endpoint = boost::asio::ip::udp::endpoint;
using DatagramHandler = std::function<void(std::span<const std::uint8_t> datagram, const Endpoint& from)>;
// Runs after the datagrams the socket held at one wake-up have been handed
// to the DatagramHandler (at most UdpTransport::kMaxBurst of them).
using BurstEndHandler = std::function<void()>;

enum class Mode { Broadcast, Multicast };

struct TransportConfig {
  std::string interface = "lo";  // interface name, as `ip link` shows it
  Mode mode = Mode::Multicast;
  std::string group = "239.255.42.99";  // multicast mode only: 224.0.0.0/4, or ff02::/16 for IPv6
  std::uint16_t port = 42424;
  int ttl = 1;            // multicast hops; 1 = this link only
  bool loopback = true;   // multicast copies to this host's sockets (other daemons here)
  // SO_RCVBUF and SO_SNDBUF request; 0 leaves the OS default. The kernel caps
  // it at net.core.rmem_max / wmem_max without error.
  std::size_t socket_buffer_bytes = 0;
  // Our own looped-back datagrams never reach the handler (dropped by a
  // kernel socket filter, or in user space if the kernel refuses it).
  bool drop_own = true;
  // UDP segmentation and receive offload (GSO/GRO) where the kernel has them.
  bool offload = true;
};

struct TransportCounters {
  std::uint64_t datagrams_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t datagrams_received = 0;  // handed on (our own looped-back ones only with drop_own off)
  std::uint64_t bytes_received = 0;
  std::uint64_t send_would_block = 0;  // dropped: the kernel had no room now (EAGAIN, ENOBUFS)
  std::uint64_t too_large = 0;         // dropped: above the IPv4 UDP payload limit
  std::uint64_t send_errors = 0;       // any other send failure (e.g. interface down)
  std::uint64_t receive_errors = 0;
  std::uint64_t send_calls = 0;            // sendmmsg calls
  std::uint64_t receive_calls = 0;         // recvmmsg calls
  std::uint64_t coalesced_buffers = 0;     // received buffers holding several datagrams (GRO)
  std::uint64_t segmentation_refused = 0;  // 1 once the kernel refused a segmented send (GSO off since)
};

class UdpTransport {
 public:
  // Enough for any IPv4 UDP datagram, so nothing is ever truncated.
  static constexpr std::size_t kReceiveBufferBytes = 65535;
  // 65535 - 20 (IPv4 header) - 8 (UDP header).
  static constexpr std::size_t kMaxPayload = 65507;

  // Opens, configures and binds both sockets. Throws std::runtime_error naming
  // the interface, address and port and giving the OS error.
  UdpTransport(boost::asio::io_context& io, const TransportConfig& config);
  // Closes the sockets; a receive still pending completes without calling
  // the handler, so the transport may be destroyed while the io_context runs.
  ~UdpTransport();
  UdpTransport(const UdpTransport&) = delete;
  UdpTransport& operator=(const UdpTransport&) = delete;

  // Starts the receive loop; `on_datagram` runs on the io_context for every
  // datagram (our own only with drop_own off; see is_own). Each wake-up
  // reads what the socket holds, up to kMaxBurst buffers, then runs
  // `on_burst_end` (if given): a host can hand the burst to the engine at
  // once. The bytes handed to `on_datagram` stay valid until `on_burst_end`
  // has returned. Call once.
  void start(DatagramHandler on_datagram, BurstEndHandler on_burst_end = {});

  // Buffers read per wake-up at most (a buffer the kernel coalesced holds
  // several datagrams), so sending and IPC are not kept waiting behind a
  // long receive.
  static constexpr int kMaxBurst = 64;

  // Hands one datagram to the kernel for the group (or broadcast address).
  // Returns false, and counts why, if it was dropped.
  bool send(std::span<const std::uint8_t> datagram);
  // Hands datagrams to the kernel in order, in as few calls as it allows.
  // Returns how many it took; the others were dropped and are counted.
  std::size_t send_batch(std::span<const std::span<const std::uint8_t>> datagrams);

  // The address and port our datagrams carry as their source.
  Endpoint local_endpoint() const;
  // Where send() goes: group:port or broadcast-address:port.
  Endpoint destination() const;
  // True for a datagram this transport sent (looped back by the kernel).
  bool is_own(const Endpoint& from) const;

  const InterfaceInfo& interface_info() const { return interface_; }
  const TransportConfig& config() const { return config_; }
  TransportCounters counters() const;
  // SO_RCVBUF the kernel actually granted (it reports twice the usable bytes).
  std::size_t receive_buffer_bytes() const;

 private:
  struct State;
  static void receive_next(std::shared_ptr<State> state);
  static void drain(State& state);

  TransportConfig config_;
  InterfaceInfo interface_;
  Endpoint destination_;
  Endpoint local_;
  std::shared_ptr<State> state_;  // shared with the pending receive handler
};

}  // namespace dissem::net
