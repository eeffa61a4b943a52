#include "client/connection.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "client/client.h"

namespace dissem::client {

namespace {

// The daemon sends deliveries of up to its 64 MiB message limit plus
// metadata; this bound only protects against a broken peer.
constexpr std::uint32_t kMaxIncomingFrame = 256u * 1024 * 1024;

[[noreturn]] void fail(const std::string& what, int err) {
  throw ConnectionError(what + ": " + std::system_category().message(err));
}

// Milliseconds left until `deadline` for poll(), never negative.
int remaining_ms(Connection::Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Connection::Clock::now()).count();
  if (left <= 0) return 0;
  return left > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(left);
}

// Waits for `events` on `fd`; false on timeout.
bool wait_for(int fd, short events, Connection::Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, remaining_ms(deadline));
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) fail("poll on IPC socket", errno);
  }
}

}  // namespace

Connection::Connection(const std::string& socket_path) : decoder_(kMaxIncomingFrame) {
  sockaddr_un addr{};
  if (socket_path.empty() || socket_path.size() >= sizeof addr.sun_path) {
    throw ConnectionError("invalid IPC socket path '" + socket_path + "'");
  }
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) fail("socket", errno);
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  // A Unix-socket connect completes or fails at once, so it may block.
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    fail("cannot connect to dissemd at " + socket_path, err);
  }
  const int flags = ::fcntl(fd_, F_GETFL, 0);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    fail("fcntl", err);
  }
}

Connection::~Connection() {
  if (fd_ >= 0) ::close(fd_);
}

void Connection::write(const std::string& frame, Clock::time_point deadline) {
  std::size_t done = 0;
  while (done < frame.size()) {
    // MSG_NOSIGNAL: a daemon that went away must be an exception, not SIGPIPE.
    const ssize_t n = ::send(fd_, frame.data() + done, frame.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_for(fd_, POLLOUT, deadline)) throw ConnectionError("timed out writing to dissemd");
      continue;
    }
    fail("write to dissemd", errno);
  }
}

std::optional<std::string> Connection::read(Clock::time_point deadline) {
  std::array<std::uint8_t, 64 * 1024> buffer;
  for (;;) {
    if (auto frame = decoder_.next()) return frame;
    if (decoder_.error() != ipc::FrameDecoder::Error::None) {
      throw ConnectionError("dissemd sent a frame of " + std::to_string(decoder_.rejected_length()) + " bytes");
    }
    const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (n > 0) {
      decoder_.feed(std::span<const std::uint8_t>(buffer.data(), static_cast<std::size_t>(n)));
      continue;
    }
    if (n == 0) throw ConnectionError("dissemd closed the connection");
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_for(fd_, POLLIN, deadline)) return std::nullopt;
      continue;
    }
    // ECONNRESET: the daemon closed while our own unread requests were queued.
    fail("read from dissemd", errno);
  }
}

}  // namespace dissem::client
