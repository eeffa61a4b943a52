// Waiting for the next thing to do: a frame on a TAP, a deadline of the link
// model, or a termination signal. epoll with a timerfd armed at an absolute
// CLOCK_MONOTONIC time gives nanosecond timer resolution (epoll's millisecond
// timeout would be too coarse for ~100 us delivery precision); signals arrive
// through a signalfd, so SIGTERM is handled in the loop, not in a handler.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "emu_time.h"

namespace dissem::emu {

TimeNs monotonic_now();
TimeNs realtime_now();

// Blocks SIGINT, SIGTERM and SIGHUP for the process (call first in main,
// before any thread or child exists): they stay pending until an EventLoop
// reads them, so a SIGTERM during start-up still ends in an orderly teardown.
void block_termination_signals();

class EventLoop {
 public:
  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  void watch(int fd, std::uint32_t token);

  struct Wake {
    std::vector<std::uint32_t> readable;  // tokens of readable fds
    int signal = 0;                       // a termination signal, or 0
  };
  // Returns when a watched fd is readable, CLOCK_MONOTONIC reaches `deadline`
  // (nullopt: no deadline) or a termination signal arrives. `wake` is cleared first.
  void wait(std::optional<TimeNs> deadline, Wake& wake);

 private:
  void arm(std::optional<TimeNs> deadline);

  int epoll_fd_ = -1;
  int timer_fd_ = -1;
  int signal_fd_ = -1;
  std::optional<TimeNs> armed_;
};

}  // namespace dissem::emu
