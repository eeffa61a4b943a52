#include "socket_ops.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "config/setting_text.h"

namespace dissem::tcp_baseline {
namespace {

[[noreturn]] void fail(const std::string& call) {
  throw SocketError(call + ": " + std::strerror(errno));
}

sockaddr_in address_of(const Endpoint& e) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(e.port);
  if (inet_pton(AF_INET, e.host.c_str(), &a.sin_addr) != 1)
    throw std::invalid_argument("'" + e.host + "' is not an IPv4 address");
  return a;
}

Fd tcp_socket() {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) fail("socket");
  return fd;
}

}  // namespace

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

Endpoint parse_endpoint(const std::string& text, bool host_required) {
  const auto colon = text.rfind(':');
  if (host_required && colon == std::string::npos)
    throw std::invalid_argument("'" + text + "' is not HOST:PORT");
  Endpoint e;
  e.host = colon == std::string::npos ? "0.0.0.0" : text.substr(0, colon);
  const std::string port = colon == std::string::npos ? text : text.substr(colon + 1);
  const auto value = read_whole_number(port);
  if (!value || *value == 0 || *value > 65535) throw std::invalid_argument("'" + text + "': the port is not 1..65535");
  e.port = static_cast<std::uint16_t>(*value);
  address_of(e);  // checks the host
  return e;
}

std::optional<Fd> connect_with_retry(const Endpoint& to, double timeout_s, const std::function<bool()>& give_up) {
  const sockaddr_in a = address_of(to);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!give_up()) {
    Fd fd = tcp_socket();
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) return fd;
    if (errno != ECONNREFUSED && errno != ENETUNREACH && errno != EHOSTUNREACH && errno != ETIMEDOUT &&
        errno != EINTR)
      fail("connect");
    if (std::chrono::steady_clock::now() + std::chrono::milliseconds(100) > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::nullopt;
}

Fd listen_on(const Endpoint& at) {
  Fd fd = tcp_socket();
  const int on = 1;
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) fail("setsockopt SO_REUSEADDR");
  const sockaddr_in a = address_of(at);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) fail("bind");
  if (::listen(fd.get(), 4) != 0) fail("listen");
  return fd;
}

std::optional<std::pair<Fd, std::string>> accept_within(int listener, double timeout_s) {
  pollfd p{listener, POLLIN, 0};
  const int ready = ::poll(&p, 1, static_cast<int>(timeout_s * 1000));
  if (ready < 0 && errno != EINTR) fail("poll");
  if (ready <= 0) return std::nullopt;
  sockaddr_in peer{};
  socklen_t length = sizeof peer;
  Fd fd(::accept4(listener, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_CLOEXEC));
  if (!fd) fail("accept");
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &peer.sin_addr, text, sizeof text);
  return std::make_pair(std::move(fd), std::string(text));
}

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) fail("fcntl O_NONBLOCK");
}

void set_no_delay(int fd) {
  const int on = 1;
  if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0) fail("setsockopt TCP_NODELAY");
}

void set_send_buffer(int fd, int bytes) {
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) != 0) fail("setsockopt SO_SNDBUF");
}

TcpFigures tcp_figures(int fd) {
  TcpFigures f;
  int unacked = 0;
  if (::ioctl(fd, SIOCOUTQ, &unacked) == 0 && unacked > 0) f.unacked_bytes = static_cast<std::uint64_t>(unacked);
  tcp_info info{};
  socklen_t length = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) == 0) {
    f.rtt_us = info.tcpi_rtt;
    f.cwnd_segments = info.tcpi_snd_cwnd;
    f.total_retransmits = info.tcpi_total_retrans;
  }
  return f;
}

}  // namespace dissem::tcp_baseline
