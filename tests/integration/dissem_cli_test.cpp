// The `dissem` CLI against real dissemd processes on loopback multicast: what
// an operator typing commands sees, exit codes included.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "client/client.h"
#include "core/json.h"
#include "support/daemon_process.h"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace dissem_cli_test {
namespace {

// Built next to dissemd (both in the build tree's src/).
std::string cli_path() { return dissem::testing::dissem_cli_path(); }

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string pseudo_random_bytes(std::size_t n) {
  std::string v(n, '\0');
  std::uint32_t x = 987654321;
  for (auto& b : v) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<char>(x >> 24);
  }
  return v;
}

// Starts `args` with stdin from `in` (or /dev/null) and stdout/stderr to files.
pid_t spawn(const std::vector<std::string>& args, const fs::path& in, const fs::path& out, const fs::path& err) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd_in = ::open(in.empty() ? "/dev/null" : in.c_str(), O_RDONLY);
    const int fd_out = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int fd_err = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd_in < 0 || fd_out < 0 || fd_err < 0) ::_exit(126);
    ::dup2(fd_in, 0);
    ::dup2(fd_out, 1);
    ::dup2(fd_err, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// The exit code, or nullopt if `pid` did not exit within `limit` (it is then
// killed and reaped, so no process outlives the test).
std::optional<int> wait_exit(pid_t pid, std::chrono::milliseconds limit) {
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(20ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return std::nullopt;
}

struct CliResult {
  int code = -1;  // -1: did not finish in time
  std::string out, err;
};

// A CLI run with a bounded wait; stdin from `in` if given.
class CliRunner {
 public:
  explicit CliRunner(fs::path dir) : dir_(std::move(dir)) {}

  CliResult run(std::vector<std::string> args, const fs::path& in = {}, std::chrono::milliseconds limit = 30s) {
    args.insert(args.begin(), cli_path());
    const auto out = dir_ / "cli.out", err = dir_ / "cli.err";
    const auto code = wait_exit(spawn(args, in, out, err), limit);
    return CliResult{code.value_or(-1), slurp(out), slurp(err)};
  }

 private:
  fs::path dir_;
};

using CliDaemon = dissem::testing::DaemonProcess;
using dissem::Json;

// A background `dissem subscribe`, ready once it reports its subscription.
class Subscriber {
 public:
  Subscriber(const fs::path& dir, std::vector<std::string> args) : err_(dir / "sub.err") {
    args.insert(args.begin(), cli_path());
    pid_ = spawn(args, {}, dir / "sub.out", err_);
  }
  ~Subscriber() {
    if (pid_ > 0) wait_exit(pid_, 0ms);
  }
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;

  bool wait_subscribed() const {
    for (int i = 0; i < 250; ++i) {
      if (slurp(err_).find("subscribed to") != std::string::npos) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }
  std::optional<int> finish(std::chrono::milliseconds limit) {
    const auto code = wait_exit(pid_, limit);
    pid_ = -1;
    return code;
  }
  std::string stderr_text() const { return slurp(err_); }

 private:
  fs::path err_;
  pid_t pid_ = -1;
};

// The JSON a command printed; discarded (is_discarded()) if it does not parse.
Json parse_json(const std::string& text) { return Json::parse(text, nullptr, /*allow_exceptions=*/false); }

// A number at a JSON pointer ("/traffic/data/received/bytes").
double number_at(const Json& j, const std::string& pointer) { return j.at(Json::json_pointer(pointer)).get<double>(); }

// "files/0000abcd/1" -> "0000abcd".
std::string publisher_hex(const std::string& id_line) {
  const auto a = id_line.find('/');
  const auto b = id_line.find('/', a + 1);
  if (a == std::string::npos || b == std::string::npos) return {};
  return id_line.substr(a + 1, b - a - 1);
}

class DissemCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dissem-cli-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    // A port per test process so parallel test runs do not hear each other.
    port_ = 20000 + static_cast<int>(::getpid() % 20000);
    ASSERT_TRUE(fs::exists(cli_path())) << cli_path() << " not built";
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  int port_ = 0;
};

}  // namespace

TEST_F(DissemCli, PublishedFileArrivesByteIdenticalInSubscribeOutDir) {
  CliDaemon pub(dir_, "pub", port_), sub(dir_, "sub", port_);
  const auto inbox = dir_ / "inbox";
  Subscriber s(dir_, {"--socket", sub.socket(), "subscribe", "files", "--count", "1", "--timeout-s", "60", "--out",
                      inbox.string()});
  ASSERT_TRUE(s.wait_subscribed()) << s.stderr_text();

  const std::string data = pseudo_random_bytes(2u << 20);
  write_file(dir_ / "payload.bin", data);
  CliRunner cli(dir_);
  const auto published = cli.run({"--socket", pub.socket(), "publish", "files", (dir_ / "payload.bin").string()});
  ASSERT_EQ(published.code, 0) << published.err;
  const std::string id = published.out.substr(0, published.out.find('\n'));
  EXPECT_EQ(id.rfind("files/", 0), 0u) << id;

  ASSERT_EQ(s.finish(60s), std::optional<int>(0)) << s.stderr_text();
  // Built by appending: GCC 12 at -O3 reports a false -Wrestrict on "x" + std::string.
  std::string delivered_line = "delivered ";
  delivered_line += id;
  EXPECT_NE(s.stderr_text().find(delivered_line), std::string::npos) << s.stderr_text();
  std::string file_name = "files-";
  file_name += publisher_hex(id);
  file_name += "-1";
  const auto file = inbox / file_name;
  ASSERT_TRUE(fs::exists(file)) << file;
  EXPECT_TRUE(slurp(file) == data) << "payload differs";
}

TEST_F(DissemCli, StatsJsonParsesAndShowsDataReceived) {
  CliDaemon pub(dir_, "pub", port_), sub(dir_, "sub", port_);
  const auto output = dir_ / "received.bin";
  Subscriber s(dir_, {"--socket", sub.socket(), "subscribe", "g", "--count", "1", "--timeout-s", "30", "-o",
                      output.string()});
  ASSERT_TRUE(s.wait_subscribed()) << s.stderr_text();
  const std::string data = pseudo_random_bytes(100000);
  write_file(dir_ / "stdin.bin", data);
  CliRunner cli(dir_);
  // Publishing from stdin ("-").
  const auto published = cli.run({"--socket", pub.socket(), "publish", "g", "-", "--tag", "t"}, dir_ / "stdin.bin");
  ASSERT_EQ(published.code, 0) << published.err;
  ASSERT_EQ(s.finish(30s), std::optional<int>(0)) << s.stderr_text();
  EXPECT_TRUE(slurp(output) == data);

  const auto stats = cli.run({"--socket", sub.socket(), "stats", "--json"});
  ASSERT_EQ(stats.code, 0) << stats.err;
  const Json json = parse_json(stats.out);
  ASSERT_FALSE(json.is_discarded()) << "not JSON: " << stats.out;
  EXPECT_GE(number_at(json, "/traffic/data/received/bytes"), static_cast<double>(data.size()));
  EXPECT_GT(number_at(json, "/traffic/data/received/datagrams"), 0.0);
  EXPECT_GE(number_at(json, "/messages/deliveries"), 1.0);
  EXPECT_EQ(number_at(json, "/malformed/total"), 0.0);
  const Json pub_stats = parse_json(cli.run({"--socket", pub.socket(), "stats", "--json"}).out);
  ASSERT_FALSE(pub_stats.is_discarded());
  EXPECT_EQ(number_at(pub_stats, "/messages/published"), 1.0);

  const auto table = cli.run({"--socket", sub.socket(), "stats"});
  EXPECT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("repair"), std::string::npos) << table.out;
}

