// The TCP baseline's socket operations on loopback: endpoints, a connection
// made once the listener is there, and the figures TCP reports.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <stdexcept>
#include <thread>

#include "socket_ops.h"

namespace dissem::tcp_baseline {
namespace {

// A loopback port nobody listens on right now (the kernel's pick).
std::uint16_t free_port() {
  Fd fd(::socket(AF_INET, SOCK_STREAM, 0));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof a;
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&a), &length) != 0)
    throw std::runtime_error("no free port");
  return ntohs(a.sin_port);
}

TEST(SocketOps, ParsesEndpoints) {
  const Endpoint a = parse_endpoint("10.77.0.2:5001", true);
  EXPECT_EQ(a.host, "10.77.0.2");
  EXPECT_EQ(a.port, 5001);
  const Endpoint b = parse_endpoint("5001", false);
  EXPECT_EQ(b.host, "0.0.0.0");
  EXPECT_EQ(b.port, 5001);
  for (const char* bad : {"5001", "host:5001", "1.2.3.4:0", "1.2.3.4:70000", "1.2.3.4:x", "1.2.3.4:"})
    EXPECT_THROW(parse_endpoint(bad, true), std::invalid_argument) << bad;
}

TEST(SocketOps, ConnectsOnceTheListenerIsThereAndReportsTcpFigures) {
  const std::uint16_t port = free_port();
  const Endpoint at = parse_endpoint("127.0.0.1:" + std::to_string(port), true);
  // Nobody listens for the first 300 ms: the sender keeps trying.
  auto server = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    Fd listener = listen_on(at);
    return accept_within(listener.get(), 5.0);
  });
  auto client = connect_with_retry(at, 5.0, [] { return false; });
  ASSERT_TRUE(client.has_value());
  auto accepted = server.get();
  ASSERT_TRUE(accepted.has_value());
  EXPECT_EQ(accepted->second, "127.0.0.1");
  set_no_delay(client->get());
  const char text[] = "hello";
  ASSERT_EQ(::send(client->get(), text, sizeof text, 0), static_cast<ssize_t>(sizeof text));
  char got[sizeof text] = {};
  ASSERT_EQ(::recv(accepted->first.get(), got, sizeof got, MSG_WAITALL), static_cast<ssize_t>(sizeof got));
  EXPECT_STREQ(got, text);
  const TcpFigures f = tcp_figures(client->get());
  EXPECT_GT(f.cwnd_segments, 0u);
}

TEST(SocketOps, GivesUpWhenNobodyListensOrWhenTold) {
  const Endpoint at = parse_endpoint("127.0.0.1:" + std::to_string(free_port()), true);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(connect_with_retry(at, 0.3, [] { return false; }).has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_FALSE(connect_with_retry(at, 60, [] { return true; }).has_value());
  Fd listener = listen_on(at);
  EXPECT_FALSE(accept_within(listener.get(), 0.05).has_value());
}

}  // namespace
}  // namespace dissem::tcp_baseline
