// The client's side of the IPC socket: a non-blocking Unix stream socket
// with deadline-bounded frame writes and reads. Knows frames, not messages.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "ipc/framing.h"

namespace dissem::client {

class Connection {
 public:
  using Clock = std::chrono::steady_clock;

  // Throws ConnectionError.
  explicit Connection(const std::string& socket_path);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Writes all of `frame` (header included) by `deadline`. Throws
  // ConnectionError on failure or timeout.
  void write(const std::string& frame, Clock::time_point deadline);

  // The next complete frame body, reading until `deadline`; nullopt on
  // timeout. Throws ConnectionError when the peer closed or sent a frame
  // above the limit.
  std::optional<std::string> read(Clock::time_point deadline);

 private:
  int fd_ = -1;
  ipc::FrameDecoder decoder_;
};

}  // namespace dissem::client