TEST_F(DissemCli, PeersListsTheOtherDaemon) {
  CliDaemon a(dir_, "a", port_), b(dir_, "b", port_);
  CliRunner cli(dir_);
  // A publish names a's node id in the message id it prints.
  write_file(dir_ / "one.txt", "hello");
  const auto published = cli.run({"--socket", a.socket(), "publish", "p", (dir_ / "one.txt").string()});
  ASSERT_EQ(published.code, 0) << published.err;
  const std::string node = publisher_hex(published.out);
  ASSERT_EQ(node.size(), 8u) << published.out;

  CliResult peers;
  for (int i = 0; i < 20; ++i) {  // beacons are 1 s apart: bounded at 10 s
    peers = cli.run({"--socket", b.socket(), "peers"});
    if (peers.out.find(node) != std::string::npos) break;
    std::this_thread::sleep_for(500ms);
  }
  EXPECT_EQ(peers.code, 0) << peers.err;
  EXPECT_NE(peers.out.find(node), std::string::npos) << peers.out;
  const auto json = cli.run({"--socket", b.socket(), "peers", "--json"});
  std::string node_field = "\"node\":\"";
  node_field += node;
  node_field += '"';
  EXPECT_NE(json.out.find(node_field), std::string::npos) << json.out;
  EXPECT_FALSE(parse_json(json.out).is_discarded()) << json.out;
}

