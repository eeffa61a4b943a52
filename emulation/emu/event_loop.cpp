#include "event_loop.h"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace dissem::emu {
namespace {

constexpr std::uint32_t kTimerToken = 0xffffffffu;
constexpr std::uint32_t kSignalToken = 0xfffffffeu;

sigset_t termination_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

TimeNs read_clock(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<TimeNs>(ts.tv_sec) * kNsPerSecond + ts.tv_nsec;
}

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

}  // namespace

TimeNs monotonic_now() { return read_clock(CLOCK_MONOTONIC); }
TimeNs realtime_now() { return read_clock(CLOCK_REALTIME); }

void block_termination_signals() {
  const sigset_t set = termination_signals();
  ::sigprocmask(SIG_BLOCK, &set, nullptr);
}

EventLoop::EventLoop() {
  // Timer slack (50 us by default) would add to every delivery's lateness.
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) fail("epoll_create1");
  timer_fd_ = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (timer_fd_ < 0) fail("timerfd_create");
  const sigset_t set = termination_signals();
  signal_fd_ = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signal_fd_ < 0) fail("signalfd");
  watch(timer_fd_, kTimerToken);
  watch(signal_fd_, kSignalToken);
}

EventLoop::~EventLoop() {
  for (int fd : {signal_fd_, timer_fd_, epoll_fd_})
    if (fd >= 0) ::close(fd);
}

void EventLoop::watch(int fd, std::uint32_t token) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u32 = token;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) fail("epoll_ctl");
}

void EventLoop::arm(std::optional<TimeNs> deadline) {
  if (deadline == armed_) return;
  itimerspec spec{};  // all zero: disarmed
  if (deadline) {
    // Zero would disarm: a deadline at or before the epoch is simply "now".
    const TimeNs at = *deadline > 0 ? *deadline : 1;
    spec.it_value.tv_sec = at / kNsPerSecond;
    spec.it_value.tv_nsec = at % kNsPerSecond;
  }
  if (::timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &spec, nullptr) != 0) fail("timerfd_settime");
  armed_ = deadline;
}

void EventLoop::wait(std::optional<TimeNs> deadline, Wake& wake) {
  wake.readable.clear();
  wake.signal = 0;
  // A deadline already passed needs no sleep (and no timer syscalls).
  const bool due = deadline && *deadline <= monotonic_now();
  if (!due) arm(deadline);

  epoll_event events[64];
  const int n = ::epoll_wait(epoll_fd_, events, 64, due ? 0 : -1);
  if (n < 0) {
    if (errno == EINTR) return;
    fail("epoll_wait");
  }
  for (int i = 0; i < n; ++i) {
    const std::uint32_t token = events[i].data.u32;
    if (token == kTimerToken) {
      std::uint64_t expirations = 0;
      if (::read(timer_fd_, &expirations, sizeof expirations) < 0 && errno != EAGAIN) fail("read timerfd");
      armed_.reset();  // a fired timer is disarmed
    } else if (token == kSignalToken) {
      signalfd_siginfo info{};
      if (::read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info))
        wake.signal = static_cast<int>(info.ssi_signo);
    } else {
      wake.readable.push_back(token);
    }
  }
}

}  // namespace dissem::emu
