// The filesystem side of the IPC socket: parent directory, stale socket
// files left by a crashed daemon, and the file's mode.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace dissem::ipc {

// The one rule for where a node keeps its runtime files unless configured
// otherwise; the daemon (socket and cache) and every client use it, so they
// meet without configuration: /run/dissem for root (the systemd service),
// else $XDG_RUNTIME_DIR/dissem when that is an absolute path (a per-user
// daemon needs no root), else /tmp/dissem-<uid> (the daemon creates it 0700
// and refuses one owned by another user).
std::string default_runtime_dir(bool root, std::string_view xdg_runtime_dir, std::uint32_t uid);

// default_runtime_dir() for this process, plus "/dissemd.sock".
std::string default_socket_path();

// The system daemon's socket, where the packaged service listens (its
// configuration names it, since the service runs as the user `dissem`).
inline constexpr std::string_view kSystemSocketPath = "/run/dissem/dissemd.sock";

// The socket a client uses when none is named: `own` (the caller's
// default_socket_path()) when a socket is there; else `system_wide` when a
// socket is there, so that a user in the socket's group reaches the
// packaged service without --socket; else `own`, for the error to name.
std::string client_socket_path(const std::string& own, std::string_view system_wide = kSystemSocketPath);

// Makes `path` free to bind: creates missing parent directories (mode 0755)
// and removes a socket file nobody listens on. Throws std::runtime_error if
// a live server answers on it or if something other than a socket is there
// (never deleted: it is not ours).
void prepare_socket_path(const std::string& path);

// Sets the socket file's permission bits. Throws std::system_error.
void set_socket_mode(const std::string& path, mode_t mode);

// Identity of the file at `path` (device and inode), so the server can
// remove only the socket it created and not one a successor bound since.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool valid = false;
};
FileIdentity identify(const std::string& path);
void remove_if_same(const std::string& path, const FileIdentity& id);

}  // namespace dissem::ipc
