#include "net/udp_transport.h"

#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/asio/ip/multicast.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/system/error_code.hpp>

#include "net/batch_receiver.h"
#include "net/batch_sender.h"
#include "net/own_datagram_filter.h"

namespace dissem::net {

namespace asio = boost::asio;
using asio::ip::address;
using asio::ip::address_v4;
using asio::ip::address_v6;
using asio::ip::udp;
using boost::system::error_code;

struct UdpTransport::State {
  State(asio::io_context& io, bool offload)
      : receiver(io), sender(io), batch(kMaxBurst, kReceiveBufferBytes + 1), send_batch(offload) {}

  udp::socket receiver;
  udp::socket sender;
  BatchReceiver batch;
  BatchSender send_batch;
  sockaddr_storage own{};       // the send socket's address, as recvmmsg reports sources
  bool skip_own_here = false;   // drop_own without the kernel filter
  DatagramHandler handler;
  BurstEndHandler burst_end;
  TransportCounters counters;
  bool stopped = false;
};

namespace {

// Every set-up failure names where it happened, so the operator can tell a
// missing interface from a port in use or a refused group join.
class SetupError {
 public:
  SetupError(const TransportConfig& config, const InterfaceInfo& iface) {
    const std::string at = iface.link_local ? iface.link_local->to_string() : iface.address.to_string();
    context_ = "udp transport on interface '" + config.interface + "' (" + at + "), " +
               (config.mode == Mode::Multicast ? "multicast group " + config.group : std::string("broadcast")) +
               " port " + std::to_string(config.port);
  }
  void check(const error_code& ec, const std::string& step) const {
    if (ec) fail(step + ": " + ec.message());
  }
  [[noreturn]] void fail(const std::string& detail) const { throw std::runtime_error(context_ + ": " + detail); }

 private:
  std::string context_;
};

// IPV6_MULTICAST_ALL (Linux 4.20, linux/in6.h), which glibc's headers lack.
constexpr int kIpv6MulticastAll = 29;

// Options asio does not wrap.
void set_int_option(udp::socket& socket, int level, int name, int value, const SetupError& err,
                    const std::string& step) {
  if (::setsockopt(socket.native_handle(), level, name, &value, sizeof value) != 0)
    err.check(error_code(errno, boost::system::system_category()), step);
}

void set_buffer_sizes(udp::socket& socket, std::size_t bytes, const SetupError& err) {
  if (bytes == 0) return;
  error_code ec;
  const auto size = static_cast<int>(std::min<std::size_t>(bytes, 1u << 30));
  socket.set_option(asio::socket_base::receive_buffer_size(size), ec);
  err.check(ec, "SO_RCVBUF");
  socket.set_option(asio::socket_base::send_buffer_size(size), ec);
  err.check(ec, "SO_SNDBUF");
  // The kernel silently caps the sizes above at net.core.rmem_max/wmem_max.
  // With CAP_NET_ADMIN (a daemon run as root) the *FORCE variants lift the
  // cap: the receive buffer is what absorbs a burst while the event loop is
  // busy committing a large message, and on loopback every 1.4 KB datagram
  // is charged about 2.3 KB of it. Without the capability they fail with
  // EPERM and the capped size stands.
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size);
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size);
}

// IPv4 (224.0.0.0/4) or IPv6 of link-local scope (ffX2::/16), the latter
// bound to the interface by its index.
address parse_group(const TransportConfig& config, unsigned index, const SetupError& err) {
  error_code ec;
  const auto group = asio::ip::make_address(config.group, ec);
  if (ec) err.fail("'" + config.group + "' is not an IPv4 or IPv6 address");
  if (!group.is_multicast()) err.fail(config.group + " is not a multicast address (224.0.0.0/4 or ff02::/16)");
  if (group.is_v6()) {
    if (!group.to_v6().is_multicast_link_local())
      err.fail(config.group + " is not a link-local IPv6 multicast group (ff02::/16): dissem stays on the link");
    auto scoped = group.to_v6();
    scoped.scope_id(index);
    return scoped;
  }
  return group;
}

