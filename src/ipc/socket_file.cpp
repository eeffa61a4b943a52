#include "ipc/socket_file.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace dissem::ipc {

namespace {

std::system_error errno_error(const std::string& what) {
  return std::system_error(errno, std::generic_category(), what);
}

// mkdir -p with 0755 for each directory created (chmod afterwards because
// the umask may have masked bits off).
void create_parents(const std::filesystem::path& dir) {
  if (dir.empty() || std::filesystem::exists(dir)) return;
  create_parents(dir.parent_path());
  if (::mkdir(dir.c_str(), 0755) != 0) {
    if (errno == EEXIST) return;  // created concurrently
    throw errno_error("cannot create IPC socket directory " + dir.string());
  }
  if (::chmod(dir.c_str(), 0755) != 0) throw errno_error("cannot set mode of " + dir.string());
}

// True if a server accepts connections on `path`. A connect to a Unix socket
// completes or fails at once, so this never waits.
bool server_answers(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw errno_error("socket");
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  const int err = errno;
  ::close(fd);
  if (rc == 0) return true;
  if (err == ECONNREFUSED) return false;
  // EAGAIN: its backlog is full, so it is alive. Anything else (EACCES, ...)
  // leaves us unable to tell, and removing a live server's socket would be
  // worse than refusing to start.
  if (err == EAGAIN) return true;
  throw std::system_error(err, std::generic_category(), "cannot probe existing IPC socket " + path);
}

}  // namespace

std::string default_runtime_dir(bool root, std::string_view xdg_runtime_dir, std::uint32_t uid) {
  if (root) return "/run/dissem";
  // A relative $XDG_RUNTIME_DIR is invalid per the XDG spec; ignore it.
  std::string dir;
  if (!xdg_runtime_dir.empty() && xdg_runtime_dir.front() == '/') {
    dir = xdg_runtime_dir;
    dir += "/dissem";
  } else {
    dir = "/tmp/dissem-";
    dir += std::to_string(uid);
  }
  return dir;
}

std::string default_socket_path() {
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  const auto uid = static_cast<std::uint32_t>(::geteuid());
  std::string path = default_runtime_dir(uid == 0, xdg != nullptr ? xdg : "", uid);
  path += "/dissemd.sock";
  return path;
}

std::string client_socket_path(const std::string& own, std::string_view system_wide) {
  const auto is_socket = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
  };
  if (is_socket(own)) return own;
  std::string system(system_wide);
  return is_socket(system) ? system : own;
}

void prepare_socket_path(const std::string& path) {
  if (path.empty()) throw std::runtime_error("IPC socket path is empty");
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    throw std::runtime_error("IPC socket path longer than " + std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) +
                             " bytes: " + path);
  }
  create_parents(std::filesystem::path(path).parent_path());
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw errno_error("cannot stat " + path);
  }
  if (!S_ISSOCK(st.st_mode)) throw std::runtime_error(path + " exists and is not a socket; refusing to replace it");
  if (server_answers(path)) throw std::runtime_error("another server is already listening on " + path);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw errno_error("cannot remove stale socket " + path);
}

void set_socket_mode(const std::string& path, mode_t mode) {
  if (::chmod(path.c_str(), mode) != 0) throw errno_error("cannot set mode of " + path);
}

FileIdentity identify(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return {st.st_dev, st.st_ino, true};
}

void remove_if_same(const std::string& path, const FileIdentity& id) {
  const FileIdentity now = identify(path);
  if (id.valid && now.valid && now.device == id.device && now.inode == id.inode) ::unlink(path.c_str());
}

}  // namespace dissem::ipc