TEST_F(DissemCli, EmconSilencesTheDaemonAndStatsSayIt) {
  CliDaemon d(dir_, "quiet", port_);
  CliRunner cli(dir_);
  ASSERT_EQ(cli.run({"--socket", d.socket(), "emcon", "on"}).code, 0);
  const Json on = parse_json(cli.run({"--socket", d.socket(), "stats", "--json"}).out);
  ASSERT_FALSE(on.is_discarded());
  EXPECT_TRUE(on.value("silent", false));
  const double beacons = number_at(on, "/traffic/beacon/sent/datagrams");
  std::this_thread::sleep_for(2500ms);  // beacons are 1 s apart on loopback
  const Json later = parse_json(cli.run({"--socket", d.socket(), "stats", "--json"}).out);
  EXPECT_EQ(number_at(later, "/traffic/beacon/sent/datagrams"), beacons) << "a silent daemon beaconed";
  EXPECT_NE(cli.run({"--socket", d.socket(), "stats"}).out.find("EMCON:    silent"), std::string::npos);
  ASSERT_EQ(cli.run({"--socket", d.socket(), "emcon", "off"}).code, 0);
  const Json off = parse_json(cli.run({"--socket", d.socket(), "stats", "--json"}).out);
  EXPECT_FALSE(off.value("silent", true));
  EXPECT_EQ(cli.run({"--socket", d.socket(), "emcon", "maybe"}).code, 2) << "on or off only";
}

TEST_F(DissemCli, MissingSocketExitsThreeNamingThePath) {
  CliRunner cli(dir_);
  const std::string missing = (dir_ / "nobody.sock").string();
  const auto r = cli.run({"--socket", missing, "stats"});
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not running"), std::string::npos) << r.err;
  // The environment variable is honoured like --socket.
  ::setenv("DISSEM_SOCKET", missing.c_str(), 1);
  const auto env = cli.run({"peers"});
  ::unsetenv("DISSEM_SOCKET");
  EXPECT_EQ(env.code, 3);
  EXPECT_NE(env.err.find(missing), std::string::npos) << env.err;
}

TEST_F(DissemCli, BadUsageExitsTwo) {
  CliRunner cli(dir_);
  EXPECT_EQ(cli.run({}).code, 2);
  EXPECT_EQ(cli.run({"frobnicate"}).code, 2);
  EXPECT_EQ(cli.run({"publish"}).code, 2) << "group is required";
  EXPECT_EQ(cli.run({"subscribe", "g", "--count", "many"}).code, 2);
  EXPECT_EQ(cli.run({"subscribe", "g", "--out", "d", "-o", "f"}).code, 2);
  EXPECT_EQ(cli.run({"publish", "g", (dir_ / "no-such-file").string()}).code, 2);
  for (const char* id : {" 1", "0x1", "-1", "0", "100000000"})
    EXPECT_EQ(cli.run({"list", "--publisher", id}).code, 2) << "not a node id: '" << id << "'";
  EXPECT_EQ(cli.run({"--help"}).code, 0);
}

TEST_F(DissemCli, RefusedPublishExitsOneAndSubscribeTimeoutExitsFour) {
  CliDaemon d(dir_, "d", port_);
  CliRunner cli(dir_);
  write_file(dir_ / "empty", "");
  const auto refused = cli.run({"--socket", d.socket(), "publish", "g", (dir_ / "empty").string()});
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.err.find("empty"), std::string::npos) << refused.err;
  const auto timed_out = cli.run({"--socket", d.socket(), "subscribe", "g", "--count", "1", "--timeout-s", "0.3"});
  EXPECT_EQ(timed_out.code, 4) << timed_out.err;
}