bool is_v6(const TransportConfig& config) {
  error_code ec;
  return config.mode == Mode::Multicast && asio::ip::make_address(config.group, ec).is_v6() && !ec;
}

// Where our own datagrams come from: the interface's address.
address source_address(const InterfaceInfo& iface) {
  if (iface.link_local) return *iface.link_local;
  return iface.address;
}

// The shared receive socket: every daemon on the host binds the same port.
void open_receiver(udp::socket& socket, const TransportConfig& config, const InterfaceInfo& iface,
                   const address& bind_address, const SetupError& err) {
  error_code ec;
  const bool v6 = bind_address.is_v6();
  socket.open(v6 ? udp::v6() : udp::v4(), ec);
  err.check(ec, "open receive socket");
  if (v6) {
    socket.set_option(asio::ip::v6_only(true), ec);
    err.check(ec, "IPV6_V6ONLY");
  }
  socket.set_option(asio::socket_base::reuse_address(true), ec);
  err.check(ec, "SO_REUSEADDR");
  set_int_option(socket, SOL_SOCKET, SO_REUSEPORT, 1, err, "SO_REUSEPORT");
  set_buffer_sizes(socket, config.socket_buffer_bytes, err);
  if (config.mode == Mode::Multicast) {
    // Linux otherwise delivers a group's traffic from any interface that any
    // socket on the host joined; with this off only our own join counts,
    // which pins reception to this interface.
    if (v6)
      set_int_option(socket, IPPROTO_IPV6, kIpv6MulticastAll, 0, err, "IPV6_MULTICAST_ALL");
    else
      set_int_option(socket, IPPROTO_IP, IP_MULTICAST_ALL, 0, err, "IP_MULTICAST_ALL");
  }
  // Pinned to the interface: with SO_REUSEPORT, Linux hands a datagram to
  // one socket of those bound to the same address and port, whichever
  // interface each joined on, so two transports of one daemon on the same
  // group would take each other's traffic. Sockets bound to one device
  // share only with each other (other daemons on the same interface).
  // (An IPv4 alias "eth0:1" is the device eth0.)
  const std::string device = iface.name.substr(0, iface.name.find(':'));
  if (::setsockopt(socket.native_handle(), SOL_SOCKET, SO_BINDTODEVICE, device.c_str(),
                   static_cast<socklen_t>(device.size())) != 0)
    err.check(error_code(errno, boost::system::system_category()), "SO_BINDTODEVICE " + device);
  // Binding to the group (or broadcast) address rather than INADDR_ANY keeps
  // unrelated unicast traffic to this port out of our socket.
  socket.bind(udp::endpoint(bind_address, config.port), ec);
  err.check(ec, "bind " + bind_address.to_string() + ":" + std::to_string(config.port));
  if (config.mode == Mode::Multicast) {
    if (v6)
      socket.set_option(asio::ip::multicast::join_group(bind_address.to_v6(), iface.index), ec);
    else
      socket.set_option(asio::ip::multicast::join_group(bind_address.to_v4(), iface.address), ec);
    err.check(ec, "join group " + bind_address.to_string() + " on " + source_address(iface).to_string());
  }
}

