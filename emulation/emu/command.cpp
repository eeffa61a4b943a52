#include "command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

extern char** environ;

namespace dissem::emu {
namespace {

class Pipe {
 public:
  Pipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  void close_write() { close_fd(fds_[1]); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

using Deadline = std::chrono::steady_clock::time_point;

// Starts argv with its stdin on `to_child` and its stdout and stderr on
// `from_child`, default signal handling and an empty signal mask.
pid_t spawn_child(const std::vector<std::string>& argv, Pipe& to_child, Pipe& from_child) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child.read_end(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child.write_end(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child.write_end(), STDERR_FILENO);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = -1;
  const int spawn_error = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawn_error != 0)
    throw std::runtime_error(fmt::format("cannot run {}: {}", argv[0], std::strerror(spawn_error)));
  return pid;
}

// Writes `input` to the child and appends what it says to `output` until it
// closes its output. False if the deadline passed first.
bool exchange(Pipe& to_child, Pipe& from_child, std::string_view input, Deadline deadline, std::string& output) {
  while (from_child.read_end() >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd fds[2] = {{from_child.read_end(), POLLIN, 0}, {to_child.write_end(), POLLOUT, 0}};
    const nfds_t count = to_child.write_end() >= 0 ? 2 : 1;
    if (::poll(fds, count, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    if (count == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      const ssize_t n = ::write(to_child.write_end(), input.data(), input.size());
      if (n > 0) input.remove_prefix(static_cast<std::size_t>(n));
      if (n < 0 && errno != EAGAIN) input = {};
      if (input.empty()) to_child.close_write();
    }
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      char buffer[4096];
      const ssize_t n = ::read(from_child.read_end(), buffer, sizeof buffer);
      if (n > 0) output.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) from_child.close_read();
    }
  }
  return true;
}

// The child's wait status, or nullopt once it was killed: a child that
// closed its output may still run, so it gets until the same deadline.
std::optional<int> reap(pid_t pid, bool timed_out, Deadline deadline) {
  int status = 0;
  while (!timed_out) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) timed_out = true;
    else ::usleep(1000);
  }
  if (!timed_out) return status;
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return std::nullopt;
}

}  // namespace

std::string describe_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out.push_back(' ');
    out.append(a);
  }
  return out;
}

CommandResult run_command(const std::vector<std::string>& argv, std::string_view input, int timeout_ms) {
  Pipe to_child;
  Pipe from_child;
  const pid_t pid = spawn_child(argv, to_child, from_child);

  to_child.close_read();
  from_child.close_write();
  // Non-blocking stdin: a child that stops reading cannot stall us.
  ::fcntl(to_child.write_end(), F_SETFL, O_NONBLOCK);
  if (input.empty()) to_child.close_write();

  CommandResult result;
  const Deadline deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  const bool answered = exchange(to_child, from_child, input, deadline, result.output);
  const std::optional<int> status = reap(pid, !answered, deadline);
  result.exit_code = status && WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
  if (!status) result.output.append(fmt::format("\n(killed after {} ms)", timeout_ms));
  return result;
}

std::string run_checked(const std::vector<std::string>& argv, std::string_view input) {
  CommandResult r = run_command(argv, input);
  if (r.exit_code != 0) {
    while (!r.output.empty() && (r.output.back() == '\n' || r.output.back() == ' ')) r.output.pop_back();
    throw std::runtime_error(fmt::format("'{}' failed (exit {}): {}", describe_command(argv), r.exit_code, r.output));
  }
  return r.output;
}

}  // namespace dissem::emu
