// A real dissemd child process for integration tests and benchmarks: its own
// cache and socket in the caller's directory, loopback multicast on `port`,
// ready once its IPC socket answers. The destructor stops it (SIGTERM, then
// SIGKILL after a bounded wait), so no daemon outlives a test.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace dissem::testing {

class DaemonProcess {
 public:
  // `extra` arguments are appended (e.g. {"--set", "engine.payload_size=8192"}).
  DaemonProcess(const std::filesystem::path& dir, const std::string& name, int port,
                std::vector<std::string> extra = {});
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  // Starts (again) with the same cache and socket; throws if it never answers.
  void start();
  // Sends `signo` and reaps the process (SIGKILL if it has not exited in 5 s).
  void stop(int signo);
  void kill_hard();

  const std::string& socket() const { return socket_; }
  pid_t pid() const { return pid_; }

 private:
  std::string socket_, cache_, log_;
  int port_;
  std::vector<std::string> extra_;
  pid_t pid_ = -1;
};

// A port per test process, so parallel test runs do not hear each other.
int test_port();

// The `dissem` CLI, built next to dissemd (both in the build tree's src/).
std::string dissem_cli_path();

// A fixture for tests with daemons: a fresh directory under /tmp for their
// caches, sockets and logs (removed afterwards) and this process's port.
class DaemonTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  std::filesystem::path dir_;
  int port_ = 0;
};

}  // namespace dissem::testing