// The sending socket: its own ephemeral port identifies this transport's
// datagrams among those of other daemons on the host.
void open_sender(udp::socket& socket, const TransportConfig& config, const InterfaceInfo& iface,
                 const SetupError& err) {
  error_code ec;
  const address from = source_address(iface);
  socket.open(from.is_v6() ? udp::v6() : udp::v4(), ec);
  err.check(ec, "open send socket");
  socket.bind(udp::endpoint(from, 0), ec);
  err.check(ec, "bind send socket to " + from.to_string() +
                    (from.is_v6() && ec.value() == EADDRNOTAVAIL
                         ? " (a new link-local address is unusable for about a second, until duplicate address "
                           "detection ends)"
                         : ""));
  set_buffer_sizes(socket, config.socket_buffer_bytes, err);
  if (config.mode == Mode::Multicast) {
    if (from.is_v6())
      socket.set_option(asio::ip::multicast::outbound_interface(iface.index), ec);
    else
      socket.set_option(asio::ip::multicast::outbound_interface(iface.address), ec);
    err.check(ec, "multicast interface " + from.to_string());
    if (config.ttl < 0 || config.ttl > 255) err.fail("ttl " + std::to_string(config.ttl) + " is not in [0, 255]");
    socket.set_option(asio::ip::multicast::hops(config.ttl), ec);
    err.check(ec, "multicast hops");
    socket.set_option(asio::ip::multicast::enable_loopback(config.loopback), ec);
    err.check(ec, "multicast loopback");
  } else {
    socket.set_option(asio::socket_base::broadcast(true), ec);
    err.check(ec, "SO_BROADCAST");
  }
  socket.non_blocking(true, ec);
  err.check(ec, "non-blocking mode");
}

// Connected, the send socket needs no address per datagram and the kernel
// keeps its route: sendmmsg then carries only the payloads.
void connect_sender(udp::socket& socket, const Endpoint& destination, const SetupError& err) {
  error_code ec;
  socket.connect(destination, ec);
  err.check(ec, "connect send socket to " + destination.address().to_string());
}

bool same_source(const sockaddr_storage& a, const sockaddr_storage& b) {
  if (a.ss_family != b.ss_family) return false;
  if (a.ss_family == AF_INET6) {
    const auto& x = reinterpret_cast<const sockaddr_in6&>(a);
    const auto& y = reinterpret_cast<const sockaddr_in6&>(b);
    return x.sin6_port == y.sin6_port && std::memcmp(&x.sin6_addr, &y.sin6_addr, sizeof x.sin6_addr) == 0;
  }
  const auto& x = reinterpret_cast<const sockaddr_in&>(a);
  const auto& y = reinterpret_cast<const sockaddr_in&>(b);
  return x.sin_addr.s_addr == y.sin_addr.s_addr && x.sin_port == y.sin_port;
}

Endpoint endpoint_of(const sockaddr_storage& a) {
  if (a.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
    address_v6::bytes_type bytes;
    std::memcpy(bytes.data(), &in6.sin6_addr, bytes.size());
    return Endpoint(address_v6(bytes, in6.sin6_scope_id), ntohs(in6.sin6_port));
  }
  const auto& in = reinterpret_cast<const sockaddr_in&>(a);
  return Endpoint(address_v4(ntohl(in.sin_addr.s_addr)), ntohs(in.sin_port));
}

// The sockaddr recvmmsg reports for datagrams from `e`.
sockaddr_storage sockaddr_of(const Endpoint& e) {
  sockaddr_storage out{};
  std::memcpy(&out, e.data(), std::min<std::size_t>(e.size(), sizeof out));
  return out;
}

}  // namespace

