// The few socket operations the TCP baseline needs, with errors as
// exceptions that name the call. File descriptors are owned by Fd.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace dissem::tcp_baseline {

class SocketError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd();
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// "HOST:PORT" or, where a host may be left out, "PORT" (host 0.0.0.0).
struct Endpoint {
  std::string host;
  std::uint16_t port = 0;
};
// Throws std::invalid_argument naming the text.
Endpoint parse_endpoint(const std::string& text, bool host_required);

// Connects to an IPv4 endpoint, trying again every 100 ms until `timeout_s`
// has passed (the receiver may not be listening yet) or `give_up()` says so.
// nullopt when it never succeeded.
std::optional<Fd> connect_with_retry(const Endpoint& to, double timeout_s, const std::function<bool()>& give_up);

Fd listen_on(const Endpoint& at);
// The accepted connection and its peer's address; nullopt when none came within `timeout_s`.
std::optional<std::pair<Fd, std::string>> accept_within(int listener, double timeout_s);

void set_nonblocking(int fd);
void set_no_delay(int fd);
void set_send_buffer(int fd, int bytes);

// What TCP says about a connected socket, for the result.
struct TcpFigures {
  std::uint64_t unacked_bytes = 0;  // in the send queue: not yet acknowledged (SIOCOUTQ)
  std::uint32_t rtt_us = 0;
  std::uint32_t cwnd_segments = 0;
  std::uint32_t total_retransmits = 0;
};
TcpFigures tcp_figures(int fd);

}  // namespace dissem::tcp_baseline
