#include "support/daemon_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "client/client.h"

namespace dissem::testing {
namespace {

using namespace std::chrono_literals;

std::string in_dir(const std::filesystem::path& dir, const std::string& name, const char* suffix) {
  std::string file = name;
  file += suffix;  // appended: GCC 12 -O3 warns falsely on "x" + std::string
  return (dir / file).string();
}

}  // namespace

std::string dissem_cli_path() { return (std::filesystem::path(DISSEMD_PATH).parent_path() / "dissem").string(); }

int test_port() { return 20000 + static_cast<int>(::getpid() % 20000); }

void DaemonTest::SetUp() {
  char tmpl[] = "/tmp/dissemd-test-XXXXXX";
  const char* made = ::mkdtemp(tmpl);
  ASSERT_NE(made, nullptr) << "mkdtemp failed";
  dir_ = made;
  port_ = test_port();
}

void DaemonTest::TearDown() {
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

DaemonProcess::DaemonProcess(const std::filesystem::path& dir, const std::string& name, int port,
                             std::vector<std::string> extra)
    : socket_(in_dir(dir, name, ".sock")),
      cache_(in_dir(dir, name, ".db")),
      log_(in_dir(dir, name, ".log")),
      port_(port),
      extra_(std::move(extra)) {
  start();
}

DaemonProcess::~DaemonProcess() { stop(SIGTERM); }

void DaemonProcess::start() {
  std::vector<std::string> args{DISSEMD_PATH, "--interface", "lo", "--port", std::to_string(port_),
                                "--cache", cache_, "--socket", socket_, "--log-level", "warn",
                                // Loopback is fast; let the pacer use it unless told otherwise.
                                "--set", "engine.link_capacity_bps=200000000",
                                // Ethernet-sized fragments, as on the radios the tests stand for
                                // (loopback's MTU would make a 5 MB message 81 fragments); later
                                // --set arguments from `extra_` win.
                                "--set", "engine.payload_size=1400"};
  args.insert(args.end(), extra_.begin(), extra_.end());
  pid_ = ::fork();
  if (pid_ == 0) {
    // The daemon's stderr goes to a log file in the test directory.
    const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) ::dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  for (int i = 0; i < 200; ++i) {
    try {
      client::Client probe(socket_);
      return;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(25ms);
    }
  }
  stop(SIGKILL);
  throw std::runtime_error("dissemd did not open " + socket_ + " (see " + log_ + ")");
}

void DaemonProcess::stop(int signo) {
  if (pid_ <= 0) return;
  ::kill(pid_, signo);
  int status = 0;
  for (int i = 0; i < 200 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(25ms);
  if (::waitpid(pid_, &status, WNOHANG) == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  pid_ = -1;
}

void DaemonProcess::kill_hard() { stop(SIGKILL); }

}  // namespace dissem::testing