UdpTransport::UdpTransport(asio::io_context& io, const TransportConfig& config)
    : config_(config),
      interface_(is_v6(config) ? find_interface_v6(config.interface) : find_interface(config.interface)),
      state_(std::make_shared<State>(io, config.offload)) {
  const SetupError err(config_, interface_);
  if (config_.port == 0) err.fail("port 0 is not allowed: every node must use the same fixed port");

  address target;
  if (config_.mode == Mode::Multicast) {
    target = parse_group(config_, interface_.index, err);
  } else {
    if (!interface_.broadcast) err.fail("interface has no broadcast address (none configured: add the address with `brd +`; or the link is "
               "point-to-point, or /31-/32); use multicast mode there");
    target = *interface_.broadcast;
  }
  destination_ = Endpoint(target, config_.port);

  open_receiver(state_->receiver, config_, interface_, target, err);
  open_sender(state_->sender, config_, interface_, err);
  connect_sender(state_->sender, destination_, err);
  error_code ec;
  local_ = state_->sender.local_endpoint(ec);
  err.check(ec, "local address of send socket");
  state_->own = sockaddr_of(local_);
  if (config_.drop_own) {
    const int fd = state_->receiver.native_handle();
    const bool attached = local_.address().is_v6()
                              ? attach_own_datagram_filter(fd, local_.address().to_v6(), local_.port())
                              : attach_own_datagram_filter(fd, local_.address().to_v4(), local_.port());
    state_->skip_own_here = !attached;
  }
  if (config_.offload) {
    // Coalesced receive: refused by old kernels, which then deliver datagram by datagram.
    const int on = 1;
    ::setsockopt(state_->receiver.native_handle(), SOL_UDP, UDP_GRO, &on, sizeof on);
  }
}

UdpTransport::~UdpTransport() {
  state_->stopped = true;
  error_code ignored;
  state_->receiver.close(ignored);
  state_->sender.close(ignored);
}

void UdpTransport::start(DatagramHandler on_datagram, BurstEndHandler on_burst_end) {
  if (state_->handler) throw std::logic_error("UdpTransport::start called twice");
  state_->handler = std::move(on_datagram);
  state_->burst_end = std::move(on_burst_end);
  error_code ec;
  state_->receiver.non_blocking(true, ec);  // the burst's further reads must not block
  if (ec) throw std::runtime_error("UDP receiver on " + config_.interface + ": non-blocking mode: " + ec.message());
  receive_next(state_);
}

// A wake-up: what the socket holds (up to kMaxBurst buffers), then the
// burst's end. The handler may destroy the transport: `stopped` is checked
// after every call.
void UdpTransport::drain(State& s) {
  if (!s.batch.receive(s.receiver.native_handle(), s.counters)) return;
  for (const auto& d : s.batch.datagrams()) {
    if (s.skip_own_here && same_source(d.from, s.own)) continue;
    ++s.counters.datagrams_received;
    s.counters.bytes_received += d.bytes.size();
    s.handler(d.bytes, endpoint_of(d.from));
    if (s.stopped) return;
  }
  if (s.burst_end) s.burst_end();
}

void UdpTransport::receive_next(std::shared_ptr<State> state) {
  auto& s = *state;
  s.receiver.async_wait(udp::socket::wait_read, [state = std::move(state)](const error_code& ec) mutable {
    if (state->stopped || ec == asio::error::operation_aborted || ec == asio::error::bad_descriptor) return;
    if (ec)
      ++state->counters.receive_errors;  // transient (e.g. ENOMEM); the socket stays usable
    else
      drain(*state);
    // The handler may have destroyed the transport.
    if (!state->stopped) receive_next(std::move(state));
  });
}

bool UdpTransport::send(std::span<const std::uint8_t> datagram) {
  return send_batch(std::span<const std::span<const std::uint8_t>>(&datagram, 1)) == 1;
}

std::size_t UdpTransport::send_batch(std::span<const std::span<const std::uint8_t>> datagrams) {
  return state_->send_batch.send(state_->sender.native_handle(), datagrams, kMaxPayload, state_->counters);
}

Endpoint UdpTransport::local_endpoint() const { return local_; }

Endpoint UdpTransport::destination() const { return destination_; }

bool UdpTransport::is_own(const Endpoint& from) const { return from == local_; }

TransportCounters UdpTransport::counters() const { return state_->counters; }

std::size_t UdpTransport::receive_buffer_bytes() const {
  asio::socket_base::receive_buffer_size option;
  error_code ec;
  state_->receiver.get_option(option, ec);
  return ec ? 0 : static_cast<std::size_t>(option.value());
}

}  // namespace dissem::net
