// dissemd's metrics endpoint (daemon/metrics_server.h) on loopback: off by
// default; on, GET /metrics answers with the counters (keep-alive for
// repeated scrapes), other paths and methods are refused with their HTTP
// status, and what is not HTTP closes that connection only.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "client/client.h"
#include "support/daemon_process.h"
#include "support/rogue_run.h"
#include "support/run_capture.h"

using namespace std::chrono_literals;
using dissem::testing::DaemonProcess;

namespace metrics_endpoint_test {
namespace {

// A TCP port nobody listens on now (bound, read, released).
int free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

class Connection {
 public:
  explicit Connection(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Connection() { ::close(fd_); }
  bool connected() const { return connected_; }

  // Sends `request` and reads one response: its head and a body of
  // Content-Length bytes (or what comes until the peer closes).
  std::string exchange(const std::string& request) {
    EXPECT_EQ(::send(fd_, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
    std::string got;
    char buf[65536];
    for (int i = 0; i < 1000; ++i) {
      const auto head_end = got.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        const auto cl = got.find("Content-Length: ");
        if (cl != std::string::npos && cl < head_end &&
            got.size() >= head_end + 4 + std::stoul(got.substr(cl + 16)))
          return got;
      }
      const auto n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    return got;
  }
  // True once the server has closed its side.
  bool closed_by_peer() {
    char c;
    return ::recv(fd_, &c, 1, 0) == 0;
  }

 private:
  int fd_;
  bool connected_ = false;
};

std::string get(const std::string& target) {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n";
}

class MetricsEndpoint : public dissem::testing::DaemonTest {};

TEST_F(MetricsEndpoint, OffByDefault) {
  const int tcp = free_tcp_port();
  DaemonProcess d(dir_, "d", port_, {"--set", "metrics.listen=127.0.0.1:" + std::to_string(tcp)});
  Connection c(tcp);
  EXPECT_FALSE(c.connected()) << "nothing listens unless metrics.enabled";
}

TEST_F(MetricsEndpoint, AScrapeCarriesTheCountersAndBadRequestsCloseOnlyTheirConnection) {
  const int tcp = free_tcp_port();
  DaemonProcess d(dir_, "d", port_,
                  {"--set", "metrics.enabled=true", "--set", "metrics.listen=127.0.0.1:" + std::to_string(tcp)});
  dissem::client::Client client(d.socket());
  client.publish("g", dissem::testing::pattern(3000, 1));
  client.publish("g", dissem::testing::pattern(3000, 2));

  Connection scraper(tcp);
  ASSERT_TRUE(scraper.connected());
  const std::string first = scraper.exchange(get("/metrics"));
  EXPECT_EQ(first.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << first.substr(0, 200);
  EXPECT_NE(first.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(first.find("\ndissem_messages_published_total 2\n"), std::string::npos) << first;
  EXPECT_NE(first.find("# TYPE dissem_traffic_sent_bytes_total counter\n"), std::string::npos);
  const std::string again = scraper.exchange(get("/metrics"));  // the same connection: keep-alive
  EXPECT_EQ(again.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);

  Connection other(tcp);
  EXPECT_EQ(other.exchange(get("/")).rfind("HTTP/1.1 404", 0), 0u);
  const std::string post = other.exchange("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(post.rfind("HTTP/1.1 405", 0), 0u) << post;
  EXPECT_NE(post.find("Allow: GET, HEAD"), std::string::npos);

  Connection garbage(tcp);
  EXPECT_EQ(garbage.exchange("\x16\x03\x01 not http at all\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_TRUE(garbage.closed_by_peer());
  Connection huge(tcp);
  EXPECT_EQ(huge.exchange("GET /metrics HTTP/1.1\r\nX: " + std::string(20000, 'a') + "\r\n\r\n").rfind("HTTP/1.1 400", 0),
            0u)
      << "a header past 8 KiB";

  // The daemon and the endpoint carry on.
  client.publish("g", dissem::testing::pattern(3000, 3));
  Connection after(tcp);
  EXPECT_NE(after.exchange(get("/metrics")).find("\ndissem_messages_published_total 3\n"), std::string::npos);
}

TEST_F(MetricsEndpoint, AnAddressInUseStopsStartUpNamingIt) {
  const int tcp = free_tcp_port();
  DaemonProcess first(dir_, "first", port_,
                      {"--set", "metrics.enabled=true", "--set", "metrics.listen=127.0.0.1:" + std::to_string(tcp)});
  int code = 0;
  const std::string out = dissem::testing::run_capture(
      std::string(DISSEMD_PATH) + " --interface lo --port " + std::to_string(port_) + " --cache " +
      (dir_ / "second.db").string() + " --socket " + (dir_ / "second.sock").string() +
      " --set metrics.enabled=true --set metrics.listen=127.0.0.1:" + std::to_string(tcp),
      &code);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("metrics: cannot listen on 127.0.0.1 port " + std::to_string(tcp)), std::string::npos) << out;
}

}  // namespace

}  // namespace metrics_endpoint_test
