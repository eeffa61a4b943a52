// The filesystem side of the IPC socket: parent directory, stale socket
// files left by a crashed daemon, and the file's mode.
#pragma once

#include <sys/types.h>

#include <string>

namespace dissem::ipc {

// Where dissemd listens and clients connect unless configured otherwise:
// /run/dissem/dissemd.sock for root (the systemd service), else
// $XDG_RUNTIME_DIR/dissem/dissemd.sock when that is set (a per-user daemon
// needs no root), else /run/dissem/dissemd.sock.
std::string default_socket_path();

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