TEST_F(DissemCli, PublishOptionsListGetAndCancelOnTheCache) {
  CliDaemon a(dir_, "a", port_);
  CliRunner cli(dir_);
  write_file(dir_ / "one.txt", "first position");
  write_file(dir_ / "two.txt", "second position");
  write_file(dir_ / "alert.txt", "alert!");
  const auto first = cli.run({"--socket", a.socket(), "publish", "pos", (dir_ / "one.txt").string(), "--tag", "u7",
                              "--lifetime-ms", "600000"});
  ASSERT_EQ(first.code, 0) << first.err;
  const auto alert = cli.run({"--socket", a.socket(), "publish", "pos", (dir_ / "alert.txt").string(), "--tag",
                              "alert", "--priority", "9"});
  ASSERT_EQ(alert.code, 0) << alert.err;
  const auto second = cli.run({"--socket", a.socket(), "publish", "pos", (dir_ / "two.txt").string(), "--tag", "u7",
                               "--replace"});
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_EQ(cli.run({"--socket", a.socket(), "publish", "pos", (dir_ / "two.txt").string(), "--replace"}).code, 1)
      << "replace without a tag is refused";

  const auto listed = cli.run({"--socket", a.socket(), "list", "pos", "--json"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  // Message 1 was replaced by 3: 2 and 3 are left.
  EXPECT_EQ(listed.out.find("\"seq\":1,"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("\"seq\":2,\"priority\":9"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("\"tag\":\"u7\""), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("\"replace\":true"), std::string::npos) << listed.out;
  const auto table = cli.run({"--socket", a.socket(), "list", "pos"});
  EXPECT_NE(table.out.find("(replace)"), std::string::npos) << table.out;

  const std::string id = second.out.substr(0, second.out.find('\n'));
  const std::string publisher = publisher_hex(id);
  const auto got = cli.run({"--socket", a.socket(), "get", "pos", publisher, "3"});
  ASSERT_EQ(got.code, 0) << got.err;
  EXPECT_EQ(got.out, "second position");
  EXPECT_EQ(cli.run({"--socket", a.socket(), "get", "pos", publisher, "1"}).code, 1) << "superseded: not held";
  EXPECT_EQ(cli.run({"--socket", a.socket(), "get", "pos", "zz", "1"}).code, 2) << "not a node id";

  const auto cancelled = cli.run({"--socket", a.socket(), "cancel", "pos", "--seq", "2"});
  ASSERT_EQ(cancelled.code, 0) << cancelled.err;
  const auto after = cli.run({"--socket", a.socket(), "list", "pos", "--json"});
  EXPECT_EQ(after.out.find("\"seq\":2,"), std::string::npos) << after.out;
  EXPECT_NE(after.out.find("\"cancel\":true"), std::string::npos) << after.out;
  EXPECT_EQ(cli.run({"--socket", a.socket(), "cancel", "pos"}).code, 2) << "cancel names nothing";
}

TEST_F(DissemCli, DurableSubscribeResumesWhereItLeftOffAndUnsubscribeEndsIt) {
  CliDaemon a(dir_, "a", port_);
  CliRunner cli(dir_);
  const auto first = dir_ / "first.out";
  {
    // A new durable subscription: each message acknowledged once written.
    Subscriber s(dir_, {"--socket", a.socket(), "subscribe", "jobs", "--name", "worker", "--count", "2",
                        "--timeout-s", "20", "-o", first.string()});
    ASSERT_TRUE(s.wait_subscribed()) << s.stderr_text();
    for (const char* text : {"one", "two"}) {
      write_file(dir_ / "m.txt", text);
      ASSERT_EQ(cli.run({"--socket", a.socket(), "publish", "jobs", (dir_ / "m.txt").string()}).code, 0);
    }
    ASSERT_EQ(s.finish(30s), std::optional<int>(0)) << s.stderr_text();
  }
  EXPECT_EQ(slurp(first), "onetwo");
  // Published while nobody holds the subscription: kept for it.
  write_file(dir_ / "m.txt", "three");
  ASSERT_EQ(cli.run({"--socket", a.socket(), "publish", "jobs", (dir_ / "m.txt").string()}).code, 0);
  const auto second = dir_ / "second.out";
  {
    Subscriber s(dir_, {"--socket", a.socket(), "subscribe", "jobs", "--name", "worker", "--count", "1",
                        "--timeout-s", "20", "-o", second.string()});
    ASSERT_EQ(s.finish(30s), std::optional<int>(0)) << s.stderr_text();
  }
  EXPECT_EQ(slurp(second), "three") << "resumed after what was acknowledged";
  EXPECT_EQ(cli.run({"--socket", a.socket(), "unsubscribe", "worker"}).code, 0);
  EXPECT_EQ(cli.run({"--socket", a.socket(), "unsubscribe", "worker"}).code, 1) << "no longer there";
}

TEST_F(DissemCli, SubscribeFiltersOnPriorityAndTag) {
  CliDaemon a(dir_, "a", port_);
  CliRunner cli(dir_);
  const auto got = dir_ / "filtered.out";
  Subscriber s(dir_, {"--socket", a.socket(), "subscribe", "f", "--min-priority", "3", "--tag", "alert", "--tag",
                      "warn", "--count", "2", "--timeout-s", "20", "-o", got.string()});
  ASSERT_TRUE(s.wait_subscribed()) << s.stderr_text();
  const std::vector<std::vector<std::string>> messages{
      {"low-alert", "--priority", "1", "--tag", "alert"},   // below the priority
      {"high-track", "--priority", "5", "--tag", "track"},  // another tag
      {"high-alert", "--priority", "5", "--tag", "alert"},
      {"mid-warn", "--priority", "3", "--tag", "warn"}};
  for (const auto& m : messages) {
    write_file(dir_ / "m.txt", m[0]);
    std::vector<std::string> args{"--socket", a.socket(), "publish", "f", (dir_ / "m.txt").string()};
    args.insert(args.end(), m.begin() + 1, m.end());
    ASSERT_EQ(cli.run(args).code, 0);
  }
  ASSERT_EQ(s.finish(30s), std::optional<int>(0)) << s.stderr_text();
  EXPECT_EQ(slurp(got), "high-alertmid-warn");
}

}  // namespace dissem_cli_test
