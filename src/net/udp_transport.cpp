#include "net/udp_transport.h"

#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/asio/ip/multicast.hpp>
#include <boost/system/error_code.hpp>

#include "net/batch_receiver.h"
#include "net/batch_sender.h"
#include "net/own_datagram_filter.h"

namespace dissem::net {

namespace asio = boost::asio;
using asio::ip::address_v4;
using asio::ip::udp;
using boost::system::error_code;

struct UdpTransport::State {
  State(asio::io_context& io, bool offload)
      : receiver(io), sender(io), batch(kMaxBurst, kReceiveBufferBytes + 1), send_batch(offload) {}

  udp::socket receiver;
  udp::socket sender;
  BatchReceiver batch;
  BatchSender send_batch;
  sockaddr_in own{};            // the send socket's address, as recvmmsg reports sources
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
    context_ = "udp transport on interface '" + config.interface + "' (" + iface.address.to_string() + "), " +
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

address_v4 parse_group(const TransportConfig& config, const SetupError& err) {
  error_code ec;
  const auto group = asio::ip::make_address_v4(config.group, ec);
  if (ec) err.fail("'" + config.group + "' is not an IPv4 address");
  if (!group.is_multicast()) err.fail(config.group + " is not a multicast address (224.0.0.0/4)");
  return group;
}

// The shared receive socket: every daemon on the host binds the same port.
void open_receiver(udp::socket& socket, const TransportConfig& config, const InterfaceInfo& iface,
                   const address_v4& bind_address, const SetupError& err) {
  error_code ec;
  socket.open(udp::v4(), ec);
  err.check(ec, "open receive socket");
  socket.set_option(asio::socket_base::reuse_address(true), ec);
  err.check(ec, "SO_REUSEADDR");
  set_int_option(socket, SOL_SOCKET, SO_REUSEPORT, 1, err, "SO_REUSEPORT");
  set_buffer_sizes(socket, config.socket_buffer_bytes, err);
  if (config.mode == Mode::Multicast) {
    // Linux otherwise delivers a group's traffic from any interface that any
    // socket on the host joined; with this off only our own join counts,
    // which pins reception to this interface.
    set_int_option(socket, IPPROTO_IP, IP_MULTICAST_ALL, 0, err, "IP_MULTICAST_ALL");
  }
  // Binding to the group (or broadcast) address rather than INADDR_ANY keeps
  // unrelated unicast traffic to this port out of our socket.
  socket.bind(udp::endpoint(bind_address, config.port), ec);
  err.check(ec, "bind " + bind_address.to_string() + ":" + std::to_string(config.port));
  if (config.mode == Mode::Multicast) {
    socket.set_option(asio::ip::multicast::join_group(bind_address, iface.address), ec);
    err.check(ec, "join group " + bind_address.to_string() + " on " + iface.address.to_string());
  }
}

// The sending socket: its own ephemeral port identifies this transport's
// datagrams among those of other daemons on the host.
void open_sender(udp::socket& socket, const TransportConfig& config, const InterfaceInfo& iface,
                 const SetupError& err) {
  error_code ec;
  socket.open(udp::v4(), ec);
  err.check(ec, "open send socket");
  socket.bind(udp::endpoint(iface.address, 0), ec);
  err.check(ec, "bind send socket to " + iface.address.to_string());
  set_buffer_sizes(socket, config.socket_buffer_bytes, err);
  if (config.mode == Mode::Multicast) {
    socket.set_option(asio::ip::multicast::outbound_interface(iface.address), ec);
    err.check(ec, "IP_MULTICAST_IF " + iface.address.to_string());
    if (config.ttl < 0 || config.ttl > 255) err.fail("ttl " + std::to_string(config.ttl) + " is not in [0, 255]");
    socket.set_option(asio::ip::multicast::hops(config.ttl), ec);
    err.check(ec, "IP_MULTICAST_TTL");
    socket.set_option(asio::ip::multicast::enable_loopback(config.loopback), ec);
    err.check(ec, "IP_MULTICAST_LOOP");
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

bool same_source(const sockaddr_in& a, const sockaddr_in& b) {
  return a.sin_addr.s_addr == b.sin_addr.s_addr && a.sin_port == b.sin_port;
}

Endpoint endpoint_of(const sockaddr_in& a) {
  return Endpoint(address_v4(ntohl(a.sin_addr.s_addr)), ntohs(a.sin_port));
}

}  // namespace

UdpTransport::UdpTransport(asio::io_context& io, const TransportConfig& config)
    : config_(config), interface_(find_interface(config.interface)), state_(std::make_shared<State>(io, config.offload)) {
  const SetupError err(config_, interface_);
  if (config_.port == 0) err.fail("port 0 is not allowed: every node must use the same fixed port");

  address_v4 target;
  if (config_.mode == Mode::Multicast) {
    target = parse_group(config_, err);
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
  state_->own.sin_addr.s_addr = htonl(local_.address().to_v4().to_uint());
  state_->own.sin_port = htons(local_.port());
  if (config_.drop_own)
    state_->skip_own_here =
        !attach_own_datagram_filter(state_->receiver.native_handle(), local_.address().to_v4(), local_.port());
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
