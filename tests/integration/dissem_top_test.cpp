// `dissem top` in a real terminal: driven in a detached tmux session of 80 x
// 24 against two running dissemd, read back with capture-pane, ended with q
// and with Ctrl-C. Every wait is bounded; the session is killed whatever
// happens.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "client/client.h"
#include "support/daemon_process.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using dissem::testing::DaemonProcess;

namespace dissem_top_test {
namespace {

std::string cli_path() { return dissem::testing::dissem_cli_path(); }

// Runs a shell command; its standard output.
std::string shell(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

bool have_tmux() { return std::system("command -v tmux >/dev/null 2>&1") == 0; }

// A detached tmux session running one command; killed on scope exit.
class TmuxSession {
 public:
  TmuxSession(std::string name, const std::string& command, const fs::path& status_file)
      : name_(std::move(name)) {
    // The command's exit status lands in `status_file` once it ends.
    const std::string wrapped = command + "; echo $? > " + status_file.string();
    std::system(("tmux kill-session -t " + name_ + " 2>/dev/null").c_str());
    started_ = std::system(("TERM=xterm-256color tmux new-session -d -s " + name_ + " -x 80 -y 24 '" + wrapped +
                            "'")
                               .c_str()) == 0;
  }
  ~TmuxSession() { std::system(("tmux kill-session -t " + name_ + " 2>/dev/null").c_str()); }
  TmuxSession(const TmuxSession&) = delete;
  TmuxSession& operator=(const TmuxSession&) = delete;

  bool started() const { return started_; }
  std::string screen() const { return shell("tmux capture-pane -p -t " + name_ + " 2>/dev/null"); }
  void keys(const std::string& keys) const { std::system(("tmux send-keys -t " + name_ + " " + keys).c_str()); }
  // Waits (bounded) until the screen shows `text`.
  bool wait_for(const std::string& text, std::chrono::milliseconds limit) const {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (screen().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }

 private:
  std::string name_;
  bool started_ = false;
};

// The exit status written by the session's command, waiting (bounded) for it.
std::optional<int> exit_status(const fs::path& file, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(file);
    int code = -1;
    if (in >> code) return code;
    std::this_thread::sleep_for(100ms);
  }
  return std::nullopt;
}

class DissemTop : public dissem::testing::DaemonTest {
 protected:
  void SetUp() override {
    DaemonTest::SetUp();
    if (!have_tmux()) GTEST_FAIL() << "tmux is not installed (scripts/setup.sh installs it)";
    ASSERT_TRUE(fs::exists(cli_path())) << cli_path() << " not built";
  }
  std::string session_name(const char* what) const {
    return std::string("dissem-top-") + what + "-" + std::to_string(::getpid());
  }
};

}  // namespace

TEST_F(DissemTop, ShowsTrafficPeersAndCacheAndQuitsOnQ) {
  DaemonProcess a(dir_, "a", port_), b(dir_, "b", port_);
  // A subscriber on b for the whole test: what b misses it asks for again.
  dissem::client::Client c(b.socket());
  c.subscribe("top/news", {});
  dissem::client::Client p(a.socket());
  const std::vector<std::uint8_t> payload(20'000, 7);
  for (int i = 0; i < 5; ++i) p.publish("top/news", payload);
  const fs::path status = dir_ / "top.status";
  TmuxSession s(session_name("q"), cli_path() + " --socket " + b.socket() + " top --interval-s 0.2", status);
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.wait_for("peers: 1", 15s)) << s.screen();
  const std::string screen = s.screen();
  EXPECT_NE(screen.find("dissem top: " + b.socket()), std::string::npos) << screen;
  EXPECT_NE(screen.find("traffic"), std::string::npos) << screen;
  EXPECT_NE(screen.find("  beacon"), std::string::npos) << screen;
  EXPECT_NE(screen.find("requests: sent"), std::string::npos) << screen;
  EXPECT_NE(screen.find("cache:"), std::string::npos) << screen;
  EXPECT_NE(screen.find("in flight:"), std::string::npos) << screen;
  EXPECT_TRUE(s.wait_for(" B/s", 10s)) << "rates once a second sample is in\n" << s.screen();
  // Live: five more messages show up as delivered while it runs.
  for (int i = 0; i < 5; ++i) p.publish("top/news", payload);
  EXPECT_TRUE(s.wait_for("delivered 10,", 15s)) << s.screen();
  s.keys("q");
  EXPECT_EQ(exit_status(status, 10s), 0) << s.screen();
}

TEST_F(DissemTop, CtrlCEndsItCleanlyAndNoDaemonIsExplained) {
  DaemonProcess a(dir_, "a", port_);
  const fs::path status = dir_ / "top.status";
  {
    TmuxSession s(session_name("c"), cli_path() + " --socket " + a.socket() + " top", status);
    ASSERT_TRUE(s.started());
    ASSERT_TRUE(s.wait_for("traffic", 15s)) << s.screen();
    s.keys("C-c");
    EXPECT_EQ(exit_status(status, 10s), 0) << s.screen();
  }
  // No daemon: the usual message and exit code, the terminal untouched.
  const fs::path status2 = dir_ / "top2.status";
  const fs::path err = dir_ / "top2.err";
  TmuxSession s(session_name("n"), cli_path() + " --socket " + (dir_ / "nobody.sock").string() + " top 2>" +
                                       err.string(),
                status2);
  ASSERT_TRUE(s.started());
  EXPECT_EQ(exit_status(status2, 10s), 3);
  std::ifstream in(err);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("nobody.sock"), std::string::npos) << text;
}

TEST_F(DissemTop, WithoutATerminalItSaysSo) {
  DaemonProcess a(dir_, "a", port_);
  const int code = std::system((cli_path() + " --socket " + a.socket() + " top </dev/null >/dev/null 2>" +
                                (dir_ / "err").string())
                                   .c_str());
  EXPECT_TRUE(WIFEXITED(code));
  EXPECT_EQ(WEXITSTATUS(code), 2);
  std::ifstream in(dir_ / "err");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("needs a terminal"), std::string::npos) << text;
}

}  // namespace dissem_top_test
