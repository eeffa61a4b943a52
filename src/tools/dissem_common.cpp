#include "tools/dissem_common.h"

#include <cstdio>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace dissem::cli {

namespace {

// Why nobody answers at `path`, found by looking at the file and connecting
// once more ourselves: the client library's message carries no errno.
std::string diagnose(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return fmt::format("no socket at {}: dissemd is not running, or listens elsewhere (use --socket or DISSEM_SOCKET)",
                         path);
    }
    return fmt::format("cannot reach {}: {}", path, std::strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode)) return fmt::format("{} is not a socket: dissemd is not running there", path);
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) return fmt::format("socket path too long: {}", path);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fmt::format("cannot create a socket to reach {}: {}", path, std::strerror(errno));
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  const int err = errno;
  ::close(fd);
  if (rc == 0) return fmt::format("dissemd is running at {} but the connection failed", path);
  if (err == ECONNREFUSED) return fmt::format("dissemd is not running: {} is a stale socket nobody listens on", path);
  if (err == EACCES) {
    return fmt::format("permission denied on {}: dissemd is probably running, but this user may not use its socket",
                       path);
  }
  return fmt::format("cannot connect to {}: {}", path, std::strerror(err));
}

}  // namespace

client::Client connect_or_explain(const std::string& socket_path) {
  try {
    return client::Client(socket_path);
  } catch (const client::ConnectionError&) {
    throw Failure(kExitNoDaemon, diagnose(socket_path));
  }
}

std::string format_id(const MessageId& id) { return fmt::format("{}/{:08x}/{}", id.group, id.publisher, id.seq); }

std::string node_hex(NodeId node) { return fmt::format("{:08x}", node); }

void print(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

bool stderr_is_tty() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace dissem::cli
